/**
 * Provider-side compaction on the Anthropic adapter (context editing): `settings.compaction`
 * becomes `context_management` with one `clear_tool_uses_20250919` edit and the
 * `context-management-2025-06-27` beta (merged with the configured betas); the edits the API
 * applied (`context_management.applied_edits`, in the message body or the stream's
 * `message_delta`) become `contextEdits`; malformed reports are ignored, bad settings refused.
 */
import { ConfigError, type ModelRequest, type ModelSettings } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { DeltaLog, jsonReply, modelFor, sse, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const BETA = 'context-management-2025-06-27';

const ask = (settings?: ModelSettings): ModelRequest => ({
  messages: [{ role: 'user', content: 'Which service failed first?' }],
  tools: [],
  ...(settings === undefined ? {} : { settings }),
});

const message = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id: 'msg_ctx',
    type: 'message',
    role: 'assistant',
    model: 'claude-own-test-1',
    content: [{ type: 'text', text: 'The database.' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 40, output_tokens: 3 },
    ...extra,
  });

const streamed = (delta: Record<string, unknown> = {}, start: Record<string, unknown> = {}) =>
  sse(
    {
      type: 'message_start',
      message: {
        id: 'msg_ctx_s',
        type: 'message',
        role: 'assistant',
        model: 'claude-own-test-1',
        content: [],
        usage: { input_tokens: 40, output_tokens: 1 },
        ...start,
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The database.' } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 3 },
      ...delta,
    },
    { type: 'message_stop' },
  );

const APPLIED = {
  applied_edits: [
    { type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 8200 },
  ],
};

test('every compaction field maps onto the clear_tool_uses edit, with the beta header', async () => {
  server.push(jsonReply(message()));
  await modelFor(server).generate(
    ask({
      compaction: {
        triggerTokens: 30000,
        keepToolUses: 2,
        clearAtLeastTokens: 5000,
        excludeTools: ['web_search', 'memory'],
        clearToolInputs: true,
      },
    }),
  );
  const request = server.requests[0];
  expect(request?.headers['anthropic-beta']).toBe(BETA);
  expect((request?.json as Record<string, unknown>).context_management).toEqual({
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 30000 },
        keep: { type: 'tool_uses', value: 2 },
        clear_at_least: { type: 'input_tokens', value: 5000 },
        exclude_tools: ['web_search', 'memory'],
        clear_tool_inputs: true,
      },
    ],
  });
});

test('only the trigger is sent when the other fields are unset; the API defaults the rest', async () => {
  server.push(sseReply(streamed()));
  await modelFor(server).stream(ask({ compaction: { triggerTokens: 100000 } }), () => undefined);
  const body = server.requests[0]?.json as Record<string, unknown>;
  expect(body.context_management).toEqual({
    edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100000 } }],
  });
  expect(server.requests[0]?.headers['anthropic-beta']).toBe(BETA);
});

test('the beta joins the configured betas once, after them', async () => {
  server.push(jsonReply(message()), jsonReply(message()), jsonReply(message()));
  const compaction = { triggerTokens: 1000 };
  await modelFor(server, { betas: ['interleaved-thinking-2025-05-14'] }).generate(
    ask({ compaction }),
  );
  await modelFor(server, { betas: [BETA, 'files-api-2025-04-14'] }).generate(ask({ compaction }));
  await modelFor(server, { betas: ['interleaved-thinking-2025-05-14'] }).generate(ask());
  expect(server.requests.map((r) => r.headers['anthropic-beta'])).toEqual([
    `interleaved-thinking-2025-05-14,${BETA}`,
    `${BETA},files-api-2025-04-14`,
    'interleaved-thinking-2025-05-14',
  ]);
});

test('without compaction neither the field nor the beta is sent', async () => {
  server.push(jsonReply(message()));
  const response = await modelFor(server).generate(ask());
  expect(server.requests[0]?.headers['anthropic-beta']).toBeUndefined();
  expect(server.requests[0]?.json).not.toHaveProperty('context_management');
  expect(response).not.toHaveProperty('contextEdits');
});

test('generate: applied edits become contextEdits, thinking clearing included', async () => {
  server.push(
    jsonReply(
      message({
        context_management: {
          applied_edits: [
            ...APPLIED.applied_edits,
            {
              type: 'clear_thinking_20251015',
              cleared_thinking_turns: 2,
              cleared_input_tokens: 900,
            },
          ],
        },
      }),
    ),
  );
  const response = await modelFor(server).generate(ask({ compaction: { triggerTokens: 1000 } }));
  expect(response.contextEdits).toEqual([
    {
      kind: 'cleared-tool-uses',
      type: 'clear_tool_uses_20250919',
      clearedToolUses: 3,
      clearedInputTokens: 8200,
    },
    {
      kind: 'cleared-thinking',
      type: 'clear_thinking_20251015',
      clearedThinkingTurns: 2,
      clearedInputTokens: 900,
    },
  ]);
  expect(response.message).toEqual({ role: 'assistant', content: 'The database.' });
});

