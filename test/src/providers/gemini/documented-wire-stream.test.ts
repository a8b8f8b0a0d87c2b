/**
 * The Gemini `streamGenerateContent?alt=sse` wire on our own fixtures written from the
 * documented format: streamed text, a Gemini 3 signature on a final empty text part, a signed
 * call without args, parallel calls in one chunk, thought summaries before the answer, and
 * Vertex AI's streamed `partialArgs`. Each stream equals `generate` on the same content.
 */
import { Agent, type Delta, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireResponse } from '../../../support/wire-response';
import {
  chunk,
  collapse,
  frames,
  jsonReply,
  modelFor,
  ownText,
  request,
  sseReply,
} from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

async function stream(file: string): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  server.push(sseReply(ownText(file)));
  const deltas: Delta[] = [];
  const response = await modelFor(server).stream(request([userMessage('q')]), (delta) => {
    deltas.push(delta);
  });
  return { response, deltas };
}

const SIGNED_TEXT = 'T3duU2lnbmF0dXJlLWVtcHR5LXRleHQtcGFydA==';

const cases: [string, ModelResponse][] = [
  [
    'text.stream.sse',
    {
      message: { role: 'assistant', content: 'The Nile flows north into the Mediterranean.\n' },
      usage: { inputTokens: 12, outputTokens: 9 },
      finishReason: 'stop',
      modelName: 'gemini-own-flash',
      responseId: 'own-stream-01',
    },
  ],
  [
    'text-signature.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'There are **two** "l"s in hello.',
        thinking: [{ signature: SIGNED_TEXT }],
      },
      usage: { inputTokens: 9, outputTokens: 151, reasoningTokens: 140 },
      finishReason: 'stop',
      modelName: 'gemini-own-3',
      responseId: 'own-stream-02',
    },
  ],
  [
    'tool-call-signature.stream.sse',
    {
      message: {
        role: 'assistant',
        toolCalls: [
          {
            id: 'get_location_1',
            name: 'get_location',
            args: '{}',
            signature: 'T3duU2lnbmF0dXJlLWdldC1sb2NhdGlvbg==',
          },
        ],
      },
      usage: { inputTokens: 25, outputTokens: 158, reasoningTokens: 150 },
      finishReason: 'tool_calls',
      modelName: 'gemini-own-3',
      responseId: 'own-stream-03',
    },
  ],
  [
    'parallel-tools.stream.sse',
    {
      message: {
        role: 'assistant',
        toolCalls: [
          {
            id: 'lookup_word_1',
            name: 'lookup_word',
            args: '{"word":"ubiquitous"}',
            signature: 'T3duU2lnbmF0dXJlLWxvb2t1cC13b3Jk',
          },
          { id: 'lookup_word_2', name: 'lookup_word', args: '{"word":"ephemeral"}' },
        ],
      },
      usage: { inputTokens: 66, outputTokens: 71, reasoningTokens: 41 },
      finishReason: 'tool_calls',
      modelName: 'gemini-own-flash',
      responseId: 'own-stream-04',
    },
  ],
  [
    'thinking.stream.sse',
    {
      message: {
        role: 'assistant',
        content: 'Three spiders have 24 legs in total.',
        thinking: [
          {
            text: '**Counting the legs**\n\nA spider has eight legs. Three spiders therefore have 24.',
            signature: 'T3duU2lnbmF0dXJlLXNwaWRlci1sZWdz',
          },
        ],
      },
      usage: { inputTokens: 20, outputTokens: 130, reasoningTokens: 120 },
      finishReason: 'stop',
      modelName: 'gemini-own-pro',
      responseId: 'own-stream-05',
    },
  ],
];

test.each(cases)('%s assembles to the exact normalised response', async (file, expected) => {
  const { response } = await stream(file);
  expect(wireResponse(response)).toEqual(expected);
  expect(server.requests[0]?.url).toBe(
    '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
  );
});

