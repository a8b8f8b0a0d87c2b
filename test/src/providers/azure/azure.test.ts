/**
 * Azure OpenAI addressing, authentication and configuration, plus the Azure-specific gotchas.
 */
import { Agent, defineTool, type Delta, type ModelRequest, ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { AzureChatModel, azure, type AzureOptions } from 'golem/providers/azure';
import { azureURL } from '../../../../src/providers/azure/addressing';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, completion, sse, usageChunk } from '../openai/support';
import { ModelTransportError } from '../../../support/internal-errors';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const ok = () => ({ body: JSON.stringify(completion({ content: 'ok' })) });

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function configError(options: unknown): string {
  try {
    azure(options as AzureOptions);
  } catch (error) {
    if (ConfigError.is(error, 'model')) return error.message;
    throw error;
  }
  throw new Error('expected a model ConfigError');
}

const base = { deployment: 'gpt-4o', apiVersion: '2024-10-21', apiKey: 'key-123456' };

test('resourceName builds the endpoint; the classic URL carries deployment and api-version', () => {
  const model = azure({ ...base, resourceName: 'contoso' });
  expect(model).toBeInstanceOf(AzureChatModel);
  expect([model.name, model.url]).toEqual([
    'azure:gpt-4o',
    'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
  ]);
  expect(azureURL('https://x.openai.azure.com', 'my deployment', '2025-04-01-preview')).toBe(
    'https://x.openai.azure.com/openai/deployments/my%20deployment/chat/completions?api-version=2025-04-01-preview',
  );
  expect(azure({ ...base, apiVersion: 'v1', endpoint: 'https://x.openai.azure.com/' }).url).toBe(
    'https://x.openai.azure.com/openai/v1/chat/completions',
  );
});

test.each([
  ['azure: resourceName must be letters, digits and "-"', { ...base, resourceName: 'bad name' }],
  [
    'azure: apiVersion is required: a dated version such as "2024-10-21" (deployment URLs) or "v1" (the v1 API)',
    { ...base, resourceName: 'r', apiVersion: undefined },
  ],
  [
    'azure: apiVersion "latest" is neither "v1" nor a dated version like "2024-10-21" or "2025-04-01-preview"',
    { ...base, resourceName: 'r', apiVersion: 'latest' },
  ],
  [
    'azure: set exactly one of endpoint ("https://<resource>.openai.azure.com") or resourceName',
    { ...base },
  ],
  [
    'azure: set exactly one of endpoint ("https://<resource>.openai.azure.com") or resourceName',
    { ...base, resourceName: 'r', endpoint: 'https://r.openai.azure.com' },
  ],
  [
    'azure: endpoint is the resource URL ("https://<resource>.openai.azure.com") without the /openai/… path; the adapter adds it',
    { ...base, endpoint: 'https://r.openai.azure.com/openai/v1' },
  ],
  [
    'azure: deployment is required (a non-empty string)',
    { ...base, resourceName: 'r', deployment: '' },
  ],
  [
    'azure: set exactly one of apiKey, azureADToken or getToken (got none)',
    { ...base, resourceName: 'r', apiKey: undefined },
  ],
  [
    'azure: set exactly one of apiKey, azureADToken or getToken (got 2)',
    { ...base, resourceName: 'r', azureADToken: 'tok-123456' },
  ],
  [
    'azure: settings.temperature must be between 0 and 2, got 3',
    { ...base, resourceName: 'r', settings: { temperature: 3 } },
  ],
])('rejects the configuration: %s', (message, options) => {
  expect(configError(options)).toBe(message);
});

test('azureADToken is sent as a bearer token, not api-key', async () => {
  server.push(ok());
  await azure({
    endpoint: server.url,
    deployment: 'd',
    apiVersion: '2024-10-21',
    azureADToken: 'entra-token-1',
  }).generate(hi);
  expect(server.requests[0]?.headers.authorization).toBe('Bearer entra-token-1');
  expect(server.requests[0]?.headers['api-key']).toBeUndefined();
});

