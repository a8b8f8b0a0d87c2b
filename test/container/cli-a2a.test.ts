/**
 * `golem a2a serve`: the bin spawned on a free port with a bearer token (card, SendMessage with
 * and without the token, SIGTERM → exit 0), the command in-process (an Agent export on a route
 * apart from its public URL, durable tasks in SQLite), the choice of export, and usage errors.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sqliteStore } from 'golem/stores/sqlite';
import { a2aCommand, type A2AIO } from '../../container/cli/a2a';
import { parseA2AArgs } from '../../container/cli/a2a-args';
import { UsageError } from '../../decorators/cli/args';
import { missingPeerError } from '../../src/core/kit/missing-peer';
import { parseRpcResponse, parseTask } from '../../src/a2a/wire-check';
import { REPO, golem } from '../support/consumer-project';

const fixture = join(__dirname, 'fixtures', 'a2a-agents.ts');
const bin = join(REPO, 'bin', 'golem.js');

let nextId = 0;

async function send(url: string, text: string, headers: Record<string, string> = {}) {
  const id = ++nextId;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'SendMessage',
      params: { message: { messageId: `m-${String(id)}`, role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
  return { status: res.status, body: parseRpcResponse(await res.json()) };
}

function taskOf(body: ReturnType<typeof parseRpcResponse>) {
  if ('error' in body) throw new Error(`unexpected error ${JSON.stringify(body.error)}`);
  return parseTask((body.result as { task?: unknown }).task);
}

test('the bin serves an @Agent class with a bearer token until SIGTERM, then exits 0', async () => {
  const env: NodeJS.ProcessEnv = { A2A_TOKEN: 's3cret-token' };
  // NODE_OPTIONS and GOLEM_NATIVE_DIR carry CI's better-sqlite3 for this Node's ABI (other-nodes.sh).
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'NODE_OPTIONS', 'GOLEM_NATIVE_DIR'])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  const child = spawn(
    process.execPath,
    [bin, 'a2a', 'serve', fixture, 'WeatherAgent', '--port', '0', '--token-env', 'A2A_TOKEN'],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      void exited.then((code) => {
        reject(new Error(`exited ${String(code)}: ${stderr}`));
      });
    });
    const match =
      /^A2A agent WeatherAgent at (http:\/\/127\.0\.0\.1:\d+\/a2a) \(card (\S+)\)$/.exec(line);
    expect(match).not.toBeNull();
    const [, url, cardUrl] = match as unknown as [string, string, string];
    expect(cardUrl).toBe(`${url}/.well-known/agent-card.json`);
    const card = (await (await fetch(cardUrl)).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: 'WeatherAgent',
      supportedInterfaces: [{ url }],
      skills: [{ id: 'temperature', description: 'Temperature in a city' }],
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
    const refused = await send(url, 'Lagos');
    expect(refused.status).toBe(401);
    expect((await send(url, 'Lagos', { authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await send(url, 'Lagos', { authorization: 'Bearer s3cret-token' });
    const task = taskOf(ok.body);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'It is Lagos: 25°C' }]);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(stderr).not.toContain('s3cret-token');
}, 60_000);

/** Runs the command in-process until `use` is done; returns the exit code and the output. */
async function serving(
  argv: string[],
  use: (url: string, local: string) => Promise<void>,
  io: A2AIO = {},
) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop: () => void = () => undefined;
  let listening: (urls: [string, string]) => void = () => undefined;
  const ready = new Promise<[string, string]>((resolve) => (listening = resolve));
  const exit = a2aCommand(['serve', ...argv, '--port', '0'], {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    env: {},
    load: (file) => import(file) as Promise<unknown>,
    until: new Promise<void>((resolve) => (stop = resolve)),
    onListening: (url, local) => {
      listening([url, local]);
    },
    cwd: __dirname,
    ...io,
  });
  const settled = await Promise.race([ready, exit]);
  if (typeof settled === 'number')
    throw new Error(`exited ${String(settled)}: ${stderr.join('\n')}`);
  try {
    await use(...settled);
  } finally {
    stop();
  }
  return { exit: await exit, stdout, stderr };
}

