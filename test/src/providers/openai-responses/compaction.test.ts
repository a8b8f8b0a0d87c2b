/**
 * Server-side compaction on the Responses adapter: `settings.compaction` becomes
 * `context_management: [{type: 'compaction', compact_threshold}]`; a `compaction` output item
 * (generate, or a stream's items) becomes the message's `compaction`, stamped with the adapter,
 * and a `compacted` context edit; the next stateless request replays the latest one in place of
 * the items before it, only for the same provider and model, and never prunes in chain mode.
 */
import { ConfigError, type Message, type ModelSettings } from 'golem';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { ask, collector, modelFor, sent } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const COMPACTION = { type: 'compaction', id: 'cmp_1', encrypted_content: 'ENC-1' };
const TEXT = {
  type: 'message',
  id: 'msg_1',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Noted.', annotations: [] }],
};
const USAGE = { input_tokens: 9000, output_tokens: 2 };

const json = (output: unknown[], id = 'resp_c1'): Reply => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id, status: 'completed', model: 'gpt-5', output, usage: USAGE }),
});

function events(output: Record<string, unknown>[], terminalOutput: unknown[] = output): Reply {
  const frames: Record<string, unknown>[] = [];
  output.forEach((item, i) => {
    frames.push({ type: 'response.output_item.added', output_index: i, item: { type: item.type } });
    if (item.type === 'message')
      frames.push({ type: 'response.output_text.delta', output_index: i, delta: 'Noted.' });
    frames.push({ type: 'response.output_item.done', output_index: i, item });
  });
  frames.push({
    type: 'response.completed',
    response: { id: 'resp_c1', status: 'completed', output: terminalOutput, usage: USAGE },
  });
  return {
    headers: { 'content-type': 'text/event-stream' },
    body: frames.map((f) => `event: ${String(f.type)}\ndata: ${JSON.stringify(f)}\n\n`).join(''),
  };
}

const STAMPED = { provider: 'openai-responses', model: 'gpt-5', id: 'cmp_1', data: 'ENC-1' };

test('the trigger is sent as compact_threshold; Anthropic-only fields are not', async () => {
  server.push(json([TEXT]));
  await modelFor(server, { model: 'gpt-5' }).generate(
    ask('Hi', {
      settings: { compaction: { triggerTokens: 20000, keepToolUses: 3, clearToolInputs: true } },
    }),
  );
  expect(sent(server).context_management).toEqual([
    { type: 'compaction', compact_threshold: 20000 },
  ]);
});

test('the adapter default settings can carry compaction; no compaction, no field', async () => {
  server.push(json([TEXT]), json([TEXT]));
  await modelFor(server, { settings: { compaction: { triggerTokens: 5000 } } }).generate(ask('a'));
  await modelFor(server).generate(ask('b'));
  expect(sent(server, 0).context_management).toEqual([
    { type: 'compaction', compact_threshold: 5000 },
  ]);
  expect(sent(server, 1)).not.toHaveProperty('context_management');
});

test.each([[{}], [{ triggerTokens: 0 }], [{ triggerTokens: 2.5 }], ['yes']])(
  'compaction %j is a model ConfigError; nothing is sent',
  async (compaction) => {
    const settings = { compaction } as unknown as ModelSettings;
    const error: unknown = await modelFor(server)
      .generate(ask('x', { settings }))
      .catch((e: unknown) => e);
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain('settings.compaction.triggerTokens');
    expect(server.requests).toHaveLength(0);
  },
);

test('generate: the compaction item rides on the message and is reported as an edit', async () => {
  server.push(json([COMPACTION, TEXT]));
  const response = await modelFor(server, { model: 'gpt-5' }).generate(ask('Hi'));
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'Noted.',
    responseId: 'resp_c1',
    compaction: STAMPED,
  });
  expect(response.contextEdits).toEqual([{ kind: 'compacted', type: 'compaction' }]);
});

