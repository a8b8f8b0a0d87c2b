/**
 * The MCP client over stdio against real SDK servers run as child processes (spec §27, MC-1..MC-11
 * and MC-16). One shared server serves the read-only cases; cases that change or kill a server
 * start their own.
 */
import {
  Agent,
  ModelRetry,
  RunError,
  isCancellation,
  isDeadlineExceeded,
  CancelledError,
  findError,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { McpTransportError, connectMcp, mcpTools, type McpClient } from 'golem/mcp';
import type { Tool } from 'golem';
import { call, caught, caughtAs, isRunning, named, stdioServer } from './support';
import { McpProtocolError } from '../../support/internal-errors';

let client: McpClient;
let tools: Tool[];
beforeAll(async () => {
  client = await connectMcp({ name: 'local', transport: stdioServer('stdio-server.js') });
  tools = await client.tools();
});
afterAll(() => client.close());

test('MC-1 handshake: the server sees client "golem" and the client records the server', async () => {
  expect(client.server).toEqual({ name: 'test-stdio', version: '1.2.3' });
  expect(JSON.parse(await call(named(tools, 'client_info'), {}))).toEqual({
    client: { name: 'golem', version: '0' },
    capabilities: {},
  });
  expect(client.name).toBe('local');
  expect(client.closed).toBe(false);
  expect(typeof client.pid).toBe('number');
});

describe('a closed client', () => {
  let closed: McpClient;
  let echo: Tool;
  let pid: number;
  beforeAll(async () => {
    closed = await connectMcp({ transport: stdioServer('stdio-server.js') });
    echo = named(await closed.tools(), 'echo');
    pid = closed.pid as number;
    expect(isRunning(pid)).toBe(true);
    await closed.close();
  });

  test('MC-16 close() ends the child process', () => {
    expect(isRunning(pid)).toBe(false);
    expect(closed.pid).toBeUndefined();
    expect(closed.closed).toBe(true);
  });

  test.each([
    ['tools()', () => closed.tools(), 'tools/list'],
    ['refresh()', () => closed.refresh(), 'tools/list'],
    ['a bridged call', () => call(echo, { text: 'x' }), 'tools/call'],
  ])('MC-2 %s fails with a typed transport error', async (_label, run, method) => {
    const error = await caughtAs(McpTransportError.is, run);
    expect(error.message).toBe(`mcp: server "mcp", ${method}: the client was closed`);
  });

  test('MC-2 close() again is a no-op', async () => {
    await expect(closed.close()).resolves.toBeUndefined();
  });
});

test('MC-3 an initialize error response becomes McpProtocolError with its code', async () => {
  const error = await caughtAs(McpProtocolError.is, () =>
    connectMcp({ name: 'picky', transport: stdioServer('special-server.js', 'refuse-init') }),
  );
  expect([error.code, error.method, error.server, error.message]).toEqual([
    -32602,
    'connect',
    'picky',
    'mcp: server "picky" failed connect with code -32602: unsupported protocol version',
  ]);
});

test('MC-4 pagination: tools from both pages; the second request carries the cursor', async () => {
  const paged = await connectMcp({ transport: stdioServer('special-server.js', 'paged') });
  try {
    const list = await paged.tools();
    expect(list.map((t) => t.name)).toEqual(['a', 'b', 'c', 'cursors']);
    expect(JSON.parse(await call(named(list, 'cursors'), {}))).toEqual([{}, { cursor: 'c1' }]);
  } finally {
    await paged.close();
  }
});

test('MC-4 an endless cursor chain stops with McpProtocolError', async () => {
  const looping = await connectMcp({ transport: stdioServer('special-server.js', 'loop') });
  try {
    const error = await caughtAs(McpProtocolError.is, () => looping.tools());
    expect(error.message).toBe(
      'mcp: server "mcp" failed tools/list: tools/list repeated the cursor "again"',
    );
    expect(error.code).toBeUndefined();
  } finally {
    await looping.close();
  }
});

test('MC-5 a server ping before the answer is answered and the call succeeds', async () => {
  expect(await call(named(tools, 'ping_first'), {})).toBe('pong received');
});

test('MC-6 a server request the client does not support is refused with -32601', async () => {
  expect(await call(named(tools, 'ask_roots'), {})).toBe('roots/list failed with code -32601');
});

test('MC-7 content: text joined with newlines, other parts summarised', async () => {
  expect(await call(named(tools, 'mixed'), {})).toBe(
    [
      'first',
      '[image: image/png, 8 bytes]',
      'second',
      '[audio: audio/wav, 3 bytes]',
      '[resource: file:///notes.txt, text/plain, 5 bytes]',
      '[resource link: file:///big.bin]',
    ].join('\n'),
  );
});

test('MC-8 cancellation while waiting for the answer is a cancellation, and the client stays usable', async () => {
  const controller = new AbortController();
  const pending = call(named(tools, 'hang'), {}, controller.signal);
  setImmediate(() => {
    controller.abort();
  });
  const error = await caught(() => pending);
  expect(CancelledError.is(error)).toBe(true);
  expect(isCancellation(error)).toBe(true);
  expect(await call(named(tools, 'echo'), { text: 'still here' })).toBe('still here');
});

test('MC-8 an already-aborted signal is reported before anything is sent', async () => {
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  const error = await caught(() => call(named(tools, 'echo'), { text: 'x' }, controller.signal));
  expect(CancelledError.is(error) && error.cause).toEqual(new Error('stop'));
});

test('MC-9 bridging: the server name, description and input schema verbatim', () => {
  const echo = named(tools, 'echo');
  expect([echo.name, echo.description, echo.schema]).toEqual([
    'echo',
    'Echo the text back.',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    },
  ]);
  expect(named(tools, 'env').schema).toEqual({ type: 'object', properties: {} });
  expect([echo.maxRetries, echo.timeout, echo.sequential, echo.approval]).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test('MC-9 execution sends the parsed arguments and returns the text', async () => {
  expect(await call(named(tools, 'add'), { a: 2, b: 40 })).toBe('42');
  expect(await mcpTools(client, { include: ['add'] }).then((t) => t.map((x) => x.name))).toEqual([
    'add',
  ]);
});

test.each([
  ['an array', [1, 2]],
  ['a string', 'x'],
  ['null', null],
])('MC-9 arguments that are %s are a ModelRetry, sent nowhere', async (_label, args) => {
  const error = await caughtAs(ModelRetry.is, () => call(named(tools, 'add'), args));
  expect(error.reason).toBe('the arguments must be a JSON object matching the input schema of add');
});

test('MC-10 isError: true is a ModelRetry with the server text', async () => {
  const error = await caughtAs(ModelRetry.is, () =>
    call(named(tools, 'fail'), { message: 'no such city' }),
  );
  expect(error.reason).toBe('tool fail failed: no such city');
  const blank = await caughtAs(ModelRetry.is, () => call(named(tools, 'fail_blank'), {}));
  expect(blank.reason).toBe('tool fail_blank failed');
});

test('MC-10 arguments the server rejects come back as a ModelRetry', async () => {
  const error = await caughtAs(ModelRetry.is, () => call(named(tools, 'add'), { a: 'two', b: 2 }));
  expect(error.reason).toMatch(/^tool add failed: MCP error -32602: Input validation error/);
});

describe('a server answering JSON-RPC errors', () => {
  let failing: McpClient;
  beforeAll(async () => {
    failing = await connectMcp({
      name: 'local',
      transport: stdioServer('special-server.js', 'errors'),
    });
  });
  afterAll(() => failing.close());

  test('MC-10 a JSON-RPC error is McpProtocolError, not a ModelRetry', async () => {
    const error = await caught(async () =>
      call(named(await failing.tools(), 'protocol_error'), {}),
    );
    expect(ModelRetry.is(error)).toBe(false);
    expect(McpProtocolError.is(error) && [error.code, error.method, error.message]).toEqual([
      -32603,
      'tools/call',
      'mcp: server "local" failed tools/call with code -32603: database offline',
    ]);
  });

  test('MC-11 a protocol error fails the run at the tool stage, never crashing the process', async () => {
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'c1', name: 'ok' },
          { id: 'c2', name: 'protocol_error' },
        ]),
        textResponse('x'),
      ]),
      tools: await failing.tools(),
    });
    const error = await caughtAs(RunError.is, () => agent.run('go'));
    expect(error.stage).toBe('tool');
    expect(findError(error, McpProtocolError.is)?.code).toBe(-32603);
    expect(error.partial?.toolResults).toEqual([
      { role: 'tool', content: 'ok called with {}', toolCallId: 'c1', toolName: 'ok' },
    ]);
  });
});

