/**
 * The context-editing exchange as a recorded-wire fixture in golem's record/replay format
 * (fixtures/context-editing.fixture.json, written by hand from the documented wire shapes):
 * replayed offline through `replayFetch`, which checks each request body field by field, so the
 * request the adapter builds from a tool conversation with `settings.compaction` must be exactly
 * the recorded one, and the recorded answers must decode into `contextEdits`, generate and stream.
 */
import { join } from 'node:path';
import type { Message, ModelRequest } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { loadFixture, replayFetch } from 'golem/testing';
import { API_KEY, DeltaLog, OWN_FIXTURES } from './support';

const FIXTURE = join(OWN_FIXTURES, 'context-editing.fixture.json');

const history: Message[] = [
  { role: 'user', content: 'Which service failed first?' },
  {
    role: 'assistant',
    toolCalls: [{ id: 'toolu_own_log_api', name: 'read_log', args: '{"service":"api"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'toolu_own_log_api',
    toolName: 'read_log',
    content: '14:02:07 api: upstream timeout after 30 s (db)',
  },
  {
    role: 'assistant',
    toolCalls: [{ id: 'toolu_own_log_db', name: 'read_log', args: '{"service":"db"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'toolu_own_log_db',
    toolName: 'read_log',
    content: '14:01:55 db: could not extend file: No space left on device',
  },
];

const request: ModelRequest = {
  messages: history,
  tools: [
    {
      name: 'read_log',
      description: 'The recent log lines of one service.',
      schema: {
        type: 'object',
        properties: { service: { type: 'string' } },
        required: ['service'],
      },
    },
  ],
  settings: {
    compaction: {
      triggerTokens: 30000,
      keepToolUses: 1,
      clearAtLeastTokens: 5000,
      excludeTools: ['web_search'],
      clearToolInputs: false,
    },
  },
};

const EDIT = {
  kind: 'cleared-tool-uses',
  type: 'clear_tool_uses_20250919',
  clearedToolUses: 1,
  clearedInputTokens: 6120,
};

test('the fixture is golem format: the request carries the edit and the beta header', () => {
  const fixture = loadFixture(FIXTURE);
  expect(fixture.exchanges).toHaveLength(2);
  for (const exchange of fixture.exchanges) {
    expect(exchange.request.headers?.['anthropic-beta']).toBe('context-management-2025-06-27');
    expect(exchange.request.body).toHaveProperty('context_management.edits.0.type');
  }
});

test('generate, then stream: the recorded requests match and the applied edits are reported', async () => {
  const replay = replayFetch(FIXTURE);
  const model = anthropic({ model: 'claude-sonnet-4-5', apiKey: API_KEY, fetch: replay });

  const generated = await model.generate(request);
  expect(generated.contextEdits).toEqual([EDIT]);
  expect(generated.message.content).toMatch(/^The database failed first/);
  expect(generated.usage.inputTokens).toBe(31840);

  const log = new DeltaLog();
  const streamed = await model.stream(request, log.handler);
  expect(streamed.contextEdits).toEqual([EDIT]);
  expect(streamed.message.content).toBe(log.text);
  expect(log.text).toBe('The database failed first (disk full at 14:01:55).');

  replay.assertDone();
});

test('a request without the compaction settings does not match the recording', async () => {
  const replay = replayFetch(FIXTURE);
  const model = anthropic({ model: 'claude-sonnet-4-5', apiKey: API_KEY, fetch: replay });
  const { settings: _settings, ...plain } = request;
  await expect(model.generate(plain)).rejects.toThrow();
  expect(() => {
    replay.assertDone();
  }).toThrow(/context_management/);
});
