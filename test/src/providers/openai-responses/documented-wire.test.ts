/**
 * The Responses API wire (`POST /responses`) on our own fixtures written from the documented
 * format: exact request bodies and exact normalised responses for text, reasoning with a function
 * call, structured output, hosted tools with citations, incomplete and refused answers.
 */
import { webSearchTool, fileSearchTool, codeInterpreterTool } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { KEY, ask, jsonReply, modelFor, sent } from './support';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

test('text: POST /responses with bearer auth, the minimal stateless body and the exact response', async () => {
  server.push(jsonReply('response-text.json'));
  const response = await modelFor(server).generate(ask('How many syllables in a haiku?'));
  expect(response).toEqual({
    message: {
      role: 'assistant',
      content: 'A haiku has seventeen syllables.',
      responseId: 'resp_own_text_01',
    },
    usage: { inputTokens: 18, outputTokens: 8 }, // zero details are "not reported" (see Usage)
    finishReason: 'stop',
    modelName: 'gpt-own-2025-08-07',
    responseId: 'resp_own_text_01',
  });
  const request = server.requests[0];
  expect([request?.method, request?.url, request?.headers.authorization]).toEqual([
    'POST',
    '/responses',
    `Bearer ${KEY}`,
  ]);
  expect(sent(server)).toEqual({
    model: 'gpt-own',
    input: [{ role: 'user', content: 'How many syllables in a haiku?' }],
    store: false,
  });
});

test('reasoning + function call: system as instructions, a non-strict function tool, encrypted reasoning requested', async () => {
  server.push(jsonReply('response-reasoning-tool.json'));
  const model = modelFor(server, { model: 'gpt-5' });
  const response = await model.generate({
    messages: [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Lagos?' },
    ],
    tools: [WEATHER],
    settings: { reasoningEffort: 'low', thinking: { mode: 'adaptive', includeThoughts: true } },
  });
  expect(sent(server)).toEqual({
    model: 'gpt-5',
    instructions: 'You are a weather bot.',
    input: [{ role: 'user', content: 'Weather in Lagos?' }],
    tools: [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather of a city.',
        parameters: WEATHER.schema,
        strict: false,
      },
    ],
    reasoning: { effort: 'low', summary: 'auto' },
    include: ['reasoning.encrypted_content'],
    store: false,
  });
  expect(response).toEqual({
    message: {
      role: 'assistant',
      toolCalls: [{ id: 'call_own_01', name: 'get_weather', args: '{"city":"Lagos"}' }],
      thinking: [
        {
          text: '**Checking the weather**\n\nThe user wants Lagos.\n\nI should call get_weather.',
          signature: 'gAAAAABown-encrypted-reasoning-01==',
          id: 'rs_own_01',
          provider: 'openai-responses',
          model: 'gpt-5',
        },
      ],
      responseId: 'resp_own_tool_01',
    },
    usage: { inputTokens: 120, outputTokens: 90, cacheReadTokens: 64, reasoningTokens: 70 },
    finishReason: 'tool_calls',
    modelName: 'gpt-own-2025-08-07',
    responseId: 'resp_own_tool_01',
  });
});

test('structured output: text.format json_schema compiled to strict mode; added nulls stripped', async () => {
  server.push(jsonReply('response-structured.json'));
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string' },
      celsius: { type: 'integer' },
      note: { type: 'string' },
    },
    required: ['city', 'celsius'],
  };
  const response = await modelFor(server).generate(ask('Lagos?', { outputSchema: schema }));
  expect(sent(server).text).toEqual({
    format: {
      type: 'json_schema',
      name: 'output',
      strict: true,
      schema: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          celsius: { type: 'integer' },
          note: { type: ['string', 'null'] },
        },
        required: ['city', 'celsius', 'note'],
        additionalProperties: false,
      },
    },
  });
  expect(response.message.content).toBe('{"city":"Lagos","celsius":31}');
});

