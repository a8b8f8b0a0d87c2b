/**
 * `golem run`: the command function driven directly (module loading, container setup, model
 * choice, printing, exit codes), and the `bin/golem.js` dispatch entry.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedModel, TestModel } from 'golem/testing';
import {
  parseDepsOption,
  parseRunArgs,
  UsageError,
  type DepsSource,
} from '../../container/cli/run-args';
import * as factory from './fixtures/deps-factory';
import { RUN_EXIT, runCommand, type RunIO } from '../../container/cli/run';

const mainJob = join(__dirname, '..', '..', 'examples', 'main-job', 'weather.agent.ts');

async function run(argv: string[], io: RunIO = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = await runCommand(argv, {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    cwd: __dirname,
    env: {},
    load: (file) => import(file) as Promise<unknown>,
    ...io,
  });
  return { exit, stdout, stderr };
}

describe('golem run', () => {
  test('runs an exported agent class with --model and --deps and prints output, messages, usage', async () => {
    const { exit, stdout, stderr } = await run([
      'fixtures/cli-agents.ts',
      'WeatherAgent',
      'Forecast for Lagos',
      '--model',
      'test',
      '--deps',
      '{"name":"Ada"}',
    ]);
    expect(stderr).toEqual([]);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout).toEqual([
      'agent: WeatherAgent',
      'model: test (binding "default", --model test)',
      'output: {"city":"Lagos","celsius":25}',
      'messages:',
      '  system: You are a weather assistant. The user is Ada.',
      '  user: Forecast for Lagos',
      '  assistant calls forecast({"city":"Lagos"}) [test-call-1]',
      expect.stringMatching(
        /^ {2}tool forecast \[test-call-1\]: Lagos on 2026-12-01: 25°C for Ada \(service \d+\)$/,
      ),
      '  assistant: {"city":"Lagos","celsius":25}',
      'usage: 33 input + 2 output tokens, 2 requests, 1 tool calls',
    ]);
  });

  test('without --model it uses detectDefaultModel: test offline', async () => {
    const { exit, stdout } = await run(['fixtures/cli-agents.ts', 'FastAgent', 'hi']);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout.slice(0, 3)).toEqual([
      'agent: FastAgent',
      'model: test (binding "fast", detected from the environment)',
      'output: success (no tool calls)',
    ]);
  });

  test('without --model it uses the provider the environment configures', async () => {
    const requests: { url: string; body: unknown }[] = [];
    const fetch = (url: string, init: RequestInit): Promise<Response> => {
      requests.push({
        url,
        body: JSON.parse(typeof init.body === 'string' ? init.body : '') as unknown,
      });
      const body = {
        id: 'x',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 7, completion_tokens: 2 },
      };
      return Promise.resolve(
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
      );
    };
    const { exit, stdout } = await run(['fixtures/cli-agents.ts', 'FastAgent', 'hi'], {
      env: { OPENAI_API_KEY: 'sk-test-0123456789' },
      fetch,
    });
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout).toContain(
      'model: openai:gpt-4o-mini (binding "fast", detected from the environment)',
    );
    expect(stdout).toContain('output: Hello!');
    expect(stdout).toContain('usage: 7 input + 2 output tokens, 1 requests, 0 tool calls');
    expect(requests[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
  });

  test('runs the main job agent the README shows', async () => {
    const { exit, stdout } = await run([
      mainJob,
      'WeatherAgent',
      'What is the weather in Lagos tomorrow?',
      '--model=test',
      '--deps={"name":"Ada"}',
    ]);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout[2]).toBe(
      'output: {"city":"Lagos","celsius":31,"summary":"Sunny and humid: take water."}',
    );
  });

  test('a failing run exits 1 with the stage and the evidence so far', async () => {
    const { exit, stdout, stderr } = await run(
      ['fixtures/cli-agents.ts', 'FastAgent', 'hi', '--model', 'test'],
      { testModel: () => new ScriptedModel([new Error('provider down')]) },
    );
    expect(exit).toBe(RUN_EXIT.failed);
    expect(stdout).toEqual(['agent: FastAgent', 'model: scripted (binding "fast", --model test)']);
    expect(stderr[0]).toBe('golem run: the run failed at the model stage: provider down');
    expect(stderr[1]).toBe(
      `golem run: no --deps was given; if the agent reads its deps (ctx.deps), pass them: --deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`,
    );
  });

  test.each<[string, string[], RegExp]>([
    [
      'a missing file',
      ['nope.ts', 'A', 'hi'],
      /^golem run: no such file: .*nope\.ts; give the path of the module that exports the agent$/,
    ],
    [
      'a missing export',
      ['fixtures/cli-agents.ts', 'Nope', 'hi'],
      /exports no "Nope"; its @Agent classes: FastAgent, WeatherAgent$/,
    ],
    [
      'an export of a module without agent classes',
      ['fixtures/deps-none.ts', 'WeatherAgent', 'hi'],
      /deps-none\.ts exports no "WeatherAgent"; it exports no @Agent class: export the class \(export class WeatherAgent\)$/,
    ],
    [
      'a class without @Agent',
      ['fixtures/cli-agents.ts', 'PlainClass', 'hi'],
      /PlainClass is not an agent class: it has no @Agent decorator; decorate it with @Agent/,
    ],
    [
      'an unresolvable model',
      ['fixtures/cli-agents.ts', 'FastAgent', 'hi', '--model', 'anthropic:claude-sonnet-4-5'],
      /the model "fast" \("anthropic:claude-sonnet-4-5"\) cannot be built: .*ANTHROPIC_API_KEY/,
    ],
    [
      'invalid --deps',
      ['fixtures/cli-agents.ts', 'FastAgent', 'hi', '--deps', '{x'],
      /--deps is not valid JSON/,
    ],
  ])('%s exits 2 with a message', async (_name, argv, message) => {
    const { exit, stderr } = await run(argv);
    expect(exit).toBe(RUN_EXIT.usage);
    expect(stderr[0]).toMatch(message);
  });

  test('a run that needs deps but got none exits 1 naming --deps', async () => {
    const { exit, stderr } = await run(['fixtures/cli-agents.ts', 'WeatherAgent', 'hi']);
    expect(exit).toBe(RUN_EXIT.failed);
    expect(stderr).toEqual([
      "golem run: the run could not start: instructions function 1 failed: Cannot read properties of undefined (reading 'name')",
      `golem run: no --deps was given; if the agent reads its deps (ctx.deps), pass them: --deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`,
    ]);
  });

  test('--deps <module> takes the deps from its `deps` export', async () => {
    const { exit, stdout, stderr } = await run([
      'fixtures/cli-agents.ts',
      'WeatherAgent',
      'hi',
      '--model=test',
      '--deps',
      'fixtures/deps-value.ts',
    ]);
    expect(stderr).toEqual([]);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout).toContain('  system: You are a weather assistant. The user is Grace.');
  });

  test('--deps <module> calls a default-exported function once and awaits it', async () => {
    const { exit, stdout } = await run([
      'fixtures/cli-agents.ts',
      'WeatherAgent',
      'hi',
      '--deps=./fixtures/deps-factory.ts',
    ]);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout).toContain('  system: You are a weather assistant. The user is Lin.');
    expect(factory.calls).toBe(1);
  });

  test.each<[string, string, string]>([
    [
      'a module exporting no deps',
      'fixtures/deps-none.ts',
      `golem run: --deps fixtures/deps-none.ts: ${join(__dirname, 'fixtures', 'deps-none.ts')} exports neither \`deps\` nor a default export; add \`export const deps = { … }\` (or a function returning them)`,
    ],
    [
      'neither JSON nor a file',
      'Ada',
      `golem run: --deps Ada is neither JSON nor an existing module (no such file: ${join(__dirname, 'Ada')}); pass --deps '{"name":"Ada"}' or --deps ./deps.ts (export const deps = { … })`,
    ],
  ])('--deps with %s exits 2 saying what to pass', async (_name, deps, message) => {
    const { exit, stdout, stderr } = await run([
      'fixtures/cli-agents.ts',
      'WeatherAgent',
      'hi',
      '--deps',
      deps,
    ]);
    expect(exit).toBe(RUN_EXIT.usage);
    expect(stdout).toEqual([]);
    expect(stderr).toEqual([message]);
  });

  test('a failure never prints the value of a secret variable of the environment', async () => {
    const key = 'sk-live-0123456789abcdef';
    const { exit, stderr } = await run(
      ['fixtures/cli-agents.ts', 'FastAgent', 'hi', '--model', 'test'],
      {
        env: { OPENAI_API_KEY: key },
        testModel: () => new ScriptedModel([new Error(`401: invalid key ${key}`)]),
      },
    );
    expect(exit).toBe(RUN_EXIT.failed);
    expect(stderr[0]).toBe(
      'golem run: the run failed at the model stage: 401: invalid key [redacted]',
    );
    expect(stderr.join('\n')).not.toContain(key);
  });

  test('--help prints the usage and exits 0', async () => {
    const { exit, stdout } = await run(['--help']);
    expect(exit).toBe(RUN_EXIT.ok);
    expect(stdout[0]).toMatch(/^usage: golem run <module> <ExportName> "<prompt>"/);
  });
});

describe('golem run arguments', () => {
  test('parses positionals and options in either form', () => {
    expect(parseRunArgs(['m.js', 'A', 'a prompt', '--model=test', '--deps', '[1]'])).toEqual({
      module: 'm.js',
      exportName: 'A',
      prompt: 'a prompt',
      model: 'test',
      deps: { kind: 'json', value: [1] },
      help: false,
    });
  });

  test.each([
    [[], 'no module given'],
    [['m.js'], 'no export name given (the agent class)'],
    [['m.js', 'A'], 'no prompt given'],
    [
      ['m.js', 'A', 'two', 'words'],
      'unexpected argument "words"; quote the prompt as one argument',
    ],
    [['m.js', 'A', 'hi', '--model'], '--model needs a value'],
    [['m.js', 'A', 'hi', '--model', 'a', '--model', 'b'], '--model is given twice'],
    [['m.js', 'A', 'hi', '--verbose'], 'unknown option --verbose'],
    [
      ['m.js', 'A', 'hi', '--deps', '{"name":'],
      // JSON.parse's own words differ between Node versions.
      /^--deps is not valid JSON: .+; quote the JSON for the shell, e\.g\. --deps '\{"name":"Ada"\}'$/,
    ],
    [['m.js', 'A', 'hi', '--deps', '[]', '--deps', '{}'], '--deps is given twice'],
  ])('%j is a usage error: %s', (argv, message: string | RegExp) => {
    if (typeof message === 'string')
      expect(() => parseRunArgs(argv)).toThrow(new UsageError(message));
    else expect(() => parseRunArgs(argv)).toThrow(message);
  });

  test.each<[string, DepsSource]>([
    ['{"name":"Ada"}', { kind: 'json', value: { name: 'Ada' } }],
    [' [1, 2] ', { kind: 'json', value: [1, 2] }],
    ['42', { kind: 'json', value: 42 }],
    ['null', { kind: 'json', value: null }],
    ['./deps.ts', { kind: 'module', path: './deps.ts' }],
    ['config/deps.js', { kind: 'module', path: 'config/deps.js' }],
  ])('--deps %j is %j', (text, source) => {
    expect(parseDepsOption(text)).toEqual(source);
  });

  test('a usage error prints the message and the usage and exits 2', async () => {
    const { exit, stderr } = await run([]);
    expect(exit).toBe(RUN_EXIT.usage);
    expect(stderr[0]).toBe('golem run: no module given');
    expect(stderr[1]).toMatch(/^usage: golem run/);
  });

  test('a TestModel from --model test is the one the testModel factory builds', async () => {
    const model = new TestModel({ name: 'own' });
    const { stdout } = await run(['fixtures/cli-agents.ts', 'FastAgent', 'hi', '--model', 'test'], {
      testModel: () => model,
    });
    expect(stdout[1]).toBe('model: own (binding "fast", --model test)');
    expect(model.calls).toBe(1);
  });
});

describe('bin/golem.js run', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'golem-bin-run-'));
    mkdirSync(join(root, 'bin'));
    for (const file of ['golem.js', 'from-source.js'])
      copyFileSync(join(__dirname, '..', '..', 'bin', file), join(root, 'bin', file));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const golem = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin', 'golem.js'), ...args], { encoding: 'utf8' });

  test('the usage lists the run command', () => {
    expect(golem('--help').stdout).toContain('run      Run an exported @Agent class');
  });

  test('dispatches to dist/container/cli/run.js with the remaining arguments', () => {
    expect(golem('run', 'm.js', 'A', 'hi').stderr).toContain(
      'the compiled "run" command is missing',
    );
    mkdirSync(join(root, 'dist', 'container', 'cli'), { recursive: true });
    writeFileSync(
      join(root, 'dist', 'container', 'cli', 'run.js'),
      'exports.main = async (argv) => { console.log(JSON.stringify(argv)); return 1; };\n',
    );
    const result = golem('run', 'm.js', 'A', 'hi', '--model', 'test');
    expect(result.stdout.trim()).toBe('["m.js","A","hi","--model","test"]');
    expect(result.status).toBe(1);
  });

  test('a missing peer dependency of a command: its install command in one line, exit 2', () => {
    mkdirSync(join(root, 'dist', 'container', 'cli'), { recursive: true });
    // What a command module throws on load when `../peers` finds a peer missing.
    writeFileSync(
      join(root, 'dist', 'container', 'cli', 'mcp.js'),
      "const e = new Error('golem/container needs the package inversify, a peer dependency of golem that is not installed: run `npm install inversify`');\n" +
        "e.reason = 'missing-peer';\nthrow e;\n",
    );
    const result = golem('mcp', 'serve', 'm.js', 'A');
    expect(result.stderr).toBe(
      'golem mcp: golem/container needs the package inversify, a peer dependency of golem that is not installed: run `npm install inversify`\n',
    );
    expect(result.status).toBe(2);
  });
});
