/**
 * Golem tools and agents served as an MCP server (`createMcpServer`), over Streamable HTTP and
 * stdio, called by the official SDK client and by golem's own client: schemas, validation, the
 * mapping of `ModelRetry` and failures to `isError` results, deadlines and cancellation, progress,
 * per-request deps, and the round trip golem agent → MCP → golem agent.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, ModelRetry, defineTool, type RunEvent, ConfigError } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectMcp, createMcpServer, serveMcpHttp, type McpHttpServing } from 'golem/mcp';
import { call, caught, caughtAs, named } from './support';

let waiting: () => void = () => undefined;
let cancelled: (reason: unknown) => void = () => undefined;
const add = defineTool({
  name: 'add',
  description: 'Add two integers.',
  schema: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: (args) => {
    const { a, b } = args as { a: number; b: number };
    if (b === 0) throw new ModelRetry('b must not be 0, got 0');
    return String(a + b);
  },
});
const tools = [
  add,
  defineTool({
    name: 'explode',
    schema: { type: 'object' },
    execute: () => {
      throw new Error('database password is hunter2');
    },
  }),
  defineTool({
    name: 'slow',
    schema: { type: 'object' },
    timeout: 100,
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          reject(ctx.signal.reason as Error);
        });
      }),
  }),
  defineTool({
    name: 'wait',
    schema: { type: 'object' },
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled(ctx.signal.reason);
          reject(ctx.signal.reason as Error);
        });
        waiting();
      }),
  }),
  defineTool<{ user: string }>({
    name: 'steps',
    schema: { type: 'object' },
    execute: (_args, ctx) => {
      ctx.report?.({ kind: 'progress', progress: 1, total: 2, message: 'half' });
      ctx.report?.({ kind: 'progress', progress: 2, total: 2 });
      return `done for ${ctx.deps.user}`;
    },
  }),
];
const inner = new Agent({
  model: new ScriptedModel([
    toolCallResponse([{ id: 'i1', name: 'add', args: { a: 40, b: 2 } }]),
    textResponse('The answer is 42.'),
  ]),
  tools: [add],
});

let serving: McpHttpServing;
beforeAll(async () => {
  const server = createMcpServer<{ user: string }>({
    name: 'calc',
    version: '1.2.0',
    instructions: 'Arithmetic tools.',
    tools: tools,
    agents: [{ agent: inner, name: 'ask_calc', description: 'Ask the calculator agent.' }],
    depsFor: (request) => ({ user: String(request.headers?.['x-user'] ?? 'nobody') }),
  });
  serving = await serveMcpHttp(server);
});
afterAll(() => serving.close());

describe('with the official SDK client', () => {
  let sdk: Client;
  beforeAll(async () => {
    sdk = new Client({ name: 'sdk-test', version: '1' });
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), {
        requestInit: { headers: { 'x-user': 'ada' } },
      }),
    );
  });
  afterAll(() => sdk.close());

  test('tools/list advertises names, descriptions and JSON Schemas; instructions are sent', async () => {
    const { tools: listed } = await sdk.listTools();
    expect(listed.map((t) => t.name)).toEqual([
      'add',
      'explode',
      'slow',
      'wait',
      'steps',
      'ask_calc',
    ]);
    expect(listed[0]).toMatchObject({ description: 'Add two integers.', inputSchema: add.schema });
    expect(listed[5]?.inputSchema).toMatchObject({ required: ['prompt'] });
    expect(sdk.getInstructions()).toBe('Arithmetic tools.');
    expect(sdk.getServerVersion()).toMatchObject({ name: 'calc', version: '1.2.0' });
  });

  test.each([
    [
      'a result',
      { name: 'add', arguments: { a: 2, b: 3 } },
      { content: [{ type: 'text', text: '5' }] },
    ],
    [
      'ModelRetry → isError with its text',
      { name: 'add', arguments: { a: 2, b: 0 } },
      { content: [{ type: 'text', text: 'b must not be 0, got 0' }], isError: true },
    ],
    [
      'schema violation → isError naming it',
      { name: 'add', arguments: { a: 'two', b: 3 } },
      {
        content: [
          {
            type: 'text',
            text: expect.stringMatching(/^invalid arguments for add: .*must be integer/) as string,
          },
        ],
        isError: true,
      },
    ],
    [
      'an unexpected error → isError without its message',
      { name: 'explode', arguments: {} },
      { content: [{ type: 'text', text: 'tool explode failed' }], isError: true },
    ],
    [
      'the tool deadline → isError',
      { name: 'slow', arguments: {} },
      {
        content: [{ type: 'text', text: 'tool slow exceeded its timeout of 100 ms' }],
        isError: true,
      },
    ],
    [
      'an unknown tool → isError',
      { name: 'nope', arguments: {} },
      { content: [{ type: 'text', text: 'unknown tool "nope"' }], isError: true },
    ],
  ])('%s', async (_label, params, expected) => {
    expect(await sdk.callTool(params)).toEqual(expected);
  });

  test('per-request deps come from the request (a header here); progress is reported', async () => {
    const progress: unknown[] = [];
    const result = await sdk.callTool({ name: 'steps', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'done for ada' }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2 },
    ]);
  });

  test('a client cancellation aborts the tool signal', async () => {
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const seen = new Promise<unknown>((resolve) => {
      cancelled = resolve;
    });
    const controller = new AbortController();
    const pending = sdk.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    // The cancellation is a separate POST: sent before the call reached the tool, it could
    // overtake the call or find nothing to cancel. Abort once the tool is waiting.
    await started;
    controller.abort(new Error('client gave up'));
    await expect(pending).rejects.toThrow();
    expect(String(await seen)).toContain('client gave up');
  });
});

test("round trip: a golem agent calls a served golem agent through golem's MCP client", async () => {
  const client = await connectMcp({
    name: 'calc',
    transport: { kind: 'http', url: serving.url, headers: { 'x-user': 'grace' } },
  });
  try {
    const outer = new Agent({
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'o1', name: 'calc__ask_calc', args: { prompt: 'What is 40 + 2?' } },
        ]),
        toolCallResponse([{ id: 'o2', name: 'calc__steps', args: {} }]),
        textResponse('42, for grace.'),
      ]),
      tools: await client.tools({ prefix: 'calc' }),
    });
    const events: RunEvent[] = [];
    const result = await outer.run('Compute.', { observer: (e) => events.push(e) });
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'The answer is 42.',
      'done for grace',
    ]);
    expect(events.filter((e) => e.kind === 'tool_progress').map((e) => e.update)).toEqual([
      { kind: 'progress', progress: 1, total: 2, message: 'half' },
      { kind: 'progress', progress: 2, total: 2 },
    ]);
  } finally {
    await client.close();
  }
});

test('a served ModelRetry reaches the calling golem model as a correction', async () => {
  const client = await connectMcp({ transport: { kind: 'http', url: serving.url } });
  try {
    const served = await client.tools();
    const error = await caughtAs(ModelRetry.is, () => call(named(served, 'add'), { a: 1, b: 0 }));
    expect(error.reason).toBe('tool add failed: b must not be 0, got 0');
  } finally {
    await client.close();
  }
});

test('over stdio: a golem server process serves a tool and an agent', async () => {
  const root = join(__dirname, '..', '..', '..');
  const client = await connectMcp({
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: ['-r', '@swc-node/register', join(__dirname, 'servers', 'golem-stdio-server.ts')],
      cwd: root,
    },
  });
  try {
    expect(client.server).toEqual({ name: 'golem-stdio', version: '1.0.0' });
    const served = await client.tools();
    expect(await call(named(served, 'shout'), { text: 'hi' })).toBe('HI');
    expect(await call(named(served, 'oracle'), { prompt: 'meaning?' })).toBe('forty-two');
  } finally {
    await client.close();
  }
}, 30_000);

test('bad server options are typed errors naming the option', async () => {
  const error = await caught(() => createMcpServer({ tools: [add, add] }));
  expect(ConfigError.is(error, 'mcp') && error.message).toBe(
    'mcp: option `tools` has two tools named "add"',
  );
  expect(ConfigError.is(await caught(() => createMcpServer({})), 'mcp')).toBe(true);
});

test('exposeErrors shows the message; onError observes every unexpected failure', async () => {
  const seen: [string, string][] = [];
  const exposed = await serveMcpHttp(
    createMcpServer({
      tools: [tools[1] as never],
      exposeErrors: true,
      onError: (error, name) => {
        seen.push([name, (error as Error).message]);
      },
    }),
  );
  const sdk = new Client({ name: 'sdk-test', version: '1' });
  try {
    await sdk.connect(new StreamableHTTPClientTransport(new URL(exposed.url)));
    expect(await sdk.callTool({ name: 'explode', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'tool explode failed: database password is hunter2' }],
      isError: true,
    });
    expect(seen).toEqual([['explode', 'database password is hunter2']]);
  } finally {
    await sdk.close();
    await exposed.close();
  }
});

test('serveMcpHttp refuses a Host header it does not serve (DNS rebinding)', async () => {
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const request = httpRequest(
      serving.url,
      { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.once('error', reject);
    request.end('{}');
  });
  expect(status).toBe(403);
});
