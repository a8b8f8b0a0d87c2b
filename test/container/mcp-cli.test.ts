/**
 * `golem mcp serve`: the command driven in-process over Streamable HTTP (an @Agent class's
 * @Tool methods with DTO validation and the agent itself; tools; an Agent), usage errors, and the
 * `bin/golem.js` entry over stdio with golem's own client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelRetry, type Tool, type ToolContext } from 'golem';
import { connectMcp } from 'golem/mcp';
import { ScriptedModel } from 'golem/testing';
import { mcpCommand, type McpIO } from '../../container/cli/mcp';
import { parseMcpArgs } from '../../container/cli/mcp-args';
import { UsageError } from '../../decorators/cli/args';
import {
  REPO,
  golem,
  installGolem,
  linkDependencies,
  writeFiles,
} from '../support/consumer-project';

const weather = join(__dirname, '..', '..', 'examples', 'mcp-server', 'weather.agent.ts');
const exportsFile = join(__dirname, 'fixtures', 'mcp-exports.ts');
const agentsFile = join(__dirname, 'fixtures', 'cli-agents.ts');

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
async function serving(argv: string[], use: (tools: Tool[]) => Promise<void>, io: McpIO = {}) {
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
    cwd: __dirname,
    ...io,
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
  [['serve', 'x.ts'], 'no export name given (the @Agent class, Tool, Tools or Agent to serve)'],
  [['serve', 'x.ts', 'X', '--port', '99999'], '--port must be 0–65535, got 99999'],
  [['serve', 'x.ts', 'X', '--expose', 'all'], '--expose must be both, tools or agent, got all'],
  [['start'], 'unknown subcommand "start" (only "serve"): golem mcp serve <module> <ExportName>'],
  [
    ['serve', 'x.ts', 'X', 'Y'],
    'unexpected argument "Y": serve takes one module and one export name',
  ],
  [['serve', 'x.ts', 'X', '--deps', '{"a":'], expect.stringMatching(/^--deps is not valid JSON/)],
  [['serve', 'x.ts', 'X', '--http=yes'], '--http takes no value'],
])('usage error %j', (argv, message) => {
  let thrown: unknown;
  try {
    parseMcpArgs(argv);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  expect((thrown as Error).message).toEqual(message);
});

test('--deps takes JSON or a module, with the same parser as golem run', () => {
  expect(parseMcpArgs(['serve', 'm.ts', 'A', '--deps', '{"name":"Ada"}']).deps).toEqual({
    kind: 'json',
    value: { name: 'Ada' },
  });
  expect(parseMcpArgs(['serve', 'm.ts', 'A', '--deps=./deps.ts']).deps).toEqual({
    kind: 'module',
    path: './deps.ts',
  });
  expect(parseMcpArgs(['serve', 'm.ts', 'A']).deps).toBeUndefined();
});

describe('deps of the served agent', () => {
  test.each([
    ['JSON', '{"name":"Ada"}', 'Ada'],
    ['a module', 'fixtures/deps-value.ts', 'Grace'],
  ])('--deps %s reaches every call of the agent and its tools', async (_label, deps, name) => {
    const { stderr } = await serving(
      [agentsFile, 'WeatherAgent', '--model', 'test', '--deps', deps],
      async (tools) => {
        expect(tools.map((t) => t.name)).toEqual(['forecast', 'weather_agent']);
        expect(await named(tools, 'forecast').execute({ city: 'Oslo' }, ctx())).toMatch(
          new RegExp(`^Oslo on 2026-12-01: \\d+°C for ${name} \\(service \\d+\\)$`),
        );
        expect(await named(tools, 'weather_agent').execute({ prompt: 'Lagos?' }, ctx())).toBe(
          '{"city":"Lagos","celsius":25}',
        );
      },
    );
    expect(stderr).toEqual([]);
  });

  test('without --deps a failing call stays opaque to the client and is explained on stderr', async () => {
    let rejected: unknown;
    const { exit, stderr } = await serving([agentsFile, 'WeatherAgent'], async (tools) => {
      rejected = await Promise.resolve(
        named(tools, 'weather_agent').execute({ prompt: 'Lagos?' }, ctx()),
      ).catch((error: unknown) => error);
      await Promise.resolve(
        named(tools, 'weather_agent').execute({ prompt: 'again' }, ctx()),
      ).catch(() => undefined);
    });
    expect(exit).toBe(0);
    expect(ModelRetry.is(rejected)).toBe(true);
    expect((rejected as ModelRetry).reason).toBe(
      'tool weather_agent failed: tool weather_agent failed',
    );
    expect(stderr).toEqual([
      "golem mcp: tool weather_agent failed: the run could not start: instructions function 1 failed: Cannot read properties of undefined (reading 'name')",
      `golem mcp: no --deps was given; if the agent reads its deps (ctx.deps), pass them: --deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`,
      // The hint is given once; every failure is logged.
      "golem mcp: tool weather_agent failed: the run could not start: instructions function 1 failed: Cannot read properties of undefined (reading 'name')",
    ]);
  });

  test("a failed run is logged with its stage, the environment's secrets redacted", async () => {
    const key = 'sk-live-0123456789abcdef';
    let rejected: unknown;
    const { stderr } = await serving(
      [agentsFile, 'WeatherAgent', '--model', 'test', '--deps', '{"name":"Ada"}'],
      async (tools) => {
        rejected = await Promise.resolve(
          named(tools, 'weather_agent').execute({ prompt: 'Lagos?' }, ctx()),
        ).catch((error: unknown) => error);
      },
      {
        env: { OPENAI_API_KEY: key },
        testModel: () => new ScriptedModel([new Error(`401 for key ${key}`)]),
      },
    );
    expect((rejected as ModelRetry).reason).toBe(
      'tool weather_agent failed: tool weather_agent failed',
    );
    expect(stderr).toEqual([
      'golem mcp: tool weather_agent failed: the run failed at the model stage: 401 for key [redacted]',
    ]);
  });

  test('a --deps module that is missing exits 2 before serving, saying what to pass', async () => {
    const stderr: string[] = [];
    const exit = await mcpCommand(['serve', agentsFile, 'WeatherAgent', '--deps', 'nope.ts'], {
      stderr: (line) => stderr.push(line),
      cwd: __dirname,
      load: (file) => import(file) as Promise<unknown>,
    });
    expect(exit).toBe(2);
    expect(stderr).toEqual([
      `golem mcp: --deps nope.ts is neither JSON nor an existing module (no such file: ${join(__dirname, 'nope.ts')}); pass --deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`,
    ]);
  });
});

describe('without the MCP SDK installed', () => {
  test('mcp serve prints the install command in one line and exits 2', async () => {
    const stderr: string[] = [];
    let loaded = false;
    const exit = await mcpCommand(['serve', exportsFile, 'shout'], {
      stderr: (line) => stderr.push(line),
      load: () => {
        loaded = true;
        return {};
      },
      // What `require` throws when the package is not installed.
      loadSdk: () => {
        throw Object.assign(
          new Error("Cannot find module '@modelcontextprotocol/sdk/server/index.js'"),
          { code: 'MODULE_NOT_FOUND' },
        );
      },
    });
    expect([exit, stderr, loaded]).toEqual([
      2,
      [
        'golem mcp: serving needs @modelcontextprotocol/sdk, an optional peer dependency of golem that is not installed: npm install @modelcontextprotocol/sdk',
      ],
      false,
    ]);
  });

  test("a failure of one of the SDK's own dependencies is not mistaken for a missing SDK", async () => {
    const broken = Object.assign(new Error("Cannot find module 'zod'"), {
      code: 'MODULE_NOT_FOUND',
    });
    await expect(
      mcpCommand(['serve', exportsFile, 'shout'], {
        stderr: () => undefined,
        loadSdk: () => {
          throw broken;
        },
      }),
    ).rejects.toBe(broken);
  });

  test('golem installed in a project without the SDK: one line, exit 2, no stack trace', () => {
    const root = mkdtempSync(join(tmpdir(), 'golem-mcp-nosdk-'));
    try {
      const dir = join(root, 'consumer');
      linkDependencies(dir, ['@modelcontextprotocol']);
      installGolem(join(dir, 'node_modules', 'golem'));
      writeFiles(dir, {
        'package.json': '{"name":"consumer","private":true}',
        'tools.js':
          "exports.shout = require('golem').defineTool({ name: 'shout', schema: {}, execute: () => 'HI' });\n",
      });
      const bin = join(dir, 'node_modules', 'golem', 'bin', 'golem.js');
      const result = golem(bin, dir, ['mcp', 'serve', 'tools.js', 'shout']);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'golem mcp: serving needs @modelcontextprotocol/sdk, an optional peer dependency of golem that is not installed: npm install @modelcontextprotocol/sdk\n',
      );
      expect(result.status).toBe(2);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

test('an export that cannot be served: exit 2 naming it', async () => {
  const stderr: string[] = [];
  const exit = await mcpCommand(['serve', exportsFile, 'nothing'], {
    stderr: (line) => stderr.push(line),
    load: (file) => import(file) as Promise<unknown>,
  });
  expect([exit, stderr]).toEqual([
    2,
    [
      'golem mcp: nothing is not an @Agent class, a Tool, an array of Tools or an Agent; export one of those under the name you serve',
    ],
  ]);
});

test("bin/golem.js mcp serve over stdio, with golem's client", async () => {
  const root = REPO;
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
