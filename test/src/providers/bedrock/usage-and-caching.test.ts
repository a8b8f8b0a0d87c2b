/**
 * Detailed usage and prompt caching on the Converse wire (documented shapes, through the real
 * SDK). Converse reports `inputTokens` without `cacheReadInputTokens`/`cacheWriteInputTokens`,
 * so the neutral input is their sum, with cache reads and writes reported apart.
 * `settings.cache` and message `cachePoint`s become `cachePoint` blocks after the tools, the
 * system blocks and message content — at most 4, with one TTL.
 */
import { type Message, type ModelRequest, type ToolSpec, ConfigError } from 'golem';
import {
  eventFrame,
  frames,
  jsonReply,
  ownFixture,
  rejection,
  streamReply,
  useHarness,
} from './support';

const harness = useHarness();

const converse = (usage: Record<string, number>) =>
  JSON.stringify({
    output: { message: { role: 'assistant', content: [{ text: 'Twenty-five days.' }] } },
    stopReason: 'end_turn',
    usage,
    metrics: { latencyMs: 200 },
  });

const tools: ToolSpec[] = [
  { name: 'search', description: 'Search the handbook', schema: { type: 'object' } },
];
const conversation: Message[] = [
  { role: 'system', content: 'You answer from the handbook.' },
  { role: 'user', content: 'The handbook: …', cachePoint: true },
  { role: 'assistant', content: 'Read it.' },
  { role: 'user', content: 'How many days of leave?' },
];

async function sentBody(request: ModelRequest): Promise<Record<string, unknown>> {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-text.json')));
  await model().generate(request);
  return server.requests.at(-1)!.json as Record<string, unknown>;
}

test('generate: input is inputTokens plus cache reads and writes; both are reported apart', async () => {
  const { server, model } = harness.current;
  server.push(
    jsonReply(
      converse({
        inputTokens: 12,
        outputTokens: 30,
        totalTokens: 2842,
        cacheReadInputTokens: 2800,
        cacheWriteInputTokens: 0,
      }),
    ),
  );
  const response = await model().generate({ messages: conversation, tools: [] });
  expect(response.usage).toEqual({ inputTokens: 2812, outputTokens: 30, cacheReadTokens: 2800 });
  expect(response.usage.inputTokens + response.usage.outputTokens).toBe(2842);
});

test('stream: the metadata event carries the cache counts', async () => {
  const { server, model } = harness.current;
  server.push(
    streamReply(
      frames(
        eventFrame('messageStart', { role: 'assistant' }),
        eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Noted.' } }),
        eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
        eventFrame('messageStop', { stopReason: 'end_turn' }),
        eventFrame('metadata', {
          usage: {
            inputTokens: 5,
            outputTokens: 2,
            totalTokens: 2007,
            cacheWriteInputTokens: 2000,
          },
          metrics: { latencyMs: 120 },
        }),
      ),
    ),
  );
  const response = await model().stream({ messages: conversation, tools: [] }, () => undefined);
  expect(response.usage).toEqual({ inputTokens: 2005, outputTokens: 2, cacheWriteTokens: 2000 });
});

test('cache: true adds cachePoint blocks after the tools, the system prompt and the last message', async () => {
  const body = await sentBody({
    messages: conversation.map(({ cachePoint: _marker, ...m }) => m),
    tools,
    settings: { cache: true },
  });
  expect(body.system).toEqual([
    { text: 'You answer from the handbook.' },
    { cachePoint: { type: 'default' } },
  ]);
  expect((body.toolConfig as { tools: unknown[] }).tools).toEqual([
    {
      toolSpec: {
        name: 'search',
        description: 'Search the handbook',
        inputSchema: { json: { type: 'object' } },
      },
    },
    { cachePoint: { type: 'default' } },
  ]);
  expect(body.messages).toEqual([
    { role: 'user', content: [{ text: 'The handbook: …' }] },
    { role: 'assistant', content: [{ text: 'Read it.' }] },
    {
      role: 'user',
      content: [{ text: 'How many days of leave?' }, { cachePoint: { type: 'default' } }],
    },
  ]);
});

test('a marked message gets its own cachePoint; ttl 1h goes on every point', async () => {
  const body = await sentBody({
    messages: conversation,
    tools,
    settings: { cache: { tools: false, instructions: false, ttl: '1h' } },
  });
  expect(body.system).toEqual([{ text: 'You answer from the handbook.' }]);
  expect((body.toolConfig as { tools: unknown[] }).tools).toHaveLength(1);
  const point = { cachePoint: { type: 'default', ttl: '1h' } };
  expect(body.messages).toEqual([
    { role: 'user', content: [{ text: 'The handbook: …' }, point] },
    { role: 'assistant', content: [{ text: 'Read it.' }] },
    { role: 'user', content: [{ text: 'How many days of leave?' }, point] },
  ]);
});

test('marked messages merged into one turn each get a point right after their own blocks', async () => {
  const body = await sentBody({
    messages: [
      { role: 'user', content: 'part one', cachePoint: true },
      { role: 'user', content: 'part two', cachePoint: true },
      { role: 'user', content: 'question' },
    ],
    tools: [],
  });
  const point = { cachePoint: { type: 'default' } };
  expect(body.messages).toEqual([
    {
      role: 'user',
      content: [{ text: 'part one' }, point, { text: 'part two' }, point, { text: 'question' }],
    },
  ]);
});

test('a malformed cache setting is a model ConfigError before anything is signed or sent', async () => {
  const { server, model } = harness.current;
  const error = await rejection(
    model().generate({ messages: conversation, tools, settings: { cache: 'yes' as never } }),
  );
  expect(ConfigError.is(error, 'model')).toBe(true);
  expect(server.requests).toHaveLength(0);
});
