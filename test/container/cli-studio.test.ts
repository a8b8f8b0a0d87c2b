/**
 * `golem studio`: the bin spawned with a module (an @Agent class and an Agent with a SQLite
 * store) on a free port — the printed URL, the token on /api/info and /api/runs, SIGTERM → exit
 * 0 — the command in-process (read-only over --store, models, owner, token), setup errors and
 * usage errors.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, StoreError } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse } from 'golem/testing';
import {
  studioCommand,
  type StudioIO,
  type StudioQueueOpener,
  type StudioQueueSpec,
} from '../../container/cli/studio';
import { parseStudioArgs, STUDIO_PORT, STUDIO_USAGE } from '../../container/cli/studio-args';
import { UsageError } from '../../decorators/cli/args';
import { missingPeerError } from '../../src/core/kit/missing-peer';
import type { RunPage, StudioInfo } from '../../src/studio/api-types';
import { REPO } from '../support/consumer-project';

const fixture = join(__dirname, 'fixtures', 'studio-agents.ts');
const bin = join(REPO, 'bin', 'golem.js');
const URL_LINE = /^Golem Studio at (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)$/;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-studio-cli-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes one completed run of an agent named `helper` to the SQLite file `db`. */
async function writeRun(db: string, owner?: string): Promise<string> {
  const store = sqliteStore({ path: db });
  try {
    const agent = new Agent({
      name: 'helper',
      model: new ScriptedModel([textResponse('done')]),
      store,
    });
    const result = await agent.run('hi', owner === undefined ? {} : { owner });
    return result.runId as string;
  } finally {
    await store.close();
  }
}

function get(url: string, token?: string) {
  return fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
}

test('the bin serves the module’s agents over their store until SIGTERM, then exits 0', async () => {
  const db = join(dir, 'runs.db');
  const env: NodeJS.ProcessEnv = { GOLEM_STUDIO_TEST_DB: db };
  // NODE_OPTIONS and GOLEM_NATIVE_DIR carry CI's better-sqlite3 for this Node's ABI (other-nodes.sh).
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'NODE_OPTIONS', 'GOLEM_NATIVE_DIR'])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  const child = spawn(process.execPath, [bin, 'studio', fixture, '--port', '0'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const reader = createInterface({ input: child.stdout });
      reader.on('line', (text) => lines.push(text));
      reader.once('line', resolve);
      void exited.then((code) => {
        reject(new Error(`exited ${String(code)}: ${stderr}`));
      });
    });
    const match = URL_LINE.exec(line);
    expect(match).not.toBeNull();
    const [, base, token] = match as unknown as [string, string, string];
    expect(token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url

    expect((await get(`${base}/api/info`)).status).toBe(401);
    expect((await get(`${base}/api/info`, 'not-the-token-at-all')).status).toBe(401);
    const info = (await (await get(`${base}/api/info`, token)).json()) as StudioInfo;
    expect(info.agents.map((a) => a.name).sort()).toEqual(['Greeter', 'helper']);
    expect(info.features.playground).toBe(true);

    const runId = await writeRun(db); // the studio reads the store it was given, live
    const page = (await (await get(`${base}/api/runs`, token)).json()) as RunPage;
    expect(page.runs.map((r) => [r.id, r.agent, r.status])).toEqual([
      [runId, 'helper', 'completed'],
    ]);
    expect((await get(`${base}/api/runs`)).status).toBe(401);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(lines).toHaveLength(1);
  expect(stderr).toBe('');
}, 60_000);

/** Runs the command in-process until `use` is done; returns the exit code and the output. */
async function serving(
  argv: string[],
  use: (base: string, token: string) => Promise<void>,
  io: StudioIO = {},
) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop: () => void = () => undefined;
  let listening: (url: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (listening = resolve));
  const exit = studioCommand([...argv, '--port', '0'], {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    env: {},
    cwd: dir,
    until: new Promise<void>((resolve) => (stop = resolve)),
    onListening: (url) => {
      listening(url);
    },
    ...io,
  });
  const settled = await Promise.race([ready, exit]);
  if (typeof settled === 'number')
    throw new Error(`exited ${String(settled)}: ${stderr.join('\n')}`);
  const [, base, token] = URL_LINE.exec(stdout[0] ?? '') as unknown as [string, string, string];
  expect(settled).toBe(`${base}/?token=${token}`);
  try {
    await use(base, token);
  } finally {
    stop();
  }
  return { exit: await exit, stdout, stderr };
}