test('MC-11 an agent run calls a bridged tool; the tool evidence is the server text', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'from the server' } }]),
    textResponse('done'),
  ]);
  const agent = new Agent({ model, tools: await client.tools({ include: ['echo'] }) });
  const result = await agent.run('echo it');
  expect(result.output).toBe('done');
  expect(result.messages.filter((m) => m.role === 'tool')).toEqual([
    { role: 'tool', content: 'from the server', toolCallId: 'c1', toolName: 'echo' },
  ]);
  expect(model.requests[0]?.tools).toEqual([
    {
      name: 'echo',
      description: 'Echo the text back.',
      schema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      },
    },
  ]);
});

test('MC-16 the child runs in the given working directory', async () => {
  const own = await connectMcp({
    transport: { ...stdioServer('stdio-server.js'), cwd: __dirname },
  });
  try {
    expect(await call(named(await own.tools({ include: ['cwd'] }), 'cwd'), {})).toBe(__dirname);
  } finally {
    await own.close();
  }
});

test('MC-16 a hanging server and a 300 ms call timeout: a deadline in the chain', async () => {
  const hang = named(await client.tools({ include: ['hang'], timeout: 300 }), 'hang');
  const error = await caught(() => call(hang, {}));
  expect(ModelRetry.is(error)).toBe(false);
  expect(isDeadlineExceeded(error)).toBe(true);
  expect(error.message).toBe('mcp: server "local" did not answer hang within 300 ms');
});

test('MC-16 a hanging server under an agent tool timeout of 300 ms fails the run with a deadline', async () => {
  const agent = new Agent({
    model: new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'hang' }]), textResponse('x')]),
    tools: await client.tools({ include: ['hang'] }),
    toolTimeout: 300,
  });
  const error = await caughtAs(RunError.is, () => agent.run('go'));
  expect([error.stage, isDeadlineExceeded(error)]).toEqual(['tool', true]);
  expect(await call(named(tools, 'echo'), { text: 'alive' })).toBe('alive');
});
