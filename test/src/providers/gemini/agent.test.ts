/** End to end: an Agent on the Gemini adapter against the replay server, through a tool round trip. */
import { Agent, defineTool, type Delta } from 'golem';
import { isRecord } from '../../../../src/core/kit/guards';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, jsonReply, modelFor, ownText, sse, sseReply } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => (isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown'),
});

const callTurn = () => JSON.parse(ownText('weather-call.json')) as Record<string, unknown>;
const THOUGHT =
  '**Planning the lookup**\n\nThe user wants the weather in Lagos; I should call get_weather.';
const SIGNATURE = 'CpwBAb4+9vsig-weather-call-0001';

function agent() {
  return new Agent({
    model: modelFor(server),
    instructions: 'You are a weather bot.',
    tools: [getWeather],
  });
}

/** What the second request must carry: the model turn replayed, then the function response. */
const replayedTurns = [
  { role: 'user', parts: [{ text: 'Weather in Lagos?' }] },
  {
    role: 'model',
    parts: [
      { text: THOUGHT, thought: true },
      {
        functionCall: { name: 'get_weather', args: { city: 'Lagos' }, id: 'get_weather_1' },
        thoughtSignature: SIGNATURE,
      },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        functionResponse: {
          name: 'get_weather',
          id: 'get_weather_1',
          response: { result: 'sunny, 31°C' },
        },
      },
    ],
  },
];

test('run: tool call, tool result, answer; the thought and call signature are replayed', async () => {
  server.push(
    jsonReply(callTurn()),
    jsonReply(
      chunk([{ text: 'It is sunny, 31°C in Lagos.' }], {
        finishReason: 'STOP',
        usage: { promptTokenCount: 70, candidatesTokenCount: 9 },
      }),
    ),
  );
  const result = await agent().run('Weather in Lagos?');
  expect(result.output).toBe('It is sunny, 31°C in Lagos.');
  expect(result.messages.map((m) => m.role)).toEqual([
    'system',
    'user',
    'assistant',
    'tool',
    'assistant',
  ]);
  expect(result.messages[2]).toEqual({
    role: 'assistant',
    thinking: [{ text: THOUGHT, provider: 'gemini', model: 'gemini-2.5-flash' }],
    toolCalls: [
      {
        id: 'get_weather_1',
        name: 'get_weather',
        args: '{"city":"Lagos"}',
        signature: SIGNATURE,
        signatureProvider: 'gemini',
        signatureModel: 'gemini-2.5-flash',
      },
    ],
  });
  const second = server.requests[1]?.json as Record<string, unknown>;
  expect(second.systemInstruction).toEqual({ parts: [{ text: 'You are a weather bot.' }] });
  expect(second.contents).toEqual(replayedTurns);
  // Output counts thoughts too (weather-call.json reports 58 of them).
  expect(result.usage).toMatchObject({
    inputTokens: 41 + 70,
    outputTokens: 12 + 58 + 9,
    reasoningTokens: 58,
  });
});

test('continuing the conversation: call ids stay unique across runs', async () => {
  server.push(
    jsonReply(callTurn()),
    jsonReply(chunk([{ text: 'Sunny.' }], { finishReason: 'STOP' })),
  );
  const first = await agent().run('Weather in Lagos?');
  server.push(
    jsonReply(callTurn()),
    jsonReply(chunk([{ text: 'Still sunny.' }], { finishReason: 'STOP' })),
  );
  const second = await agent().run('And now?', { history: first.messages });
  const ids = second.messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []);
  expect(ids).toEqual(['get_weather_1', 'get_weather_2']);
  const sent = (server.requests[3]?.json as { contents: { parts: Record<string, unknown>[] }[] })
    .contents;
  const responses = sent.flatMap((c) =>
    c.parts.flatMap((p) => (isRecord(p.functionResponse) ? [p.functionResponse.id] : [])),
  );
  expect(responses).toEqual(['get_weather_1', 'get_weather_2']);
});

test('runStream: fragments of both turns, then the same result as run', async () => {
  server.push(sseReply(sse(callTurn())), sseReply(ownText('weather-answer.stream.sse')));
  const stream = agent().runStream('Weather in Lagos?');
  const deltas: Delta[] = [];
  for await (const delta of stream) deltas.push(delta);
  const result = await stream.result;
  expect(deltas).toEqual([
    { thinking: [{ index: 0, text: THOUGHT }] },
    {
      toolCalls: [
        { index: 0, id: 'get_weather_1', name: 'get_weather', argsFragment: '{"city":"Lagos"}' },
      ],
    },
    { content: 'It is sunny, ' },
    { content: '31°C in Lagos.' },
  ]);
  expect(result.output).toBe('It is sunny, 31°C in Lagos.');
  expect((server.requests[1]?.json as Record<string, unknown>).contents).toEqual(replayedTurns);
  expect(server.requests.map((r) => r.url)).toEqual([
    '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
  ]);
});
