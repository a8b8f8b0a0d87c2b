/**
 * The Anthropic streaming wire (message_start … message_stop SSE events) on our own fixtures
 * written from the documented format: text, parallel tool calls with input_json_delta fragments,
 * a call cut off by max_tokens, a call without arguments, thinking with a signature_delta and
 * cache usage, and redacted thinking. Each stream must equal `generate` on the same content.
 */
import type { ModelRequest, ModelResponse } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireResponse } from '../../../support/wire-response';
import { DeltaLog, jsonReply, modelFor, ownFixture, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'go' }], tools: [] };

async function streamed(file: string): Promise<{ response: ModelResponse; log: DeltaLog }> {
  server.push(sseReply(ownFixture(file)));
  const log = new DeltaLog();
  const response = await modelFor(server).stream(request, log.handler);
  return { response, log };
}

const model = 'claude-own-test-1';

/** Each stream fixture and the exact response it must assemble to. */
const cases: [string, ModelResponse][] = [
  [
    'text.stream.sse',
    {
      message: { role: 'assistant', content: 'Sourdough needs a warm kitchen and patience.' },
      usage: { inputTokens: 21, outputTokens: 9 },
      finishReason: 'stop',
      modelName: model,
      responseId: 'msg_own_stream_01',
    },
  ],
  [
    'parallel-tools.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Checking both libraries.',
        toolCalls: [
          {
            id: 'toolu_own_shelf_1',
            name: 'find_book',
            args: '{"library":"north","isbn":"978-0-00-000001-1"}',
          },
          {
            id: 'toolu_own_shelf_2',
            name: 'find_book',
            args: '{"library":"south","isbn":"978-0-00-000002-8"}',
          },
        ],
      },
      usage: { inputTokens: 402, outputTokens: 88 },
      finishReason: 'tool_calls',
      modelName: model,
      responseId: 'msg_own_stream_02',
    },
  ],
  [
    'tool-max-tokens.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Writing the packing list now.',
        toolCalls: [
          {
            id: 'toolu_own_list_1',
            name: 'save_list',
            args: '{"name": "trip.txt", "items": ["tent", "sto',
          },
        ],
      },
      usage: { inputTokens: 77, outputTokens: 32 },
      finishReason: 'length',
      modelName: model,
      responseId: 'msg_own_stream_03',
    },
  ],
  [
    'tool-no-args.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Refreshing the queue.',
        toolCalls: [{ id: 'toolu_own_refresh_1', name: 'refresh_queue', args: '{}' }],
      },
      usage: { inputTokens: 150, outputTokens: 30 },
      finishReason: 'tool_calls',
      modelName: model,
      responseId: 'msg_own_stream_04',
    },
  ],
  [
    'thinking.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Three weeks are 21 days.',
        thinking: [
          {
            text: 'A week has 7 days, so 3 weeks is 21 days.',
            signature: 'b3duLXN0cmVhbS1zaWduYXR1cmUtMjEtZGF5cw==',
          },
        ],
      },
      // input_tokens 12 + cache_creation 300 + cache_read 1200; message_delta's output count wins.
      usage: { inputTokens: 1512, outputTokens: 47, cacheReadTokens: 1200, cacheWriteTokens: 300 },
      finishReason: 'stop',
      modelName: model,
      responseId: 'msg_own_stream_05',
    },
  ],
  [
    'redacted-thinking.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Part of my reasoning was redacted; the answer is still yes.',
        thinking: [
          { redacted: 'T1dOLXJlZGFjdGVkLWJsb2NrLW9uZQ==' },
          { redacted: 'T1dOLXJlZGFjdGVkLWJsb2NrLXR3bw==' },
        ],
      },
      usage: { inputTokens: 64, outputTokens: 120 },
      finishReason: 'stop',
      modelName: model,
      responseId: 'msg_own_stream_06',
    },
  ],
];

