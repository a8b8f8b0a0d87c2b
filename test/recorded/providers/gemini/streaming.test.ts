/**
 * Recorded Gemini streams outside the per-fixture suite: stream/generate equivalence, the order
 * and shape of deltas (g03, g07, g08, g10), a g03 signature replayed on the next turn, and an
 * Agent continuing a g03 answer.
 */
import { Agent, type Delta, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireThinking } from '../../../support/wire-response';
import {
  chunk,
  collapse,
  frames,
  jsonReply,
  modelFor,
  request,
  sseFromLines,
  sseReply,
} from '../../../src/providers/gemini/helpers';
import { sharedText } from './recorded';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

async function stream(body: string, model = modelFor(server)) {
  server.push(sseReply(body));
  const deltas: Delta[] = [];
  const response = await model.stream(request([userMessage('q')]), (delta) => {
    deltas.push(delta);
  });
  return { response, deltas };
}

const g03 = () => sseFromLines(sharedText('g03-text-thoughtsignature.stream.chunks.txt'));

const streamed: [string, () => string][] = [
  ['g02-text.stream', () => sharedText('g02-text.stream.sse')],
  ['g03-text-thoughtsignature.stream', g03],
  [
    'g06-tool-call-thoughtsignature.stream',
    () => sharedText('g06-tool-call-thoughtsignature.stream.sse'),
  ],
  ['g07-parallel-tool-calls.stream', () => sharedText('g07-parallel-tool-calls.stream.sse')],
  ['g10-thinking.stream', () => sharedText('g10-thinking.stream.sse')],
];

test.each(streamed)(
  '%s: the streamed response equals generate on the same content',
  async (_name, body) => {
    const { response } = await stream(body());
    server.push(jsonReply(collapse(frames(body()))));
    const generated: ModelResponse = await modelFor(server).generate(request([userMessage('q')]));
    expect(response).toEqual(generated);
  },
);

describe('deltas', () => {
  test('TK-4: g10 thinking fragments (one block) precede the content of the same response', async () => {
    const { response, deltas } = await stream(sharedText('g10-thinking.stream.sse'));
    const kinds = deltas.map((d) => (d.thinking !== undefined ? 'thinking' : 'content'));
    // Four thought chunks, then the first answer chunk, whose part carries the signature (it
    // attaches to the thought block, so its fragment follows that chunk's text), then text only.
    expect(kinds.slice(0, 6)).toEqual([
      'thinking',
      'thinking',
      'thinking',
      'thinking',
      'content',
      'thinking',
    ]);
    expect(kinds.slice(6).every((k) => k === 'content')).toBe(true);
    const thinking = deltas.flatMap((d) => d.thinking ?? []);
    expect(new Set(thinking.map((t) => t.index))).toEqual(new Set([0]));
    expect(thinking.map((t) => t.text ?? '').join('')).toBe(response.message.thinking?.[0]?.text);
    expect(thinking.at(-1)?.signature).toBe(response.message.thinking?.[0]?.signature);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
  });

  test('g07: a whole function call is one delta with id, name and the full args', async () => {
    const { deltas } = await stream(sharedText('g07-parallel-tool-calls.stream.sse'));
    expect(deltas).toEqual([
      {
        toolCalls: [
          {
            index: 0,
            id: 'secret_retrieval_tool_1',
            name: 'secret_retrieval_tool',
            argsFragment: '{"password":"mellon"}',
          },
        ],
      },
      {
        toolCalls: [
          {
            index: 1,
            id: 'secret_retrieval_tool_2',
            name: 'secret_retrieval_tool',
            argsFragment: '{"password":"radiance"}',
          },
        ],
      },
    ]);
  });

  test('g08 (Vertex partialArgs): id and name first, complete args when the call ends', async () => {
    const { response, deltas } = await stream(
      sseFromLines(sharedText('g08-vertex-partial-args.stream.chunks.txt')),
    );
    expect(deltas).toEqual([
      { toolCalls: [{ index: 0, id: 'getWeather_1', name: 'getWeather' }] },
      { toolCalls: [{ index: 0, argsFragment: '{"location":"Boston"}' }] },
      { toolCalls: [{ index: 1, id: 'getWeather_2', name: 'getWeather' }] },
      { toolCalls: [{ index: 1, argsFragment: '{"location":"San Francisco"}' }] },
    ]);
    expect(response.message.toolCalls?.[0]?.signature).toHaveLength(1032);
    expect(response.message.toolCalls?.[1]?.signature).toBeUndefined();
  });

  test('g03: content fragments, then the signature as a thinking fragment', async () => {
    const { deltas } = await stream(g03());
    expect(deltas.map((d) => Object.keys(d))).toEqual([['content'], ['content'], ['thinking']]);
    const fragment = deltas[2]?.thinking?.[0];
    expect(fragment?.index).toBe(0);
    expect(fragment?.signature).toHaveLength(916);
  });
});

test('without a block to take it, a text-part signature is a signature-only block (g03)', async () => {
  server.push(sseReply(g03()));
  const response = await modelFor(server).stream(request([]), () => undefined);
  const signature = response.message.thinking?.[0]?.signature ?? '';
  expect(signature).toHaveLength(916);
  expect(response.message.thinking?.map(wireThinking)).toEqual([{ signature }]);

  // Replayed on the next turn as the empty text part Gemini sent, after the text.
  server.push(jsonReply(chunk([{ text: 'ok' }], { finishReason: 'STOP' })));
  await modelFor(server).generate(
    request([userMessage('How many rs?'), response.message, userMessage('Sure?')]),
  );
  expect((server.requests[1]?.json as { contents: unknown[] }).contents[1]).toEqual({
    role: 'model',
    parts: [{ text: response.message.content }, { text: '', thoughtSignature: signature }],
  });
});

test('a Gemini 3 text answer (signature on an empty text part, g03) can be continued', async () => {
  server.push(
    sseReply(g03()),
    jsonReply(chunk([{ text: 'Yes, three.' }], { finishReason: 'STOP' })),
  );
  const agent = new Agent({ model: modelFor(server) });
  const stream = agent.runStream('How many rs in strawberry?');
  for await (const _delta of stream) {
    // drain
  }
  const first = await stream.result;
  const second = await agent.run('Sure?', { history: first.messages });
  expect(second.output).toBe('Yes, three.');
  const sentTurn = (server.requests[1]?.json as { contents: { role: string }[] }).contents[1];
  expect(sentTurn?.role).toBe('model');
});
