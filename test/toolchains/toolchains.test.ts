/**
 * Real toolchains, run as child processes on the fixture project in ./fixture: tsx and an
 * esbuild bundle (which drop decorator metadata), and Vitest without metadata, with unplugin-swc
 * and on Vite 8 as it comes (both keep it). Without metadata, an agent declared explicitly
 * (`@Tool({ args })`, validators that state each property's type, `@inject` on every constructor
 * parameter) behaves exactly as under Jest, which keeps metadata, and each missing declaration
 * fails with a golem error naming the fix. Each child process is bounded by {@link LIMIT_MS}.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runReflected } from './fixture/reflected-agent';
import {
  incompleteFailures,
  runExplicit,
  type ExplicitReport,
  type Failure,
} from './fixture/scenarios';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'fixture');
/** An upper bound per child process, not an expectation (each takes a few seconds). */
const LIMIT_MS = 60_000;

interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `file` with `args` from the repository root, without colours. */
function run(file: string, args: readonly string[]): Promise<Output> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: ROOT,
        timeout: LIMIT_MS,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Reports {
  readonly explicit: ExplicitReport;
  readonly incomplete: readonly Failure[];
}

function reportsOf(output: Output): Reports {
  if (output.code !== 0) throw new Error(`exit ${output.code}: ${output.stderr}`);
  return JSON.parse(output.stdout) as Reports;
}

/** The same scenarios under Jest, whose transform keeps decorator metadata. */
let baseline: ExplicitReport;
let temp: string | undefined;
/** The child processes, started together in `beforeAll` (each test awaits its own). */
let started: Started | undefined;

interface Started {
  readonly tsx: Promise<Output>;
  readonly esbuild: Promise<{ built: Output; ran: Output }>;
  readonly vitest: Readonly<Record<VitestConfig, Promise<VitestRun>>>;
}

function children(): Started {
  if (started === undefined) throw new Error('beforeAll did not start the toolchains');
  return started;
}

type VitestConfig = 'vitest.no-metadata.config.mts' | 'vitest.swc.config.mts' | 'vitest.config.mts';

interface VitestRun {
  readonly output: Output;
  /** The JSON report's test results, by full name. */
  readonly results: Record<string, string> | undefined;
}

beforeAll(async () => {
  baseline = await runExplicit();
  const folder = mkdtempSync(join(tmpdir(), 'golem-toolchains-'));
  temp = folder;
  const vitestRun = (config: VitestConfig): Promise<VitestRun> => vitest(folder, config);
  started = {
    tsx: run(process.execPath, [require.resolve('tsx/cli'), join(FIXTURE, 'print-reports.ts')]),
    esbuild: bundleAndRun(folder),
    vitest: {
      'vitest.no-metadata.config.mts': vitestRun('vitest.no-metadata.config.mts'),
      'vitest.swc.config.mts': vitestRun('vitest.swc.config.mts'),
      'vitest.config.mts': vitestRun('vitest.config.mts'),
    },
  };
});

afterAll(async () => {
  // Every child process has ended (or was killed at LIMIT_MS) before the folder goes.
  if (started !== undefined) {
    await Promise.all([started.tsx, started.esbuild, ...Object.values(started.vitest)]);
  }
  if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
}, 2 * LIMIT_MS);

/** Bundles the fixture entry with esbuild (as an app would ship it) and runs the bundle. */
async function bundleAndRun(folder: string): Promise<{ built: Output; ran: Output }> {
  const bundle = join(folder, 'bundle.js');
  const built = await run(require.resolve('esbuild/bin/esbuild'), [
    join(FIXTURE, 'print-reports.ts'),
    '--bundle',
    '--platform=node',
    '--format=cjs',
    '--target=node20',
    '--keep-names',
    '--log-level=error',
    `--outfile=${bundle}`,
  ]);
  if (built.code !== 0) return { built, ran: { code: -1, stdout: '', stderr: 'not built' } };
  return { built, ran: await run(process.execPath, [bundle]) };
}

/** Runs Vitest with a fixture config, writing its JSON report into `folder`. */
async function vitest(folder: string, config: VitestConfig): Promise<VitestRun> {
  const report = join(folder, `${config}.json`);
  const output = await run(process.execPath, [
    join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'),
    'run',
    '--no-cache',
    '--config',
    join(FIXTURE, config),
    '--reporter=json',
    `--outputFile=${report}`,
  ]);
  if (!existsSync(report)) return { output, results: undefined };
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as {
    testResults: { assertionResults: { fullName: string; status: string }[] }[];
  };
  const results = Object.fromEntries(
    parsed.testResults
      .flatMap((file) => file.assertionResults)
      .map((result) => [result.fullName, result.status]),
  );
  return { output, results };
}