test('web search: the hosted tool and its sources requested; the call and its citation in the evidence', async () => {
  server.push(jsonReply('response-web-search.json'));
  const response = await modelFor(server).generate(
    ask('Weather in Lagos?', {
      hostedTools: [
        webSearchTool({
          contextSize: 'low',
          allowedDomains: ['weather.example'],
          userLocation: { country: 'NG', city: 'Lagos' },
        }),
      ],
    }),
  );
  expect(sent(server)).toMatchObject({
    tools: [
      {
        type: 'web_search',
        search_context_size: 'low',
        user_location: { type: 'approximate', country: 'NG', city: 'Lagos' },
        filters: { allowed_domains: ['weather.example'] },
      },
    ],
    include: ['web_search_call.action.sources'],
  });
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'It is 31°C in Lagos today. Take water.',
    hostedToolCalls: [
      {
        id: 'ws_own_01',
        type: 'web_search',
        provider: 'openai-responses',
        status: 'completed',
        input: '{"type":"search","query":"Lagos weather today"}',
        output: '{"sources":[{"type":"url","url":"https://weather.example/lagos"}]}',
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
    responseId: 'resp_own_search_01',
  });
  expect(response.finishReason).toBe('stop');
});

test('file search and code interpreter: wire tools, includes, calls with results and a file citation', async () => {
  server.push(jsonReply('response-hosted-tools.json'));
  const response = await modelFor(server).generate(
    ask('How long for refunds, in hours?', {
      hostedTools: [
        fileSearchTool({ vectorStoreIds: ['vs_own_1'], maxResults: 4 }),
        codeInterpreterTool({ container: { fileIds: ['file-own-02'] } }),
      ],
    }),
  );
  expect(sent(server)).toMatchObject({
    tools: [
      { type: 'file_search', vector_store_ids: ['vs_own_1'], max_num_results: 4 },
      { type: 'code_interpreter', container: { type: 'auto', file_ids: ['file-own-02'] } },
    ],
    include: ['file_search_call.results', 'code_interpreter_call.outputs'],
  });
  expect(response.message.hostedToolCalls).toEqual([
    {
      id: 'fs_own_01',
      type: 'file_search',
      provider: 'openai-responses',
      status: 'completed',
      input: '{"queries":["refund policy"]}',
      output:
        '[{"file_id":"file-own-01","filename":"policy.pdf","score":0.92,"text":"Refunds within 30 days."}]',
    },
    {
      id: 'ci_own_01',
      type: 'code_interpreter',
      provider: 'openai-responses',
      status: 'completed',
      input: '{"code":"print(30 * 24)","container_id":"cntr_own_01"}',
      output: '[{"type":"logs","logs":"720\\n"}]',
    },
  ]);
  expect(response.message.citations).toEqual([
    { type: 'file', fileId: 'file-own-01', filename: 'policy.pdf', start: 44, end: 44 },
  ]);
});

test('incomplete (max_output_tokens) finishes as length; a refusal becomes the content', async () => {
  server.push(jsonReply('response-incomplete.json'), jsonReply('response-refusal.json'));
  const cut = await modelFor(server).generate(ask('Tell a story'));
  expect([cut.message.content, cut.finishReason]).toEqual(['Once upon a', 'length']);
  const refused = await modelFor(server).generate(ask('Something bad'));
  expect([refused.message.content, refused.finishReason]).toEqual([
    "I can't help with that.",
    'refusal',
  ]);
});

test('settings: temperature, top_p and max_output_tokens sent; stop and seed are not; extraBody merged last', async () => {
  server.push(jsonReply('response-text.json'));
  await modelFor(server, { settings: { temperature: 0.2 } }).generate(
    ask('hi', {
      settings: {
        topP: 0.9,
        maxTokens: 256,
        stop: ['END'],
        seed: 7,
        extraBody: { prompt_cache_key: 'tenant-1', parallel_tool_calls: false },
      },
    }),
  );
  expect(sent(server)).toEqual({
    model: 'gpt-own',
    input: [{ role: 'user', content: 'hi' }],
    store: false,
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 256,
    prompt_cache_key: 'tenant-1',
    parallel_tool_calls: false,
  });
});
