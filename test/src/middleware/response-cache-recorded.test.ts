/**
 * The response cache in front of real adapters (OpenAI chat completions, Anthropic messages)
 * talking to a loopback server that replays the providers' documented wire format (our own
 * fixtures of test/src/providers): a repeated run sends no HTTP request and gives the same
 * output, streamed runs replay the same fragments, a tool round trip is cached whole, and
 * provider prompt caching (`settings.cache`) still reaches the wire on a miss.
 */
import { Agent, defineTool, type Delta } from 'golem';
import { memoryCacheStore, responseCache } from 'golem/middleware';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import {
  jsonReply,
  modelFor as anthropicFor,
  ownFixture as anthropicFixture,
  sseReply,
} from '../providers/anthropic/support';
import { ownFixture as openaiFixture } from '../providers/openai/support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const openaiModel = () =>
  openai({ model: 'gpt-4o-mini', preset: 'openai', apiKey: 'sk-test', baseURL: server.url });

async function drain(stream: AsyncIterable<Delta>): Promise<Delta[]> {
  const out: Delta[] = [];
  for await (const delta of stream) out.push(delta);
  return out;
}

describe('OpenAI chat completions', () => {
  test('the second identical run makes no request and gives the same output', async () => {
    server.push(jsonReply(openaiFixture('openai', 'completion-text.json').toString('utf8')));
    const agent = new Agent({ model: openaiModel(), middleware: [responseCache()] });
    const first = await agent.run('How many syllables has a haiku?');
    const second = await agent.run('How many syllables has a haiku?');
    expect(server.requests).toHaveLength(1);
    expect(first.output).toBe('A haiku has seventeen syllables.');
    expect(second.output).toBe(first.output);
    expect(first.usage.inputTokens).toBe(18);
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
    expect(second.messages).toEqual(first.messages);
  });

  test('a streamed run is replayed as the same fragments without a request', async () => {
    server.push(sseReply(openaiFixture('openai', 'text.stream.sse').toString('utf8')));
    const agent = new Agent({ model: openaiModel(), middleware: [responseCache()] });
    const first = agent.runStream('Stream, please.');
    const firstDeltas = await drain(first);
    const firstResult = await first.result;
    const second = agent.runStream('Stream, please.');
    const secondDeltas = await drain(second);
    const secondResult = await second.result;
    expect(server.requests).toHaveLength(1);
    expect(firstDeltas.length).toBeGreaterThan(1);
    expect(secondDeltas).toEqual(firstDeltas);
    expect(secondResult.output).toBe(firstResult.output);
    expect(secondResult.usage.cachedResponses).toBe(1);
  });

  test('a different prompt still goes to the provider', async () => {
    const body = openaiFixture('openai', 'completion-text.json').toString('utf8');
    server.push(jsonReply(body), jsonReply(body));
    const agent = new Agent({ model: openaiModel(), middleware: [responseCache()] });
    await agent.run('one');
    await agent.run('two');
    expect(server.requests).toHaveLength(2);
  });
});

describe('Anthropic messages', () => {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: () => 'sunny, 31°C',
  });
  const toolTurn = JSON.stringify({
    id: 'msg_own_tool_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-1',
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Lagos' } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 40 },
  });
  const answerTurn = JSON.stringify({
    id: 'msg_own_tool_02',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-1',
    content: [{ type: 'text', text: 'It is sunny in Lagos.' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 80, output_tokens: 8, cache_read_input_tokens: 40 },
  });

  test('a tool round trip with prompt caching on: cache_control still sent, then the run is cached whole', async () => {
    server.push(jsonReply(toolTurn), jsonReply(answerTurn));
    const store = memoryCacheStore();
    const agent = new Agent({
      model: anthropicFor(server),
      tools: [weather],
      instructions: 'You report the weather.',
      modelSettings: { cache: true },
      middleware: [responseCache({ store })],
    });
    const first = await agent.run('Weather in Lagos?');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[0]?.json)).toContain('"cache_control"');
    expect(first.usage.cacheReadTokens).toBe(40);
    const second = await agent.run('Weather in Lagos?');
    expect(server.requests).toHaveLength(2);
    expect(second.output).toBe('It is sunny in Lagos.');
    expect(second.messages).toEqual(first.messages);
    expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 2 });
    // Turning prompt caching off does not change the answer: still a hit.
    const uncachedPrompt = await new Agent({
      model: anthropicFor(server),
      tools: [weather],
      instructions: 'You report the weather.',
      middleware: [responseCache({ store })],
    }).run('Weather in Lagos?', { modelSettings: { cache: false } });
    expect(uncachedPrompt.output).toBe('It is sunny in Lagos.');
    expect(uncachedPrompt.usage.cachedResponses).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  test('a streamed message is replayed as the same fragments without a request', async () => {
    server.push(sseReply(anthropicFixture('text.stream.sse')));
    const agent = new Agent({ model: anthropicFor(server), middleware: [responseCache()] });
    const first = agent.runStream('Stream, please.');
    const firstDeltas = await drain(first);
    const firstResult = await first.result;
    const second = agent.runStream('Stream, please.');
    const secondDeltas = await drain(second);
    expect(server.requests).toHaveLength(1);
    expect(firstDeltas.length).toBeGreaterThan(1);
    expect(secondDeltas).toEqual(firstDeltas);
    expect((await second.result).output).toBe(firstResult.output);
    // A plain run is answered by the streamed entry too.
    expect((await agent.run('Stream, please.')).output).toBe(firstResult.output);
    expect(server.requests).toHaveLength(1);
  });
});