test('stream: the edits of message_delta become contextEdits; a null one in message_start is ignored', async () => {
  server.push(sseReply(streamed({ context_management: APPLIED }, { context_management: null })));
  const log = new DeltaLog();
  const response = await modelFor(server).stream(
    ask({ compaction: { triggerTokens: 1000 } }),
    log.handler,
  );
  expect(log.text).toBe('The database.');
  expect(response.contextEdits).toEqual([
    {
      kind: 'cleared-tool-uses',
      type: 'clear_tool_uses_20250919',
      clearedToolUses: 3,
      clearedInputTokens: 8200,
    },
  ]);
});

test('stream and generate agree: no edits applied means no contextEdits', async () => {
  server.push(
    jsonReply(message({ context_management: { applied_edits: [] } })),
    sseReply(streamed({ context_management: { applied_edits: [] } })),
  );
  const model = modelFor(server);
  const request = ask({ compaction: { triggerTokens: 1000 } });
  expect(await model.generate(request)).not.toHaveProperty('contextEdits');
  expect(await model.stream(request, () => undefined)).not.toHaveProperty('contextEdits');
});

test.each([
  ['not an object', 'cleared'],
  ['applied_edits not an array', { applied_edits: { type: 'clear_tool_uses_20250919' } }],
  ['entries that are not objects or lack a type', { applied_edits: [null, 7, { cleared: 1 }] }],
  ['an unknown edit type', { applied_edits: [{ type: 'rewrite_history_20990101' }] }],
])('a malformed report (%s) is ignored; the response still decodes', async (_, report) => {
  server.push(jsonReply(message({ context_management: report })));
  server.push(sseReply(streamed({ context_management: report })));
  const model = modelFor(server);
  const generated = await model.generate(ask({ compaction: { triggerTokens: 1000 } }));
  const streamedResponse = await model.stream(ask(), () => undefined);
  for (const response of [generated, streamedResponse]) {
    expect(response).not.toHaveProperty('contextEdits');
    expect(response.message.content).toBe('The database.');
  }
});

test('counts that are not whole numbers >= 0 are left out of a kept edit', async () => {
  server.push(
    jsonReply(
      message({
        context_management: {
          applied_edits: [
            { type: 'clear_tool_uses_20250919', cleared_tool_uses: -1, cleared_input_tokens: '9' },
            { type: 'clear_tool_uses_20250919', cleared_tool_uses: 1.5, cleared_input_tokens: 0 },
          ],
        },
      }),
    ),
  );
  const response = await modelFor(server).generate(ask());
  expect(response.contextEdits).toEqual([
    { kind: 'cleared-tool-uses', type: 'clear_tool_uses_20250919' },
    { kind: 'cleared-tool-uses', type: 'clear_tool_uses_20250919', clearedInputTokens: 0 },
  ]);
});

test.each([
  ['no triggerTokens', {}, 'triggerTokens'],
  ['a zero trigger', { triggerTokens: 0 }, 'triggerTokens'],
  ['a fractional trigger', { triggerTokens: 1.5 }, 'triggerTokens'],
  ['a negative keepToolUses', { triggerTokens: 10, keepToolUses: -1 }, 'keepToolUses'],
  ['a zero clearAtLeastTokens', { triggerTokens: 10, clearAtLeastTokens: 0 }, 'clearAtLeastTokens'],
  ['excludeTools not an array', { triggerTokens: 10, excludeTools: 'memory' }, 'excludeTools'],
  ['an empty tool name', { triggerTokens: 10, excludeTools: [''] }, 'excludeTools'],
  [
    'clearToolInputs not a boolean',
    { triggerTokens: 10, clearToolInputs: 'yes' },
    'clearToolInputs',
  ],
])('%s is a model ConfigError naming the field; nothing is sent', async (_, compaction, field) => {
  const settings = { compaction } as unknown as ModelSettings;
  const error: unknown = await modelFor(server)
    .generate(ask(settings))
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect((error as Error).message).toContain(`settings.compaction.${field}`);
  expect(server.requests).toHaveLength(0);
});

test('keepToolUses 0 is a real value and is sent', async () => {
  server.push(jsonReply(message()));
  await modelFor(server).generate(ask({ compaction: { triggerTokens: 10, keepToolUses: 0 } }));
  const body = server.requests[0]?.json as { context_management: { edits: unknown[] } };
  expect(body.context_management.edits[0]).toMatchObject({ keep: { type: 'tool_uses', value: 0 } });
});