test('an Agent export on --path, carded at its public --url, tasks kept in a --store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-a2a-cli-'));
  try {
    const db = join(dir, 'tasks.db');
    let taskId = '';
    const { exit, stdout } = await serving(
      [
        'fixtures/a2a-agents.ts',
        'echo',
        '--path',
        '/internal',
        '--url',
        'https://agents.example.com/echo',
        '--store',
        db,
      ],
      async (url, local) => {
        expect(url).toBe('https://agents.example.com/echo');
        const card = (await (
          await fetch(`${local}/internal/.well-known/agent-card.json`)
        ).json()) as { name: string; supportedInterfaces: { url: string }[] };
        expect(card.name).toBe('echo');
        expect(card.supportedInterfaces[0]?.url).toBe(url);
        const task = taskOf((await send(`${local}/internal`, 'hello')).body);
        expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'echo: hello' }]);
        taskId = task.id;
      },
    );
    expect(exit).toBe(0);
    expect(stdout).toEqual([
      'A2A agent echo at https://agents.example.com/echo (card https://agents.example.com/echo/.well-known/agent-card.json)',
    ]);
    const store = sqliteStore({ path: db });
    try {
      expect(await store.getRun(taskId)).toMatchObject({ id: taskId, agent: 'echo' });
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('setup errors exit 2 with one line', () => {
  async function failing(argv: string[], io: A2AIO = {}) {
    const stderr: string[] = [];
    const exit = await a2aCommand(['serve', ...argv], {
      stderr: (line) => stderr.push(line),
      stdout: () => undefined,
      env: {},
      cwd: __dirname,
      load: (file) => import(file) as Promise<unknown>,
      until: Promise.resolve(),
      ...io,
    });
    return [exit, stderr];
  }

  test('a module with several agents, none named', async () => {
    expect(await failing([fixture])).toEqual([
      2,
      [
        `golem a2a: ${fixture} exports several agents (WeatherAgent, echo): name the one to serve, e.g. golem a2a serve ${fixture} WeatherAgent`,
      ],
    ]);
  });

  test('a missing file, a missing export, an export that is no agent', async () => {
    expect(await failing(['nope.ts'])).toEqual([
      2,
      [
        `golem a2a: no such file: ${join(__dirname, 'nope.ts')}; give the path of the module that exports the agent`,
      ],
    ]);
    const [exit, stderr] = await failing([fixture, 'Nobody']);
    expect(exit).toBe(2);
    expect(stderr).toEqual([
      `golem a2a: ${fixture} exports no "Nobody"; its @Agent classes: WeatherAgent`,
    ]);
    expect(await failing([fixture, 'CityArgs'])).toEqual([
      2,
      [
        'golem a2a: CityArgs is not an @Agent class or an Agent; export one of those under the name you serve',
      ],
    ]);
  });

  test('--token-env naming an unset variable', async () => {
    expect(await failing([fixture, 'echo', '--token-env', 'A2A_TOKEN'])).toEqual([
      2,
      [
        'golem a2a: --token-env A2A_TOKEN: the environment variable A2A_TOKEN is not set; set it to the token callers must send',
      ],
    ]);
  });

  test('--store without better-sqlite3 names the install', async () => {
    const missing = missingPeerError('golem/stores/sqlite', ['better-sqlite3']);
    expect(
      await failing([fixture, 'echo', '--store', 'x.db'], {
        openStore: () => {
          throw missing;
        },
      }),
    ).toEqual([
      2,
      [
        'golem a2a: --store needs better-sqlite3, an optional peer dependency of golem that is not installed: npm install better-sqlite3',
      ],
    ]);
  });
});

test.each([
  [['serve'], 'no module given'],
  [['serve', 'x.ts', 'X', '--port', '99999'], '--port must be 0–65535, got 99999'],
  [['serve', 'x.ts', '--path', 'a2a'], '--path must be a route such as /a2a, got a2a'],
  [['serve', 'x.ts', '--url', 'ftp://x'], '--url must be an absolute http(s) URL, got ftp://x'],
  [
    ['serve', 'x.ts', '--token-env', 'A-B'],
    '--token-env takes the name of an environment variable, got A-B',
  ],
  [
    ['serve', 'x.ts', 'X', 'Y'],
    'unexpected argument "Y": serve takes one module and at most one export name',
  ],
  [['serve', 'x.ts', '--bogus'], 'unknown option --bogus'],
  [['start'], 'unknown subcommand "start" (only "serve"): golem a2a serve <module> [ExportName]'],
])('usage error %j', (argv, message) => {
  let thrown: unknown;
  try {
    parseA2AArgs(argv);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  expect((thrown as Error).message).toBe(message);
});

test('defaults', () => {
  expect(parseA2AArgs(['serve', 'm.ts'])).toEqual({
    module: 'm.ts',
    exportName: undefined,
    port: 3000,
    host: '127.0.0.1',
    path: '/a2a',
    url: undefined,
    store: undefined,
    tokenEnv: undefined,
    model: undefined,
    help: false,
  });
});

test('golem a2a --help lists the options; golem --help lists the command', () => {
  const help = golem(bin, REPO, ['a2a', '--help']);
  expect(help.status).toBe(0);
  for (const option of ['--port', '--host', '--path', '--url', '--store', '--token-env', '--model'])
    expect(help.stdout).toContain(option);
  const usage = golem(bin, REPO, ['--help']);
  expect(usage.stdout).toContain(
    'a2a serve: serve an @Agent class or an Agent over the Agent2Agent protocol (A2A 1.0)',
  );
}, 60_000);
