/**
 * Construction of the Bedrock adapter: validation (spec §23 ranges), the optional peer
 * dependency loaded lazily, client handling (instance vs configuration, maxAttempts 1).
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { type ModelRequest, ConfigError } from 'golem';
import { BedrockModel, bedrock, type BedrockOptions } from 'golem/providers/bedrock';
import { CREDENTIALS, jsonReply, ownFixture, rejection, useHarness } from './support';

const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const base: BedrockOptions = {
  model: 'us.amazon.nova-micro-v1:0',
  region: 'us-east-1',
  credentials: CREDENTIALS,
};

function configError(options: BedrockOptions): string {
  try {
    bedrock(options).destroy();
  } catch (error) {
    if (ConfigError.is(error, 'model')) return error.message;
    throw error;
  }
  throw new Error('expected a model ConfigError');
}

describe('Bedrock adapter construction', () => {
  test('name and model id', () => {
    const model = new BedrockModel(base);
    expect([model.name, model.modelId]).toEqual([
      'bedrock:us.amazon.nova-micro-v1:0',
      'us.amazon.nova-micro-v1:0',
    ]);
    model.destroy();
  });

  test.each([
    [{ model: '' }, 'bedrock: model (a Bedrock model id) is required'],
    [{ region: 'US East' }, 'bedrock: region must look like "us-east-1", got "US East"'],
    [{ endpoint: 'ftp://x' }, 'bedrock: endpoint must be an http(s) URL, got "ftp://x"'],
    [
      { credentials: { accessKeyId: 'AKID', secretAccessKey: '' } },
      'bedrock: credentials need accessKeyId and secretAccessKey (or pass a credential provider)',
    ],
    [{ temperature: -0.1 }, 'bedrock: options: temperature must be a number in [0, 1], got -0.1'],
    [{ temperature: 1.01 }, 'bedrock: options: temperature must be a number in [0, 1], got 1.01'],
    [{ topP: 2 }, 'bedrock: options: topP must be a number in [0, 1], got 2'],
    [
      { maxTokens: -1 },
      'bedrock: options: maxTokens must be an integer >= 0 (0 = provider default), got -1',
    ],
    [
      { maxTokens: 1.5 },
      'bedrock: options: maxTokens must be an integer >= 0 (0 = provider default), got 1.5',
    ],
    [
      { thinking: { mode: 'enabled' } },
      'bedrock: options: thinking.mode "enabled" needs budgetTokens',
    ],
    [
      { thinking: { mode: 'enabled', budgetTokens: 0 } },
      'bedrock: options: thinking.budgetTokens must be a positive integer, got 0',
    ],
    [{ maxFrameBytes: 8 }, 'bedrock: maxFrameBytes must be an integer >= 16, got 8'],
  ] as [Partial<BedrockOptions>, string][])(
    'RQ-1 %j is rejected at construction',
    (override, message) => {
      expect(configError({ ...base, ...override })).toBe(message);
    },
  );

  test('RQ-1 boundary values 0 and 1 are accepted', () => {
    expect(() => {
      bedrock({ ...base, temperature: 0, topP: 1, maxTokens: 0 }).destroy();
      bedrock({ ...base, temperature: 1, topP: 0 }).destroy();
    }).not.toThrow();
  });

  test('a client instance plus adapter-level region/credentials/endpoint is a conflict', () => {
    const client = new BedrockRuntimeClient({ region: 'us-east-1', credentials: CREDENTIALS });
    expect(configError({ model: 'm', client, region: 'us-east-1' })).toBe(
      'bedrock: region, credentials and endpoint belong on the BedrockRuntimeClient you pass as `client`, not on the adapter',
    );
    client.destroy();
  });

  test('a client instance is used as is and not destroyed by the adapter', async () => {
    const { server } = harness.current;
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: server.url,
      credentials: CREDENTIALS,
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
    server.push(
      jsonReply(ownFixture('converse-text.json')),
      jsonReply(ownFixture('converse-text.json')),
    );
    const model = bedrock({ model: 'us.amazon.nova-micro-v1:0', client });
    expect((await model.generate(request)).finishReason).toBe('stop');
    model.destroy();
    expect((await model.generate(request)).finishReason).toBe('stop');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/model/us.amazon.nova-micro-v1%3A0/converse',
      '/model/us.amazon.nova-micro-v1%3A0/converse',
    ]);
    client.destroy();
  });

  test('the adapter-built client makes exactly one attempt: the agent, not the SDK, retries', async () => {
    const { server, model } = harness.current;
    const reply = jsonReply('{"message":"busy"}', 503, {
      'x-amzn-errortype': 'ServiceUnavailableException',
    });
    server.push(reply, reply, reply);
    await rejection(model().generate(request));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['amz-sdk-request']).toBe('attempt=1; max=1');
  });
});

describe('the optional peer dependency', () => {
  const missing = (): never => {
    throw Object.assign(new Error("Cannot find module '@aws-sdk/client-bedrock-runtime'"), {
      code: 'MODULE_NOT_FOUND',
    });
  };

  test('a missing SDK → model ConfigError with install instructions', () => {
    expect(configError({ ...base, loadSdk: missing })).toBe(
      'bedrock: the AWS SDK package @aws-sdk/client-bedrock-runtime is not installed; it is an optional peer dependency of golem: run `npm install @aws-sdk/client-bedrock-runtime`',
    );
  });

  test('any other loader failure propagates unchanged', () => {
    const failure = new Error('broken install');
    expect(() =>
      bedrock({
        ...base,
        loadSdk: () => {
          throw failure;
        },
      }),
    ).toThrow(failure);
  });

  test('the adapter module loads without the SDK; the default loader maps its absence', () => {
    jest.isolateModules(() => {
      jest.doMock('@aws-sdk/client-bedrock-runtime', missing);
      const adapter =
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry with the SDK mocked away
        require('golem/providers/bedrock') as typeof import('golem/providers/bedrock');
      expect(typeof adapter.bedrock).toBe('function');
      let error: unknown;
      try {
        adapter.bedrock(base);
      } catch (e) {
        error = e;
      }
      expect(ConfigError.is(error, 'model')).toBe(true);
      expect((error as Error).message).toContain('npm install @aws-sdk/client-bedrock-runtime');
    });
  });
});