test('without a module: read-only over --store, scoped by --owner, with --token and --model', async () => {
  const mine = await writeRun(join(dir, 'runs.db'), 'alice');
  await writeRun(join(dir, 'runs.db'), 'bob');
  mkdirSync(join(dir, 'reports'));
  const token = 'a-token-of-twenty-chars';
  const { exit, stdout, stderr } = await serving(
    [
      '--store',
      'runs.db',
      '--owner',
      'alice',
      '--token',
      token,
      '--model',
      'fast=test:fast',
      '--reports',
      'reports',
    ],
    async (base, printed) => {
      expect(printed).toBe(token);
      const info = (await (await get(`${base}/api/info`, token)).json()) as StudioInfo;
      expect(info).toMatchObject({
        agents: [],
        models: ['fast'],
        owner: 'alice',
        features: { playground: false, evals: true, traces: true },
      });
      const page = (await (await get(`${base}/api/runs`, token)).json()) as RunPage;
      expect(page.runs.map((r) => r.id)).toEqual([mine]);
      const resumed = await fetch(`${base}/api/runs/${mine}/resume`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(resumed.status).toBe(404);
      expect(await resumed.json()).toEqual({
        error: 'agent "helper" is not registered with the studio',
      });
    },
  );
  expect(exit).toBe(0);
  expect(stdout).toHaveLength(1);
  expect(stderr).toEqual([]);
});

test('the store the command opened is closed when serving ends', async () => {
  const closed: string[] = [];
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const { exit } = await serving(['--store', 'x.db'], () => Promise.resolve(), {
    openStore: (spec) => {
      closed.push(`opened ${spec}`);
      return Object.assign(Object.create(store) as typeof store, {
        close: async () => {
          closed.push('closed');
          await store.close();
        },
      });
    },
  });
  expect(exit).toBe(0);
  expect(closed).toEqual([`opened ${join(dir, 'x.db')}`, 'closed']);
});

describe('--redis: the studio acts through a run queue', () => {
  const url = 'redis://:s3cr%21t@cache.internal:6379/0';

  /** A fake run queue (structural): what it was opened with, and whether it was closed. */
  function fakeQueue(events: string[]) {
    let spec: StudioQueueSpec | undefined;
    const openQueue: StudioQueueOpener = (given) => {
      spec = given;
      events.push('opened');
      return {
        status: () => Promise.reject(new Error('unused')),
        decide: () => Promise.resolve({}),
        recover: () => Promise.resolve({}),
        cancel: () => Promise.resolve('withdrawn'),
        close: () => {
          events.push('closed');
          return Promise.resolve();
        },
      };
    };
    return { openQueue, spec: () => spec };
  }

  test('opens the queue with the URL, the store and the prefix; closes it at exit; never prints the URL', async () => {
    await writeRun(join(dir, 'runs.db'));
    const events: string[] = [];
    const fake = fakeQueue(events);
    const { exit, stdout, stderr } = await serving(
      ['--store', 'runs.db', '--redis', url, '--queue-prefix', 'jobs'],
      async (base, token) => {
        const info = (await (await get(`${base}/api/info`, token)).json()) as StudioInfo;
        expect(info.features.queue).toBe(true);
        const spec = fake.spec() as StudioQueueSpec;
        expect(spec).toMatchObject({ connection: url, prefix: 'jobs' });
        expect(typeof spec.store.listRuns).toBe('function');
        spec.onError(new Error(`connect ECONNREFUSED ${url} (password s3cr!t)`));
        expect(events).toEqual(['opened']);
      },
      { openQueue: fake.openQueue },
    );
    expect(exit).toBe(0);
    expect(events).toEqual(['opened', 'closed']);
    expect(stderr).toEqual([
      'golem studio: the run queue (redis://…): connect ECONNREFUSED redis://… (password …)',
    ]);
    const printed = [...stdout, ...stderr].join('\n');
    expect(printed).not.toContain('s3cr');
    expect(printed).not.toContain('cache.internal');
  });

  test('missing bullmq / ioredis: exit 2 naming the npm install; the store is closed', async () => {
    const closed: string[] = [];
    const store = sqliteStore({ path: join(dir, 'runs.db') });
    const stderr: string[] = [];
    const exit = await studioCommand(['--store', 'x.db', '--redis', url], {
      stderr: (line) => stderr.push(line),
      stdout: () => undefined,
      env: {},
      cwd: dir,
      until: Promise.resolve(),
      openStore: () =>
        Object.assign(Object.create(store) as typeof store, {
          close: async () => {
            closed.push('store');
            await store.close();
          },
        }),
      openQueue: () => {
        throw missingPeerError('golem/queue', ['bullmq', 'ioredis']);
      },
    });
    expect(exit).toBe(2);
    expect(stderr).toEqual([
      'golem studio: --redis needs bullmq and ioredis, optional peer dependencies of golem that are not installed: npm install bullmq ioredis',
    ]);
    expect(closed).toEqual(['store']);
  });

  test('a queue that cannot be opened: exit 2, the URL and its password not printed', async () => {
    await writeRun(join(dir, 'runs.db'));
    const stderr: string[] = [];
    const exit = await studioCommand(['--store', 'runs.db', '--redis', url], {
      stderr: (line) => stderr.push(line),
      stdout: () => undefined,
      env: {},
      cwd: dir,
      until: Promise.resolve(),
      openQueue: () => {
        throw new Error(`bad connection ${url} with s3cr%21t`);
      },
    });
    expect(exit).toBe(2);
    expect(stderr).toEqual(['golem studio: --redis redis://…: bad connection redis://… with …']);
  });
});

describe('setup errors exit 2 with one line', () => {
  async function failing(argv: string[], io: StudioIO = {}) {
    const stderr: string[] = [];
    const exit = await studioCommand(argv, {
      stderr: (line) => stderr.push(line),
      stdout: () => undefined,
      env: {},
      cwd: dir,
      until: Promise.resolve(),
      ...io,
    });
    return [exit, stderr];
  }

  test('no store: no module, and no --store', async () => {
    expect(await failing([])).toEqual([
      2,
      ['golem studio: no run store: pass --store <file.db> or postgres://…'],
    ]);
  });

  test('a missing driver names its npm install (SQLite and PostgreSQL)', async () => {
    const driver = new StoreError('sqliteStore: the package better-sqlite3 is not installed', {
      reason: 'driver-missing',
    });
    expect(
      await failing(['--store', 'x.db'], {
        openStore: () => {
          throw driver;
        },
      }),
    ).toEqual([
      2,
      [
        'golem studio: --store needs better-sqlite3, an optional peer dependency of golem that is not installed: npm install better-sqlite3',
      ],
    ]);
    const peer = missingPeerError('golem/stores/postgres', ['pg']);
    let opened = '';
    expect(
      await failing(['--store', 'postgres://u:secret@db/golem'], {
        openStore: (spec) => {
          opened = spec;
          throw peer;
        },
      }),
    ).toEqual([
      2,
      [
        'golem studio: --store needs pg, an optional peer dependency of golem that is not installed: npm install pg',
      ],
    ]);
    expect(opened).toBe('postgres://u:secret@db/golem');
  });

  test('a missing module, a missing reports folder, a model spec that does not resolve', async () => {
    expect(await failing(['nope.ts', '--store', 'x.db'])).toEqual([
      2,
      [
        `golem studio: no such file: ${join(dir, 'nope.ts')}; give the path of the module that exports the agents`,
      ],
    ]);
    expect(await failing(['--reports', 'none', '--store', 'x.db'])).toEqual([
      2,
      [`golem studio: --reports ${join(dir, 'none')}: no such folder`],
    ]);
    const [exit, stderr] = await failing(['--model', 'x=nosuchprovider:m', '--store', 'x.db']);
    expect(exit).toBe(2);
    expect((stderr as string[])[0]).toMatch(/^golem studio: --model: .*nosuchprovider/);
  });
});

test('--help prints the usage and exits 0; a usage error prints it and exits 2', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (l: string) => out.push(l), stderr: (l: string) => err.push(l) };
  expect(await studioCommand(['--help'], io)).toBe(0);
  expect(out).toEqual([STUDIO_USAGE]);
  expect(await studioCommand(['--port', 'x'], io)).toBe(2);
  expect(err).toEqual(['golem studio: --port must be 0–65535, got x', STUDIO_USAGE]);
});

