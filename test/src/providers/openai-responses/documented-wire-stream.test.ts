/**
 * The Responses API's typed event stream on our own fixtures: deltas in order and the assembled
 * response (the same `generate` returns for the same output), a terminal event whose `output` is
 * empty (items collected from `output_item.done`), the stop at the terminal event while the
 * connection stays open, and any split of the bytes giving the same result.
 */
import fc from 'fast-check';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { openaiResponses } from 'golem/providers/openai-responses';
import { ask, collector, fixture, jsonReply, modelFor, sent, sseReply } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

test('text: output_text deltas spell the text; usage and ids from response.completed', async () => {
  server.push(sseReply('text.stream.sse'));
  const c = collector();
  const response = await modelFor(server).stream(ask('Owls?'), c.onDelta);
  expect(c.deltas).toEqual([
    { content: 'Owls' },
    { content: ' can turn' },
    { content: ' their heads 270 degrees.' },
  ]);
  expect(response).toEqual({
    message: {
      role: 'assistant',
      content: 'Owls can turn their heads 270 degrees.',
      responseId: 'resp_own_stream_01',
    },
    usage: { inputTokens: 22, outputTokens: 9 },
    finishReason: 'stop',
    modelName: 'gpt-own-2025-08-07',
    responseId: 'resp_own_stream_01',
  });
  expect(sent(server)).toEqual({
    model: 'gpt-own',
    input: [{ role: 'user', content: 'Owls?' }],
    store: false,
    stream: true,
  });
});

test('reasoning summary deltas (a blank line between parts), then the call announced and its argument fragments', async () => {
  server.push(sseReply('reasoning-tool.stream.sse'));
  const c = collector();
  const response = await modelFor(server, { model: 'o4-mini' }).stream(ask('Lagos?'), c.onDelta);
  expect(c.deltas).toEqual([
    { thinking: [{ index: 0, text: '**Weather' }] },
    { thinking: [{ index: 0, text: ' lookup**' }] },
    { thinking: [{ index: 0, text: '\n\n' }] },
    { thinking: [{ index: 0, text: 'Call get_weather for Lagos.' }] },
    { toolCalls: [{ index: 0, id: 'call_own_s2', name: 'get_weather' }] },
    { toolCalls: [{ index: 0, argsFragment: '{"city"' }] },
    { toolCalls: [{ index: 0, argsFragment: ':"Lag' }] },
    { toolCalls: [{ index: 0, argsFragment: 'os"}' }] },
  ]);
  const thinkingText = c.deltas
    .flatMap((d) => d.thinking ?? [])
    .map((t) => t.text)
    .join('');
  expect(response.message.thinking?.[0]?.text).toBe(thinkingText);
  expect(response).toEqual({
    message: {
      role: 'assistant',
      toolCalls: [{ id: 'call_own_s2', name: 'get_weather', args: '{"city":"Lagos"}' }],
      thinking: [
        {
          text: '**Weather lookup**\n\nCall get_weather for Lagos.',
          signature: 'gAAAAABown-encrypted-stream-02==',
          id: 'rs_own_s2',
          provider: 'openai-responses',
          model: 'o4-mini',
        },
      ],
      responseId: 'resp_own_stream_02',
    },
    usage: { inputTokens: 80, outputTokens: 60, cacheReadTokens: 32, reasoningTokens: 40 },
    finishReason: 'tool_calls',
    modelName: 'gpt-own-2025-08-07',
    responseId: 'resp_own_stream_02',
  });
  expect(sent(server).include).toEqual(['reasoning.encrypted_content']);
});

test('web search stream: a completed event with output: [] is assembled from output_item.done', async () => {
  server.push(sseReply('web-search.stream.sse'));
  const c = collector();
  const response = await modelFor(server).stream(ask('Lagos weather?'), c.onDelta);
  expect(c.deltas).toEqual([{ content: 'It is 31°C' }, { content: ' in Lagos today.' }]);
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'It is 31°C in Lagos today.',
    hostedToolCalls: [
      {
        id: 'ws_own_s3',
        type: 'web_search',
        provider: 'openai-responses',
        status: 'completed',
        input: '{"type":"search","query":"Lagos weather today"}',
      },
    ],
    citations: [
      {
        type: 'url',
        url: 'https://weather.example/lagos',
        title: 'Lagos weather',
        start: 0,
        end: 26,
      },
    ],
    responseId: 'resp_own_stream_03',
  });
});

test('the same output streamed or not gives the same response', async () => {
  server.push(sseReply('reasoning-tool.stream.sse'));
  const streamed = await modelFor(server).stream(ask('x'), () => undefined);
  const body = JSON.parse(
    fixture('reasoning-tool.stream.sse')
      .toString('utf8')
      .trim()
      .split('\n\n')
      .at(-1)!
      .split('\n')[1]!
      .slice('data: '.length),
  ) as { response: unknown };
  server.push({
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body.response),
  });
  const generated = await modelFor(server).generate(ask('x'));
  expect(streamed).toEqual(generated);
});

test('incomplete: response.incomplete ends the stream with finish reason length', async () => {
  server.push(sseReply('incomplete.stream.sse'));
  const response = await modelFor(server).stream(ask('story'), () => undefined);
  expect([response.message.content, response.finishReason]).toEqual(['Once upon a', 'length']);
});

test('the stream resolves at response.completed while the server holds the connection open', async () => {
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    body: fixture('text.stream.sse'),
    hold: true,
  });
  const response = await modelFor(server).stream(ask('Owls?'), () => undefined);
  expect(response.message.content).toBe('Owls can turn their heads 270 degrees.');
});

test('ADV: the reasoning stream split at arbitrary byte offsets gives the same deltas and response', async () => {
  const bytes = new Uint8Array(fixture('reasoning-tool.stream.sse'));
  const reference = await streamWith([bytes]);
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
      async (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const parts: Uint8Array[] = [];
        let start = 0;
        for (const cut of [...sorted, bytes.length]) {
          parts.push(bytes.slice(start, cut));
          start = cut;
        }
        expect(await streamWith(parts)).toEqual(reference);
      },
    ),
    { numRuns: 40 },
  );
});

async function streamWith(parts: readonly Uint8Array[]): Promise<unknown> {
  const fetch = () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts[i++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    );
  };
  const c = collector();
  const model = openaiResponses({ model: 'gpt-own', apiKey: 'k', fetch });
  const response = await model.stream(ask('x'), c.onDelta);
  return { deltas: c.deltas, response };
}

test('a JSON body to a streaming request is refused as a protocol error', async () => {
  server.push(jsonReply('response-text.json'));
  await expect(modelFor(server).stream(ask('x'), () => undefined)).rejects.toMatchObject({
    kind: 'ModelProtocolError',
    retryable: false,
  });
});
