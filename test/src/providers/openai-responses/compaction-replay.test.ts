/**
 * The compaction exchange as a recorded-wire fixture in golem's record/replay format
 * (fixtures/compaction.fixture.json, written by hand from the documented wire shapes): a streamed
 * turn whose output starts with a `compaction` item, then the next stateless turn, which must
 * send that item in place of everything before it. `replayFetch` checks both request bodies
 * field by field.
 */
import { join } from 'node:path';
import type { Message, ModelRequest } from 'golem';
import { openaiResponses } from 'golem/providers/openai-responses';
import { loadFixture, replayFetch } from 'golem/testing';
import { KEY, collector } from './support';

const FIXTURE = join(__dirname, 'fixtures', 'compaction.fixture.json');

const tools: ModelRequest['tools'] = [
  {
    name: 'read_log',
    description: 'The recent log lines of one service.',
    schema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
  },
];
const settings = { compaction: { triggerTokens: 20000 } };

const first: Message[] = [
  { role: 'system', content: 'You are the on-call assistant.' },
  { role: 'user', content: 'Summarise the incident so far.' },
  {
    role: 'assistant',
    toolCalls: [{ id: 'call_own_log', name: 'read_log', args: '{"service":"db"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'call_own_log',
    toolName: 'read_log',
    content: '14:01:55 db: could not extend file: No space left on device',
  },
];

test('the fixture is golem format and its second request starts with the compaction item', () => {
  const fixture = loadFixture(FIXTURE);
  expect(fixture.exchanges).toHaveLength(2);
  const second = fixture.exchanges[1]?.request.body as { input: { type?: string }[] };
  expect(second.input[0]?.type).toBe('compaction');
});

test('stream a compacting turn, then the next turn replays the item in place of the history', async () => {
  const replay = replayFetch(FIXTURE);
  const model = openaiResponses({ model: 'gpt-5', apiKey: KEY, fetch: replay });

  const c = collector();
  const turn = await model.stream({ messages: first, tools, settings }, c.onDelta);
  expect(turn.contextEdits).toEqual([{ kind: 'compacted', type: 'compaction' }]);
  expect(turn.message.compaction).toEqual({
    provider: 'openai-responses',
    model: 'gpt-5',
    id: 'cmp_own_01',
    data: 'gAAAAB-own-compaction-0001-opaque-Zm9yIHRlc3RzIG9ubHk=',
  });
  expect(c.deltas.map((d) => d.content).join('')).toBe(turn.message.content);

  const next = await model.generate({
    messages: [...first, turn.message, { role: 'user', content: 'What should we do next?' }],
    tools,
    settings,
  });
  expect(next.message.content).toBe('Free space on the db volume, then restart the API.');
  expect(next).not.toHaveProperty('contextEdits');
  replay.assertDone();
});

test('without the compaction item the second request differs from the recording', async () => {
  const replay = replayFetch(FIXTURE);
  const model = openaiResponses({ model: 'gpt-5', apiKey: KEY, fetch: replay });
  const turn = await model.stream({ messages: first, tools, settings }, () => undefined);
  const { compaction: _dropped, ...plain } = turn.message;
  await expect(
    model.generate({
      messages: [...first, plain, { role: 'user', content: 'What should we do next?' }],
      tools,
      settings,
    }),
  ).rejects.toThrow();
  expect(() => {
    replay.assertDone();
  }).toThrow(/input/);
});