test('defaults and options parse', () => {
  expect(parseStudioArgs([])).toEqual({
    module: undefined,
    store: undefined,
    port: STUDIO_PORT,
    host: '127.0.0.1',
    reports: undefined,
    models: [],
    owner: undefined,
    token: undefined,
    app: undefined,
    redis: undefined,
    queuePrefix: undefined,
    help: false,
  });
  expect(STUDIO_PORT).toBe(4983);
  expect(
    parseStudioArgs([
      'agents.ts',
      '--store=runs.db',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--model',
      'a=test',
      '--model',
      'b=openai:gpt-4o',
      '--owner',
      'u1',
      '--app',
      'dist/app',
      '--redis',
      'rediss://:pw@cache:6380/2',
      '--queue-prefix',
      'jobs',
    ]),
  ).toMatchObject({
    module: 'agents.ts',
    store: 'runs.db',
    port: 0,
    host: '0.0.0.0',
    models: [
      { name: 'a', spec: 'test' },
      { name: 'b', spec: 'openai:gpt-4o' },
    ],
    owner: 'u1',
    app: 'dist/app',
    redis: 'rediss://:pw@cache:6380/2',
    queuePrefix: 'jobs',
  });
});

test.each([
  [['--port', '70000'], '--port must be 0–65535, got 70000'],
  [['--model', 'fast'], '--model takes name=spec (e.g. fast=openai:gpt-4o-mini), got fast'],
  [['--model', 'a=test', '--model', 'a=test:b'], '--model a is given twice'],
  [['--token', 'short'], '--token must be at least 16 characters, without spaces'],
  [['--store', 'a.db', '--store', 'b.db'], '--store is given twice'],
  [['a.ts', 'b.ts'], 'unexpected argument "b.ts": golem studio takes at most one module'],
  [['--store'], '--store needs a value'],
  [['--bogus'], 'unknown option --bogus'],
  [['--redis', 'http://u:secret@cache'], '--redis takes a redis:// or rediss:// URL'],
  [['--redis', 'redis://a', '--redis', 'redis://b'], '--redis is given twice'],
  [['--queue-prefix', 'jobs'], '--queue-prefix needs --redis'],
])('usage error %j', (argv, message) => {
  let thrown: unknown;
  try {
    parseStudioArgs(argv);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  expect((thrown as Error).message).toBe(message);
});
