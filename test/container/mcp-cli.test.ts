/**
 * `golem mcp serve`: the command driven in-process over Streamable HTTP (an @Agent class's
 * @Tool methods with DTO validation and the agent itself; tools; an Agent), usage errors, and the
 * `bin/golem.js` entry over stdio with golem's own client.
 */
import { join } from 'node:path';
import { ModelRetry, type Tool, type ToolContext } from 'golem';
import { connectMcp } from 'golem/mcp';
import { mcpCommand } from '../../container/cli/mcp';
import { parseMcpArgs } from '../../container/cli/mcp-args';
import { UsageError } from '../../decorators/cli/args';

const weather = join(__dirname, '..', '..', 'examples', 'mcp-server', 'weather.agent.ts');
const exportsFile = join(__dirname, 'fixtures', 'mcp-exports.ts');

function ctx(): ToolContext {
  return {
    deps: undefined,
    signal: AbortSignal.timeout(20_000),
    callId: 'c',
    toolName: 't',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

function named(tools: readonly Tool[], name: string): Tool {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

/** Serves `argv` over HTTP in-process, hands the tools to `use`, then stops; returns the output. */
async function serving(argv: string[], use: (tools: Tool[]) => Promise<void>) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop: () => void = () => undefined;
  let listening: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const exit = mcpCommand(['serve', ...argv, '--http'], {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    env: {},
    load: (file) => import(file) as Promise<unknown>,
    until: new Promise<void>((resolve) => (stop = resolve)),
    onListening: listening,
  });
  const client = await connectMcp({ transport: { kind: 'http', url: await url } });
  try {
    await use(await client.tools());
  } finally {
    await client.close();
    stop();
  }
  return { exit: await exit, stdout, stderr };
}

test('an @Agent class: its @Tool methods (DTO-validated) and the agent itself', async () => {
  const { exit, stdout } = await serving([weather, 'WeatherAgent'], async (tools) => {
    expect(tools.map((t) => t.name)).toEqual(['forecast', 'weather_agent']);
    expect(await named(tools, 'forecast').execute({ city: 'Lagos', days: 2 }, ctx())).toBe(
      'Lagos: 29°C',
    );
    const rejected: unknown = await Promise.resolve(
      named(tools, 'forecast').execute({ city: 'Lagos', days: 12 }, ctx()),
    ).catch((error: unknown) => error);
    expect(ModelRetry.is(rejected)).toBe(true);
    expect(typeof (await named(tools, 'weather_agent').execute({ prompt: 'Lagos?' }, ctx()))).toBe(
      'string',
    );
  });
  expect(exit).toBe(0);
  expect(stdout[0]).toMatch(/^serving forecast, weather_agent at http:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

test('--expose tools serves only the @Tool methods', async () => {
  await serving([weather, 'WeatherAgent', '--expose', 'tools'], async (tools) => {
    expect(tools.map((t) => t.name)).toEqual(['forecast']);
  });
});

test.each([
  ['a Tool', 'shout', ['shout']],
  ['an array of Tools', 'kit', ['shout']],
  ['an Agent instance', 'oracle', ['oracle']],
])('%s', async (_label, exportName, names) => {
  await serving([exportsFile, exportName], async (tools) => {
    expect(tools.map((t) => t.name)).toEqual(names);
  });
});

test.each([
  [['serve'], 'no module given'],
  [['serve', 'x.ts'], 'no export name given'],
  [['serve', 'x.ts', 'X', '--port', '99999'], '--port must be 0–65535, got 99999'],
  [['serve', 'x.ts', 'X', '--expose', 'all'], '--expose must be both, tools or agent, got all'],
  [['start'], 'unknown subcommand "start" (only "serve")'],
])('usage error %j', (argv, message) => {
  expect(() => parseMcpArgs(argv)).toThrow(new UsageError(message));
});

test('an export that cannot be served: exit 2 naming it', async () => {
  const stderr: string[] = [];
  const exit = await mcpCommand(['serve', exportsFile, 'nothing'], {
    stderr: (line) => stderr.push(line),
    load: (file) => import(file) as Promise<unknown>,
  });
  expect([exit, stderr]).toEqual([
    2,
    ['golem mcp: nothing is not an @Agent class, a Tool, an array of Tools or an Agent'],
  ]);
});

test("bin/golem.js mcp serve over stdio, with golem's client", async () => {
  const root = join(__dirname, '..', '..');
  const client = await connectMcp({
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [
        join(root, 'bin', 'golem.js'),
        'mcp',
        'serve',
        weather,
        'WeatherAgent',
        '--expose',
        'tools',
      ],
      cwd: root,
    },
  });
  try {
    expect(client.server.name).toBe('WeatherAgent');
    expect(await named(await client.tools(), 'forecast').execute({ city: 'Oslo' }, ctx())).toBe(
      'Oslo: 18°C',
    );
  } finally {
    await client.close();
  }
}, 30_000);
