/**
 * `golem eval`: the command function driven directly on experiment files written to a temp dir
 * (loading, finding experiments, CLI overrides, printing, files written, baseline comparison,
 * cassettes, thresholds and exit codes), its argument parser, and the `bin/golem.js` dispatch.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVAL_EXIT, evalCommand, type EvalIO } from '../../container/cli/eval';
import { parseEvalArgs, UsageError } from '../../container/cli/eval-args';

const REPO = join(__dirname, '..', '..');

let dir: string;
let files = 0;
let savedMode: string | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-eval-cli-'));
  savedMode = process.env.GOLEM_EVAL_CASSETTES;
  delete process.env.GOLEM_EVAL_CASSETTES;
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (savedMode === undefined) delete process.env.GOLEM_EVAL_CASSETTES;
  else process.env.GOLEM_EVAL_CASSETTES = savedMode;
});

/** Writes a CommonJS experiment file (a unique name: the module registry caches by path). */
function experimentFile(body: string, name = `experiment-${String(++files)}.js`): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `'use strict';
const { defineExperiment, defineDataset, equals } = require('golem/evals');
const { ScriptedModel, textResponse } = require('golem/testing');
const { Agent } = require('golem');
const cities = defineDataset({
  name: 'cities',
  cases: [
    { name: 'nigeria', input: 'nigeria', expected: 'NIGERIA' },
    { name: 'ghana', input: 'ghana', expected: 'GHANA' },
  ],
});
${body}
`,
  );
  return file;
}

async function run(argv: string[], io: EvalIO = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exit = await evalCommand(argv, {
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    cwd: dir,
    env: {},
    load: (file) => import(file) as Promise<unknown>,
    ...io,
  });
  return { exit, stdout, stderr, out: stdout.join('\n'), err: stderr.join('\n') };
}

const UPPER = `
exports.upper = defineExperiment({
  name: 'upper',
  dataset: cities,
  task: (input) => input.toUpperCase(),
  evaluators: [equals()],
  thresholds: { passRate: 1 },
});`;

/** Upper-cases every country but Ghana. */
const HALF = `
exports.half = defineExperiment({
  name: 'half',
  dataset: cities,
  task: (input) => (input === 'ghana' ? 'Accra' : input.toUpperCase()),
  evaluators: [equals()],
  thresholds: { passRate: 0.9 },
});`;

describe('golem eval: running experiments', () => {
  test('a passing experiment prints its report and exits 0', async () => {
    const { exit, out, stderr } = await run([experimentFile(UPPER)]);
    expect(stderr).toEqual([]);
    expect(exit).toBe(EVAL_EXIT.ok);
    expect(out).toContain('Experiment upper');
    expect(out).toContain('dataset cities');
    expect(out).toMatch(/nigeria/);
    expect(out).toMatch(/ghana/);
    expect(out.split('\n').at(-1)).toBe('upper: thresholds met');
  });

  test('an experiment below its thresholds exits 1 and prints each threshold missed', async () => {
    const { exit, out, stderr } = await run([experimentFile(HALF)]);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(out).toContain('Experiment half');
    expect(stderr).toEqual([
      'golem eval: half is below its thresholds:',
      '  - Pass rate 50% is below the threshold 90% (1 of 2 runs passed).',
    ]);
  });

  test('--pass-rate overrides the experiment threshold', async () => {
    const { exit, stderr } = await run([experimentFile(HALF), '--pass-rate', '0.5']);
    expect(stderr).toEqual([]);
    expect(exit).toBe(EVAL_EXIT.ok);
  });

  test('an experiment without thresholds must pass every run', async () => {
    const file = experimentFile(`
module.exports = defineExperiment({
  name: 'strict',
  dataset: cities,
  task: (input) => (input === 'ghana' ? 'x' : input.toUpperCase()),
  evaluators: [equals()],
});`);
    const { exit, err } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(err).toContain('Pass rate 50% is below the threshold 100%');
  });

  test('every exported experiment runs, each checked; the exit code is the worst', async () => {
    const file = experimentFile(`${UPPER}\n${HALF}\nexports.notAnExperiment = 42;`);
    const { exit, out, stderr } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(out).toContain('Experiment upper');
    expect(out).toContain('Experiment half');
    expect(out).toContain('upper: thresholds met');
    expect(stderr[0]).toBe('golem eval: half is below its thresholds:');
  });

  test('--export runs only the named experiment', async () => {
    const file = experimentFile(`${UPPER}\n${HALF}`);
    const { exit, out } = await run([file, '--export', 'upper']);
    expect(exit).toBe(EVAL_EXIT.ok);
    expect(out).toContain('Experiment upper');
    expect(out).not.toContain('Experiment half');
  });

  test('a default export (TypeScript) is found and run', async () => {
    const file = join(dir, 'experiment.ts');
    writeFileSync(
      file,
      `import { defineDataset, defineExperiment, equals } from 'golem/evals';
const dataset = defineDataset<string, string>({ name: 'words', cases: [{ name: 'a', input: 'a', expected: 'A' }] });
export default defineExperiment({
  name: 'typed',
  dataset,
  task: (input: string) => input.toUpperCase(),
  evaluators: [equals()],
});
`,
    );
    const { exit, out } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.ok);
    expect(out).toContain('Experiment typed');
  });

  test('--quiet prints one summary line per experiment', async () => {
    const { exit, stdout, stderr } = await run([experimentFile(HALF), '--quiet']);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(stdout).toEqual(['half: 1/2 runs passed (50%), mean score 0.50']);
    expect(stderr).toHaveLength(2);
  });

  test('--repeat and --concurrency override the experiment', async () => {
    let running = 0;
    let most = 0;
    const g = globalThis as { evalProbe?: (input: string) => Promise<string> };
    g.evalProbe = async (input) => {
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      await Promise.resolve();
      running--;
      return input.toUpperCase();
    };
    try {
      const file = experimentFile(`
exports.probe = defineExperiment({
  name: 'probe',
  dataset: cities,
  task: (input) => globalThis.evalProbe(input),
  evaluators: [equals()],
  concurrency: 4,
});`);
      const json = join(dir, 'out', 'report.json');
      const { exit } = await run([file, '--repeat', '3', '--concurrency', '1', '--json', json]);
      expect(exit).toBe(EVAL_EXIT.ok);
      const report = JSON.parse(readFileSync(json, 'utf8')) as {
        repeat: number;
        summary: { runs: number };
      };
      expect(report.repeat).toBe(3);
      expect(report.summary.runs).toBe(6);
      expect(most).toBe(1);
    } finally {
      delete g.evalProbe;
    }
  });
});