test.each([...cases.map(([file]) => file), 'vertex-partial-args.stream.sse'])(
  '%s: the streamed response equals generate on the same content',
  async (file) => {
    const { response } = await stream(file);
    server.push(jsonReply(collapse(frames(ownText(file)))));
    expect(await modelFor(server).generate(request([userMessage('q')]))).toEqual(response);
  },
);

test('a Gemini 3 signature on an empty text part: content fragments, then a signature-only thinking fragment', async () => {
  const { deltas } = await stream('text-signature.stream.sse');
  expect(deltas).toEqual([
    { content: 'There are **two** "l"s' },
    { content: ' in hello.' },
    { thinking: [{ index: 0, signature: SIGNED_TEXT }] },
  ]);
});

test('the signature-only block goes back as the empty text part after the text, and the answer can be continued', async () => {
  server.push(
    sseReply(ownText('text-signature.stream.sse')),
    jsonReply(chunk([{ text: 'Yes, two.' }], { finishReason: 'STOP' })),
  );
  const agent = new Agent({ model: modelFor(server) });
  const run = agent.runStream('How many ls in hello?');
  for await (const _delta of run) {
    // drain
  }
  const first = await run.result;
  const second = await agent.run('Sure?', { history: first.messages });
  expect(second.output).toBe('Yes, two.');
  expect((server.requests[1]?.json as { contents: unknown[] }).contents[1]).toEqual({
    role: 'model',
    parts: [
      { text: 'There are **two** "l"s in hello.' },
      { text: '', thoughtSignature: SIGNED_TEXT },
    ],
  });
});

test('parallel calls in one chunk: each whole call is one delta with id, name and the full args', async () => {
  const { deltas } = await stream('parallel-tools.stream.sse');
  expect(deltas).toEqual([
    {
      toolCalls: [
        {
          index: 0,
          id: 'lookup_word_1',
          name: 'lookup_word',
          argsFragment: '{"word":"ubiquitous"}',
        },
      ],
    },
    {
      toolCalls: [
        {
          index: 1,
          id: 'lookup_word_2',
          name: 'lookup_word',
          argsFragment: '{"word":"ephemeral"}',
        },
      ],
    },
  ]);
});

test('thought summaries stream as one thinking block before the answer; the signature follows its text', async () => {
  const { response, deltas } = await stream('thinking.stream.sse');
  expect(deltas).toEqual([
    { thinking: [{ index: 0, text: '**Counting the legs**\n\nA spider has eight legs.' }] },
    { thinking: [{ index: 0, text: ' Three spiders therefore have 24.' }] },
    { content: 'Three spiders have' },
    { thinking: [{ index: 0, signature: 'T3duU2lnbmF0dXJlLXNwaWRlci1sZWdz' }] },
    { content: ' 24 legs in total.' },
  ]);
  expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
});

test('Vertex partialArgs: id and name first, the complete args when each call ends', async () => {
  const { response, deltas } = await stream('vertex-partial-args.stream.sse');
  expect(deltas).toEqual([
    { toolCalls: [{ index: 0, id: 'book_table_1', name: 'book_table' }] },
    { toolCalls: [{ index: 0, argsFragment: '{"restaurant":"Chez Lulu","guests":3}' }] },
    { toolCalls: [{ index: 1, id: 'book_table_2', name: 'book_table' }] },
    { toolCalls: [{ index: 1, argsFragment: '{"restaurant":"Noma","guests":2}' }] },
  ]);
  expect(wireResponse(response)).toEqual({
    message: {
      role: 'assistant',
      toolCalls: [
        {
          id: 'book_table_1',
          name: 'book_table',
          args: '{"restaurant":"Chez Lulu","guests":3}',
          signature: 'T3duU2lnbmF0dXJlLWJvb2stdGFibGU=',
        },
        { id: 'book_table_2', name: 'book_table', args: '{"restaurant":"Noma","guests":2}' },
      ],
    },
    usage: { inputTokens: 30, outputTokens: 115, reasoningTokens: 90 },
    finishReason: 'tool_calls',
    modelName: 'gemini-own-vertex',
    responseId: 'own-stream-06',
  });
});
