/**
 * Edges of the client capabilities and feature checks, against local SDK servers: option
 * validation, capability errors before sending, the sampling request budget, a failing
 * elicitation handler, roots without the option, and what the handshake declares.
 */
import { ModelRetry, type Tool } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { connectMcp } from 'golem/mcp';
import { referenceStdio } from './reference';
import { call, caughtAs, named, stdioServer } from './support';
import { McpCapabilityError } from '../../support/internal-errors';
import { configErrorGuard } from '../../support/config-error';

test.each([
  [
    { sampling: { model: {} } },
    'sampling.model',
    'must be a golem Model (an object with generate())',
  ],
  [
    { sampling: { model: new ScriptedModel([]), maxTokens: 0 } },
    'sampling.maxTokens',
    'must be a positive integer, got 0',
  ],
  [
    { elicitation: {} },
    'elicitation',
    'must be an object { handler: (request, { signal }) => answer }',
  ],
  [
    { roots: [{ uri: 'https://example.com' }] },
    'roots[0].uri',
    'must be a file: URI, got "https://example.com"',
  ],
  [
    { logLevel: 'loud' },
    'logLevel',
    'must be one of debug, info, notice, warning, error, critical, alert, emergency; got "loud"',
  ],
])('bad capability option %j is an mcp ConfigError naming it', async (extra, option, message) => {
  const error = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({ transport: stdioServer('stdio-server.js'), ...(extra as object) }),
  );
  expect([error.option, error.message]).toEqual([option, `mcp: option \`${option}\` ${message}`]);
});

describe('a tools-only server', () => {
  test('the handshake declares only the capabilities opted into', async () => {
    const client = await connectMcp({
      transport: stdioServer('stdio-server.js'),
      roots: [],
      elicitation: { handler: () => ({ action: 'cancel' }), url: true },
    });
    try {
      const info = JSON.parse(await call(named(await client.tools(), 'client_info'), {})) as {
        capabilities: unknown;
      };
      expect(info.capabilities).toEqual({
        roots: { listChanged: true },
        elicitation: { form: {}, url: {} },
      });
    } finally {
      await client.close();
    }
  });

  test('resources, prompts and logging it lacks are McpCapabilityError, nothing sent; setRoots needs the option', async () => {
    const client = await connectMcp({
      name: 'tools-only',
      transport: stdioServer('stdio-server.js'),
    });
    try {
      const prompts = await caughtAs(McpCapabilityError.is, () => client.listPrompts());
      expect(prompts.message).toBe(
        'mcp: server "tools-only" does not offer prompts (not declared in the handshake), so prompts/list cannot be used with it',
      );
      expect(
        (await caughtAs(McpCapabilityError.is, () => client.readResource('x://y'))).capability,
      ).toBe('resources');
      expect(
        (await caughtAs(McpCapabilityError.is, () => client.setLogLevel('info'))).capability,
      ).toBe('logging');
      expect((await caughtAs(configErrorGuard('mcp'), () => client.setRoots([]))).option).toBe(
        'roots',
      );
      expect(client.roots).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('sampling and elicitation limits (server-everything)', () => {
  let tools: Tool[];
  let close: () => Promise<void>;
  beforeAll(async () => {
    const client = await connectMcp({
      transport: referenceStdio('server-everything', ['stdio']),
      sampling: {
        model: new ScriptedModel([textResponse('one'), textResponse('two')]),
        maxRequests: 1,
      },
      elicitation: {
        handler: () => {
          throw new Error('the form could not be shown');
        },
      },
    });
    tools = await client.tools();
    close = () => client.close();
  }, 30_000);
  afterAll(() => close());

  test('past maxRequests the server is refused, naming the budget', async () => {
    expect(await call(named(tools, 'trigger-sampling-request'), { prompt: 'a' })).toContain('one');
    const error = await caughtAs(ModelRetry.is, () =>
      call(named(tools, 'trigger-sampling-request'), { prompt: 'b' }),
    );
    expect(error.reason).toContain(
      'sampling refused: this client serves at most 1 sampling requests per connection',
    );
  });

  test('a handler that throws answers the server with an error carrying its message', async () => {
    const error = await caughtAs(ModelRetry.is, () =>
      call(named(tools, 'trigger-elicitation-request'), {}),
    );
    expect(error.reason).toContain('golem: elicitation failed: the form could not be shown');
  });
});