describe('golem eval: report files and the baseline', () => {
  test('--json and --html write the report', async () => {
    const { exit, stdout } = await run([
      experimentFile(UPPER),
      '--json',
      'reports/upper.json',
      '--html',
      'reports/upper.html',
    ]);
    expect(exit).toBe(EVAL_EXIT.ok);
    const json = join(dir, 'reports', 'upper.json');
    const html = join(dir, 'reports', 'upper.html');
    expect(stdout).toContain(`wrote ${json}`);
    expect(stdout).toContain(`wrote ${html}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
    expect(report).toMatchObject({ golemEvalReport: 1, name: 'upper', dataset: 'cities' });
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/<html/i);
    expect(page).toContain('upper');
  });

  test('with several experiments each report file is named after its experiment', async () => {
    const { exit } = await run([experimentFile(`${UPPER}\n${HALF}`), '--json', 'r.json']);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(existsSync(join(dir, 'r.upper.json'))).toBe(true);
    expect(existsSync(join(dir, 'r.half.json'))).toBe(true);
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  });

  test('--baseline prints the comparison and --max-regressions gates on it', async () => {
    const baseline = await run([experimentFile(UPPER), '--json', 'baseline.json']);
    expect(baseline.exit).toBe(EVAL_EXIT.ok);
    const candidate = experimentFile(`
exports.candidate = defineExperiment({
  name: 'candidate',
  dataset: cities,
  task: (input) => (input === 'ghana' ? 'Accra' : input.toUpperCase()),
  evaluators: [equals()],
  thresholds: { passRate: 0.5 },
});`);
    const compared = await run([candidate, '--baseline', 'baseline.json']);
    expect(compared.exit).toBe(EVAL_EXIT.ok);
    expect(compared.out).toMatch(/✗ REGRESSED/);
    const regressedLine = compared.stdout.find((line) => line.includes('REGRESSED'));
    expect(regressedLine).toContain('ghana');

    const gated = await run([candidate, '--baseline', 'baseline.json', '--max-regressions', '0']);
    expect(gated.exit).toBe(EVAL_EXIT.below);
    expect(gated.err).toContain(
      '1 cases regressed against upper, more than maxRegressions 0: ghana.',
    );

    const quiet = await run([candidate, '--baseline', 'baseline.json', '--quiet']);
    expect(quiet.stdout).toEqual([
      'candidate: 1/2 runs passed (50%), mean score 0.50',
      '  vs upper: 1 regressed, 0 improved',
    ]);
  });

  test('a baseline that is missing or not a report exits 2', async () => {
    const file = experimentFile(UPPER);
    const missing = await run([file, '--baseline', 'nope.json']);
    expect(missing.exit).toBe(EVAL_EXIT.usage);
    expect(missing.err).toMatch(
      /no baseline report at .*nope\.json; write one first with --json nope\.json/,
    );
    writeFileSync(join(dir, 'bad.json'), '{"hello": 1}');
    const bad = await run([file, '--baseline', 'bad.json']);
    expect(bad.exit).toBe(EVAL_EXIT.usage);
    expect(bad.err).toMatch(/bad\.json/);
    expect(bad.stdout).toEqual([]);
  });
});

describe('golem eval: cassettes', () => {
  /** An agent task answering from a script: once exhausted, only a cassette can answer. */
  const AGENT = (cassettes: string) => `
const model = new ScriptedModel([textResponse('NIGERIA'), textResponse('GHANA')], { name: 'scripted' });
exports.agent = defineExperiment({
  name: 'agent',
  dataset: cities,
  task: new Agent({ model }),
  evaluators: [equals()],
  concurrency: 1,
  ${cassettes}
});`;

  test('--replay with a missing cassette fails the case run and exits 1', async () => {
    const file = experimentFile(AGENT(`cassettes: ${JSON.stringify(join(dir, 'cassettes'))},`));
    const { exit, out } = await run([file, '--replay']);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(out).toMatch(/cassette-missing/);
    expect(out).toMatch(/nigeria/);
  });

  test('--record records every case, then --replay runs without the model', async () => {
    const file = experimentFile(AGENT(`cassettes: ${JSON.stringify(join(dir, 'cassettes'))},`));
    const recorded = await run([file, '--record', '--json', 'recorded.json']);
    expect(recorded.exit).toBe(EVAL_EXIT.ok);
    expect(existsSync(join(dir, 'cassettes', 'nigeria.json'))).toBe(true);
    // The module is cached: its scripted model has no answers left, so only replay can pass.
    const replayed = await run([file, '--replay', '--json', 'replayed.json']);
    expect(replayed.stderr).toEqual([]);
    expect(replayed.exit).toBe(EVAL_EXIT.ok);
    const report = JSON.parse(readFileSync(join(dir, 'replayed.json'), 'utf8')) as {
      summary: { replayed: number; passed: number };
    };
    expect(report.summary).toMatchObject({ replayed: 2, passed: 2 });
  });

  test('--replay against GOLEM_EVAL_CASSETTES=record exits 2 before running anything', async () => {
    const file = experimentFile(AGENT(`cassettes: ${JSON.stringify(join(dir, 'cassettes'))},`));
    process.env.GOLEM_EVAL_CASSETTES = 'record';
    const { exit, stdout, err } = await run([file, '--replay']);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(stdout).toEqual([]);
    expect(err).toBe(
      'golem eval: --replay conflicts with GOLEM_EVAL_CASSETTES=record, which would override it; unset the variable or drop the flag',
    );
    process.env.GOLEM_EVAL_CASSETTES = 'replay';
    const agreeing = await run([file, '--replay']);
    expect(agreeing.exit).toBe(EVAL_EXIT.below);
    expect(agreeing.out).toMatch(/cassette-missing/);
  });

  test('--replay on an experiment without cassettes exits 2 naming the option', async () => {
    const { exit, err } = await run([experimentFile(AGENT('')), '--replay']);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toBe(
      `golem eval: --replay: the experiment "agent" keeps no cassettes; give it cassettes: './cassettes' in defineExperiment`,
    );
    const several = await run([experimentFile(`${AGENT('')}\n${UPPER}`), '--record']);
    expect(several.exit).toBe(EVAL_EXIT.usage);
    expect(several.err).toMatch(
      /--record: the experiment "agent" keeps no cassettes; .* or pick the experiments that keep some with --export$/,
    );
  });
});

describe('golem eval: usage and setup errors exit 2', () => {
  test('a file exporting no experiment lists its exports', async () => {
    const file = experimentFile('exports.dataset = cities;\nexports.answer = 42;');
    const { exit, err } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toMatch(
      /exports no experiment; export the value of defineExperiment\(\{ name, dataset, task, … \}\) \(its exports: .*dataset, answer/,
    );
  });

  test('--export of a missing name lists the exported experiments', async () => {
    const file = experimentFile(`${UPPER}\n${HALF}`);
    const { exit, err } = await run([file, '--export', 'nope']);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toMatch(/exports no "nope"; its experiments: upper, half$/);
    const notOne = await run([experimentFile('exports.answer = 42;'), '--export', 'answer']);
    expect(notOne.err).toMatch(/the export "answer" is not an experiment/);
  });

  test('a file that throws while loading exits 2 with its error', async () => {
    const file = experimentFile("throw new Error('broken module');");
    const { exit, err } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toBe('golem eval: broken module');
  });

  test('a missing file exits 2', async () => {
    const { exit, err } = await run(['nope.ts']);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toMatch(/^golem eval: no such file: .*nope\.ts; give the path/);
  });

  test('an experiment whose options are invalid exits 2', async () => {
    const file = experimentFile(`
const { ConfigError } = require('golem');
exports.bad = {
  options: { name: 'bad' },
  run: () => Promise.reject(new ConfigError('concurrency must be at least 1', { component: 'evals' })),
};`);
    const { exit, err } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(err).toBe('golem eval: the experiment "bad" failed: concurrency must be at least 1');
  });

  test('an experiment that throws another error exits 1', async () => {
    const file = experimentFile(`
exports.odd = { options: { name: 'odd' }, run: () => Promise.reject(new Error('disk full')) };`);
    const { exit, err } = await run([file]);
    expect(exit).toBe(EVAL_EXIT.below);
    expect(err).toBe('golem eval: the experiment "odd" failed: disk full');
  });

  test.each<[string, string[], string]>([
    ['no file', [], 'no file given'],
    ['two files', ['a.ts', 'b.ts'], 'unexpected argument "b.ts"'],
    ['an unknown option', ['a.ts', '--nope'], 'unknown option --nope'],
    [
      '--record with --replay',
      ['a.ts', '--record', '--replay'],
      '--record and --replay exclude each other',
    ],
    [
      'a bad --pass-rate',
      ['a.ts', '--pass-rate', '90'],
      '--pass-rate must be a number from 0 to 1',
    ],
    [
      'a bad --repeat',
      ['a.ts', '--repeat', '0'],
      '--repeat must be a whole number of at least 1, got 0',
    ],
    [
      'a bad --concurrency',
      ['a.ts', '--concurrency', '1.5'],
      '--concurrency must be a whole number',
    ],
    [
      '--max-regressions without --baseline',
      ['a.ts', '--max-regressions', '1'],
      '--max-regressions needs --baseline',
    ],
    ['--json without a value', ['a.ts', '--json'], '--json needs a value'],
    ['--json twice', ['a.ts', '--json', 'a', '--json', 'b'], '--json is given twice'],
  ])('%s is a usage error with the usage text', async (_name, argv, message) => {
    const { exit, stderr } = await run(argv);
    expect(exit).toBe(EVAL_EXIT.usage);
    expect(stderr[0]).toContain(`golem eval: ${message}`);
    expect(stderr[1]).toMatch(/^usage: golem eval <file>/);
  });

  test('--help prints the usage and exits 0', async () => {
    const { exit, stdout } = await run(['--help']);
    expect(exit).toBe(EVAL_EXIT.ok);
    expect(stdout[0]).toMatch(/^usage: golem eval <file> \[--export <name>\]/);
  });
});

describe('parseEvalArgs', () => {
  test('reads every option, --flag value and --flag=value alike', () => {
    expect(
      parseEvalArgs([
        'evals/x.ts',
        '--export=candidate',
        '--json',
        'r.json',
        '--html=r.html',
        '--baseline',
        'b.json',
        '--replay',
        '--concurrency=2',
        '--repeat',
        '3',
        '--pass-rate',
        '0.75',
        '--max-regressions=0',
        '--quiet',
      ]),
    ).toEqual({
      file: 'evals/x.ts',
      exportName: 'candidate',
      json: 'r.json',
      html: 'r.html',
      baseline: 'b.json',
      cassettes: 'replay',
      concurrency: 2,
      repeat: 3,
      passRate: 0.75,
      maxRegressions: 0,
      quiet: true,
      help: false,
    });
  });

  test('--record given twice is fine; a value on a switch is refused', () => {
    expect(parseEvalArgs(['x.ts', '--record', '--record']).cassettes).toBe('record');
    expect(() => parseEvalArgs(['x.ts', '--quiet=yes'])).toThrow(UsageError);
  });
});

describe('bin/golem.js eval', () => {
  jest.setTimeout(60_000);

  test('runs an experiment file from the checkout and exits with its threshold verdict', () => {
    const file = experimentFile(`${UPPER}\n${HALF}`);
    const env = { ...process.env };
    delete env.GOLEM_EVAL_CASSETTES;
    const golem = (...args: string[]) =>
      spawnSync(process.execPath, [join(REPO, 'bin', 'golem.js'), 'eval', ...args], {
        cwd: dir,
        encoding: 'utf8',
        env,
      });
    const passing = golem(file, '--export', 'upper', '--quiet');
    expect(passing.stderr).toBe('');
    expect(passing.stdout).toBe('upper: 2/2 runs passed (100%), mean score 1.00\n');
    expect(passing.status).toBe(0);
    const failing = golem(file, '--export', 'half', '--quiet');
    expect(failing.status).toBe(1);
    expect(failing.stderr).toContain('golem eval: half is below its thresholds:');
    const usage = golem('--nope');
    expect(usage.status).toBe(2);
  });
});