test('stream: the same, from the terminal output or the items of output_item.done', async () => {
  server.push(events([COMPACTION, TEXT]), events([COMPACTION, TEXT], []));
  const model = modelFor(server, { model: 'gpt-5' });
  for (let i = 0; i < 2; i++) {
    const c = collector();
    const response = await model.stream(ask('Hi'), c.onDelta);
    expect(c.deltas).toEqual([{ content: 'Noted.' }]);
    expect(response.message.compaction).toEqual(STAMPED);
    expect(response.contextEdits).toEqual([{ kind: 'compacted', type: 'compaction' }]);
  }
});

test.each([
  ['no encrypted_content', { type: 'compaction', id: 'cmp_x' }],
  ['an empty one', { type: 'compaction', id: 'cmp_x', encrypted_content: '' }],
  ['a non-string one', { type: 'compaction', id: 'cmp_x', encrypted_content: { a: 1 } }],
])('a compaction item with %s is left out, with no edit reported', async (_, item) => {
  server.push(json([item, TEXT]), events([item, TEXT]));
  const model = modelFor(server);
  const generated = await model.generate(ask('Hi'));
  const streamed = await model.stream(ask('Hi'), () => undefined);
  for (const response of [generated, streamed]) {
    expect(response.message).not.toHaveProperty('compaction');
    expect(response).not.toHaveProperty('contextEdits');
    expect(response.message.content).toBe('Noted.');
  }
});

test('a compaction item without an id is kept without one', async () => {
  server.push(json([{ type: 'compaction', encrypted_content: 'ENC-2' }, TEXT]));
  const response = await modelFor(server, { model: 'gpt-5' }).generate(ask('Hi'));
  expect(response.message.compaction).toEqual({
    provider: 'openai-responses',
    model: 'gpt-5',
    data: 'ENC-2',
  });
});

const history = (compaction: Message['compaction']): Message[] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Read the logs.' },
  { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'read_log', args: '{}' }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'disk full' },
  {
    role: 'assistant',
    content: 'The disk is full.',
    responseId: 'resp_c1',
    ...(compaction === undefined ? {} : { compaction }),
  },
  { role: 'user', content: 'Next step?' },
];

test('stateless: the latest compaction replaces the items before its message', async () => {
  server.push(json([TEXT]));
  const older = { ...STAMPED, id: 'cmp_0', data: 'ENC-0' };
  const messages = history(STAMPED);
  messages.splice(2, 0, { role: 'assistant', content: 'Looking.', compaction: older });
  await modelFor(server, { model: 'gpt-5' }).generate({ messages, tools: [] });
  expect(sent(server).instructions).toBe('Be brief.');
  expect(sent(server).input).toEqual([
    { type: 'compaction', id: 'cmp_1', encrypted_content: 'ENC-1' },
    { role: 'assistant', content: 'The disk is full.' },
    { role: 'user', content: 'Next step?' },
  ]);
});

test.each([
  ['another provider', { ...STAMPED, provider: 'azure-responses' }],
  ['another model', { ...STAMPED, model: 'gpt-4.1' }],
])('a compaction of %s is never sent: the full history goes instead', async (_, foreign) => {
  server.push(json([TEXT]));
  await modelFor(server, { model: 'gpt-5' }).generate({ messages: history(foreign), tools: [] });
  const input = sent(server).input as Record<string, unknown>[];
  expect(input).toHaveLength(5);
  expect(JSON.stringify(input)).not.toContain('ENC-1');
  expect(input[0]).toEqual({ role: 'user', content: 'Read the logs.' });
});

test('chain mode: previous_response_id carries the context; nothing is pruned or replayed', async () => {
  server.push(json([TEXT]));
  await modelFor(server, { model: 'gpt-5', previousResponseId: 'auto' }).generate({
    messages: history(STAMPED),
    tools: [],
  });
  expect(sent(server).previous_response_id).toBe('resp_c1');
  expect(sent(server).input).toEqual([{ role: 'user', content: 'Next step?' }]);
});

test('stream: a replayed request carries the compaction the same way', async () => {
  server.push(events([TEXT]));
  await modelFor(server, { model: 'gpt-5' }).stream(
    { messages: history(STAMPED), tools: [] },
    () => undefined,
  );
  expect((sent(server).input as unknown[])[0]).toEqual({
    type: 'compaction',
    id: 'cmp_1',
    encrypted_content: 'ENC-1',
  });
  expect(sent(server).stream).toBe(true);
});