describe.each(cases)('%s', (file, expected) => {
  test('assembles to the exact normalised response', async () => {
    const { response } = await streamed(file);
    expect(wireResponse(response)).toEqual(expected);
  });

  test('the deltas add up to the text, tool calls and signed thinking of the response', async () => {
    const { response, log } = await streamed(file);
    expect(log.text).toBe(response.message.content);
    // Fragments carry the provider's raw text; the response holds it re-serialised when complete.
    const calls = (response.message.toolCalls ?? []).map(({ id, name, args }) => ({
      id,
      name,
      args,
    }));
    expect(log.toolCalls.map(({ id, name, args }) => ({ id, name, args: rawArgs(args) }))).toEqual(
      calls,
    );
    expect(log.thinking.map(({ text, signature }) => ({ text, signature }))).toEqual(
      (response.message.thinking ?? [])
        .filter((b) => b.redacted === undefined)
        .map((b) => ({ text: b.text, signature: b.signature })),
    );
  });

  test('is a stream request with the event-stream accept header', async () => {
    await streamed(file);
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
    expect((server.requests[0]?.json as { stream?: unknown }).stream).toBe(true);
  });
});

// A non-streamed message never holds partial input, so a call cut off mid-stream has no twin.
test.each(cases.filter(([file]) => file !== 'tool-max-tokens.stream.sse'))(
  '%s equals what generate returns for a message with the same content',
  async (file, expected) => {
    const { response } = await streamed(file);
    server.push(jsonReply(messageBody(expected, file)));
    expect(await modelFor(server).generate(request)).toEqual(response);
  },
);

/** The non-streamed Messages body with the same blocks, stop reason and usage as a stream file. */
function messageBody(expected: ModelResponse, file: string): string {
  const events = ownFixture(file)
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  const start = events[0] as { message: { usage: Record<string, number> } };
  const end = events.find((e) => e.type === 'message_delta') as {
    delta: { stop_reason: string };
    usage: Record<string, number>;
  };
  const { message } = expected;
  const content: unknown[] = (message.thinking ?? []).map((b) =>
    b.redacted === undefined
      ? { type: 'thinking', thinking: b.text, signature: b.signature }
      : { type: 'redacted_thinking', data: b.redacted },
  );
  if (message.content !== undefined) content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? [])
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: parseOrEmpty(call.args),
    });
  return JSON.stringify({
    type: 'message',
    id: expected.responseId,
    role: 'assistant',
    model: expected.modelName,
    content,
    stop_reason: end.delta.stop_reason,
    usage: { ...start.message.usage, ...end.usage },
  });
}

/** Streamed args as the response holds them: `{}` when none came, compact JSON when complete. */
function rawArgs(args: string): string {
  if (args === '') return '{}';
  try {
    return JSON.stringify(JSON.parse(args));
  } catch {
    return args;
  }
}

function parseOrEmpty(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return {};
  }
}

test('parallel calls: a first fragment {index, id, name} per call, then its non-empty args fragments', async () => {
  const { log } = await streamed('parallel-tools.stream.sse');
  expect(log.deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
    { index: 0, id: 'toolu_own_shelf_1', name: 'find_book' },
    { index: 0, argsFragment: '{"libr' },
    { index: 0, argsFragment: 'ary": "north", "isbn"' },
    { index: 0, argsFragment: ': "978-0-00-000001-1"}' },
    { index: 1, id: 'toolu_own_shelf_2', name: 'find_book' },
    { index: 1, argsFragment: '{"library": "so' },
    { index: 1, argsFragment: 'uth", "isbn": "978-0-00-000002-8"}' },
  ]);
});

test('thinking: every thinking fragment precedes the text; the signature is a fragment of its own', async () => {
  const { log } = await streamed('thinking.stream.sse');
  const firstContent = log.deltas.findIndex((d) => d.content !== undefined);
  const lastThinking = log.deltas.map((d) => d.thinking !== undefined).lastIndexOf(true);
  expect(lastThinking).toBeLessThan(firstContent);
  expect(log.deltas.flatMap((d) => d.thinking ?? [])).toEqual([
    { index: 0, text: 'A week has 7 days,' },
    { index: 0, text: ' so 3 weeks is 21 days.' },
    { index: 0, signature: 'b3duLXN0cmVhbS1zaWduYXR1cmUtMjEtZGF5cw==' },
  ]);
});

test('redacted thinking arrives whole in content_block_start and produces no thinking delta', async () => {
  const { log } = await streamed('redacted-thinking.stream.sse');
  expect(log.deltas.filter((d) => d.thinking !== undefined)).toEqual([]);
});

test('a call without arguments announces itself once and sends no args fragment', async () => {
  const { log } = await streamed('tool-no-args.stream.sse');
  expect(log.deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
    { index: 0, id: 'toolu_own_refresh_1', name: 'refresh_queue' },
  ]);
});