test('getToken is called before every request; custom headers are sent too', async () => {
  server.push(ok(), ok());
  let n = 0;
  const model = azure({
    endpoint: server.url,
    deployment: 'd',
    apiVersion: 'v1',
    getToken: () => Promise.resolve(`token-${++n}-abcdef`),
    headers: { 'x-ms-client-request-id': 'req-1' },
  });
  await model.generate(hi);
  await model.generate(hi);
  expect(server.requests.map((r) => r.headers.authorization)).toEqual([
    'Bearer token-1-abcdef',
    'Bearer token-2-abcdef',
  ]);
  expect(server.requests[0]?.headers['x-ms-client-request-id']).toBe('req-1');
});

test('a failing getToken is a ModelTransportError and sends nothing', async () => {
  const model = azure({
    endpoint: server.url,
    deployment: 'd',
    apiVersion: 'v1',
    getToken: () => Promise.reject(new Error('credential unavailable')),
  });
  const error: unknown = await model.generate(hi).catch((e: unknown) => e);
  expect(ModelTransportError.is(error)).toBe(true);
  expect((error as Error).message).toBe(
    'azure: transport failure: getToken failed: credential unavailable',
  );
  expect(server.requests).toHaveLength(0);
});

test('the bearer token is redacted from HTTP errors', async () => {
  server.push({
    status: 401,
    body: JSON.stringify({ error: { code: '401', message: 'Bad token entra-secret-xyz' } }),
  });
  const model = azure({
    endpoint: server.url,
    deployment: 'd',
    apiVersion: 'v1',
    azureADToken: 'entra-secret-xyz',
  });
  const error: unknown = await model.generate(hi).catch((e: unknown) => e);
  expect((error as Error).message).toBe('azure: HTTP 401: Bad token [redacted]');
  expect((error as { body: string }).body).not.toContain('entra-secret-xyz');
});

test('maxTokensField switches max_tokens to max_completion_tokens (reasoning deployments)', async () => {
  server.push(ok());
  await azure({ ...base, endpoint: server.url, maxTokensField: 'max_completion_tokens' }).generate({
    ...hi,
    settings: { maxTokens: 64 },
  });
  expect(server.requests[0]?.json).toEqual({
    messages: [{ role: 'user', content: 'hi' }],
    max_completion_tokens: 64,
  });
});

test('capabilities.streamUsage false leaves stream_options out (older api-versions reject it)', async () => {
  server.push({
    headers: { 'content-type': 'text/event-stream' },
    body: sse([chunk({ content: 'ok' }, 'stop')]),
  });
  await azure({
    ...base,
    endpoint: server.url,
    apiVersion: '2024-02-01',
    capabilities: { streamUsage: false },
  }).stream(hi, () => undefined);
  expect(server.requests[0]?.json).toEqual({
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
});

test('content_filter finish reason is reported as "content_filter"', async () => {
  server.push({ body: JSON.stringify(completion({ content: null }, 'content_filter')) });
  const response = await azure({ ...base, endpoint: server.url }).generate(hi);
  expect(response).toEqual({
    message: { role: 'assistant' },
    usage: { inputTokens: 5, outputTokens: 7 },
    finishReason: 'content_filter',
    modelName: 'test-model',
    responseId: 'chatcmpl-test',
  });
});

test('an Agent runs a tool round trip through Azure with runStream', async () => {
  server.push(
    {
      headers: { 'content-type': 'text/event-stream' },
      body: sse([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'add', arguments: '{"a":2,' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(10, 4),
      ]),
    },
    {
      headers: { 'content-type': 'text/event-stream' },
      body: sse([chunk({ content: '2 + 3 = 5' }, 'stop'), usageChunk(20, 6)]),
    },
  );
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers.',
    schema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    execute: (args) => {
      const { a, b } = args as { a: number; b: number };
      return String(a + b);
    },
  });
  const agent = new Agent({
    model: azure({
      endpoint: server.url,
      deployment: 'gpt-4o',
      apiVersion: 'v1',
      apiKey: 'key-123456',
    }),
    tools: [add],
  });
  const stream = agent.runStream('2 + 3?');
  const deltas: Delta[] = [];
  for await (const delta of stream) deltas.push(delta);
  const result = await stream.result;
  expect(result.output).toBe('2 + 3 = 5');
  expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 10 });
  expect(deltas.at(-1)).toEqual({ content: '2 + 3 = 5' });
  expect(server.requests[1]?.json).toMatchObject({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: '2 + 3?' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
    ],
  });
});