/** Expects what every toolchain without metadata must print. */
function expectWithoutMetadata(reports: Reports): void {
  expect(reports.explicit).toEqual({ ...baseline, metadata: false });
  expect(reports.incomplete.map(({ agent, error, kind }) => [agent, error, kind])).toEqual([
    ['ArgsFromTypeAgent', 'decorators', 'missing-metadata'],
    ['InjectFromTypeAgent', 'container', 'missing-metadata'],
    ['UntypedPropertyAgent', 'decorators', 'missing-metadata'],
  ]);
  const [args, inject, untyped] = reports.incomplete.map((failure) => failure.message);
  expect(args).toMatch(/^ArgsFromTypeAgent\.forecast: cannot tell the argument type of this tool;/);
  expect(args).toContain('@Tool({ args: TheArgsClass })');
  expect(inject).toMatch(
    /^InjectFromTypeAgent: constructor parameter #0 \(weather\) cannot be injected;/,
  );
  expect(inject).toContain('decorate every constructor parameter with @inject(Token)');
  expect(inject).not.toContain('Found unexpected missing metadata');
  expect(untyped).toMatch(/^UntypedArgs\.city: the type of this property is unknown/);
  expect(untyped).toContain('@IsString()');
}

/** Expects a Vitest run to exit 0 with exactly `results`. */
async function expectVitest(config: VitestConfig, results: Record<string, string>): Promise<void> {
  const { output, results: actual } = await children().vitest[config];
  expect({
    code: output.code,
    results: actual,
    stderr: actual === undefined ? output.stderr : '',
  }).toEqual({ code: 0, results, stderr: '' });
}

describe('under Jest (metadata kept), the baseline', () => {
  test('the explicit agent runs, validates its arguments and returns typed output', () => {
    expect(baseline.metadata).toBe(true);
    expect(baseline.typed).toBe(true);
    expect(baseline.toolResults).toEqual([
      'Your tool call was rejected: city: expected a string, got an array. Correct the arguments and call the tool again.',
      'Lagos from 2026-12-01: 26°C (1 days ahead)',
    ]);
  });

  test('agents that leave types to metadata need nothing explicit', async () => {
    expect(incompleteFailures().map((failure) => failure.error)).toEqual(['none', 'none', 'none']);
    expect((await runReflected()).toolResults).toEqual(['Lagos: 25°C']);
  });
});

describe('toolchains without decorator metadata', () => {
  test(
    'tsx: explicit declarations behave as under Jest; missing ones name the fix',
    async () => {
      expectWithoutMetadata(reportsOf(await children().tsx));
    },
    LIMIT_MS,
  );

  test(
    'an esbuild bundle run by node: the same',
    async () => {
      const { built, ran } = await children().esbuild;
      expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: '' });
      expectWithoutMetadata(reportsOf(ran));
    },
    LIMIT_MS,
  );
});

describe('Vitest', () => {
  test(
    'without metadata: explicit declarations work and missing ones name the fix',
    async () => {
      await expectVitest('vitest.no-metadata.config.mts', {
        'without decorator metadata an agent declared explicitly resolves from the container and runs':
          'passed',
        'without decorator metadata each missing declaration fails with a golem error that names the fix':
          'passed',
      });
    },
    LIMIT_MS,
  );

  const withMetadata = {
    'with decorator metadata a decorated agent relying on metadata resolves from the container and runs':
      'passed',
    'with decorator metadata agents that leave types to metadata need nothing explicit': 'passed',
  };

  test(
    'with unplugin-swc (the testing guide setup): a decorated agent relying on metadata runs, and expect(report).toPass() works',
    async () => {
      await expectVitest('vitest.swc.config.mts', {
        ...withMetadata,
        'evalMatchers toPass passes a report at its thresholds': 'passed',
        'evalMatchers toPass fails below them, naming the threshold and the failing case': 'passed',
      });
    },
    LIMIT_MS,
  );

  test(
    'on Vite 8 as it comes, with "emitDecoratorMetadata" in tsconfig: the same',
    async () => {
      await expectVitest('vitest.config.mts', withMetadata);
    },
    LIMIT_MS,
  );
});
