/**
 * The Bedrock Converse wire on our own fixtures written from the documented response shapes
 * (test/src/providers/bedrock/fixtures), through the real SDK client against the replay server:
 * text, a toolUse and parallel toolUse blocks, structured output, signed reasoning (replayed on
 * the next turn), `max_tokens`, and an Agent tool round trip. Streams are in
 * documented-wire-stream.test.ts; recorded traffic runs in `npm run test:recorded`.
 */
import { Agent, defineTool, type ModelRequest } from 'golem';
import { wireResponse } from '../../../support/wire-response';
import { jsonReply, ownFixture, useHarness } from './support';

const harness = useHarness();
const MODEL = 'us.amazon.nova-micro-v1:0';
const ask = (text: string, more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [],
  ...more,
});

test('text: content, usage, finish reason stop; POST /model/<id>/converse signed with SigV4', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-text.json')));
  const response = await model().generate(ask('How do bees talk?'));
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Bees communicate with a waggle dance.' },
    usage: { inputTokens: 9, outputTokens: 8 },
    finishReason: 'stop',
    modelName: MODEL,
  });
  const sent = server.requests[0];
  expect([sent?.method, sent?.url]).toEqual([
    'POST',
    '/model/us.amazon.nova-micro-v1%3A0/converse',
  ]);
  expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDGOLEMTESTKEY\//);
  expect(sent?.json).toEqual({
    messages: [{ role: 'user', content: [{ text: 'How do bees talk?' }] }],
  });
});

test('a toolUse block becomes a call with the tool use id and the input as JSON text', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-tool.json')));
  const response = await model().generate(ask('Le Guin, 1969?'));
  expect(response.message).toEqual({
    role: 'assistant',
    toolCalls: [
      {
        id: 'tooluse_own_Qm9vazEx',
        name: 'library_search',
        args: '{"author":"Le Guin","year":1969}',
      },
    ],
  });
  expect([response.finishReason, response.usage]).toEqual([
    'tool_calls',
    { inputTokens: 420, outputTokens: 25 },
  ]);
});

test('parallel toolUse blocks after text: every call in order', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-parallel-tools.json')));
  const response = await model().generate(ask('10 CHF and 25 NOK?'));
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'I will convert both amounts.',
    toolCalls: [
      { id: 'tooluse_own_Y3VycjAx', name: 'convert', args: '{"amount":10,"currency":"CHF"}' },
      { id: 'tooluse_own_Y3VycjAy', name: 'convert', args: '{"amount":25,"currency":"NOK"}' },
    ],
  });
});

test('structured output: outputConfig.textFormat json_schema goes out; the JSON text is the content', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-structured-output.json')));
  const schema = {
    type: 'object',
    properties: { planet: { type: 'string' }, moons: { type: 'integer' } },
    required: ['planet', 'moons'],
    additionalProperties: false,
  };
  const response = await model().generate(ask('The red planet?', { outputSchema: schema }));
  expect(response.message.content).toBe('{"planet":"Mars","moons":2}');
  expect((server.requests[0]?.json as { outputConfig: unknown }).outputConfig).toEqual({
    textFormat: {
      type: 'json_schema',
      structure: { jsonSchema: { name: 'output', schema: JSON.stringify(schema) } },
    },
  });
});

const REASONING = {
  text: 'Ninety minutes is an hour and a half, so the film ends at 21:30.',
  signature: 'T3duQmVkcm9ja1NpZ25hdHVyZS1maWxtLWVuZHM=',
};

test('reasoningText with a signature becomes a signed thinking block before the text', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-reasoning.json')));
  const response = await model().generate(ask('A 90-minute film from 20:00?'));
  expect(wireResponse(response).message).toEqual({
    role: 'assistant',
    content: 'The film ends at 21:30.',
    thinking: [REASONING],
  });
});

test('the signed reasoning is replayed unchanged, first, on the next turn', async () => {
  const { server, model } = harness.current;
  server.push(
    jsonReply(ownFixture('converse-reasoning.json')),
    jsonReply(ownFixture('converse-text.json')),
  );
  const agent = new Agent({ model: model({ thinking: { mode: 'enabled', budgetTokens: 1024 } }) });
  const first = await agent.run('A 90-minute film from 20:00?');
  await agent.run('Thanks!', { history: first.messages });
  const sent = server.requests[1]?.json as { messages: { role: string; content: unknown[] }[] };
  expect(sent.messages[1]).toEqual({
    role: 'assistant',
    content: [
      { reasoningContent: { reasoningText: REASONING } },
      { text: 'The film ends at 21:30.' },
    ],
  });
});

test('stopReason max_tokens is finish reason length; the partial text is kept', async () => {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-max-tokens.json')));
  const response = await model().generate(ask('The primes?'));
  expect([response.message.content, response.finishReason]).toEqual([
    'The first three primes are 2, 3 and',
    'length',
  ]);
});

test('an Agent round trip: the toolUse runs, its result goes back as toolResult, then the answer', async () => {
  const { server, model } = harness.current;
  server.push(
    jsonReply(ownFixture('converse-tool.json')),
    jsonReply(ownFixture('converse-text.json')),
  );
  const seen: unknown[] = [];
  const search = defineTool({
    name: 'library_search',
    description: 'Books by an author in a year.',
    schema: {
      type: 'object',
      properties: { author: { type: 'string' }, year: { type: 'integer' } },
      required: ['author', 'year'],
    },
    execute: (args) => {
      seen.push(args);
      return 'The Left Hand of Darkness';
    },
  });
  const agent = new Agent({ model: model(), tools: [search] });
  const result = await agent.run('Le Guin, 1969?');
  expect(result.output).toBe('Bees communicate with a waggle dance.');
  expect(seen).toEqual([{ author: 'Le Guin', year: 1969 }]);
  expect(result.usage).toEqual({ inputTokens: 420 + 9, outputTokens: 25 + 8 });
  expect((server.requests[1]?.json as { messages: unknown[] }).messages.slice(1)).toEqual([
    {
      role: 'assistant',
      content: [
        {
          toolUse: {
            toolUseId: 'tooluse_own_Qm9vazEx',
            name: 'library_search',
            input: { author: 'Le Guin', year: 1969 },
          },
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          toolResult: {
            toolUseId: 'tooluse_own_Qm9vazEx',
            content: [{ text: 'The Left Hand of Darkness' }],
          },
        },
      ],
    },
  ]);
});
