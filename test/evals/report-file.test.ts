import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from 'golem';
import { compareReports } from '../../src/evals/compare';
import { EvalError } from '../../src/evals/eval-error';
import { readReport, writeReport } from '../../src/evals/report-file';
import { report, simpleCase, weatherReport } from './report-fixtures';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-report-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function readError(path: string): Promise<EvalError> {
  try {
    await readReport(path);
  } catch (error) {
    if (EvalError.isKind(error, 'report')) return error;
    throw error;
  }
  throw new Error('readReport did not throw');
}

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('writeReport and readReport', () => {
  test('a report round-trips through its JSON file', async () => {
    const original = weatherReport();
    const path = join(dir, 'nested', 'deeper', 'report.json');
    await writeReport(original, { json: path });
    expect(await readReport(path)).toEqual(original);
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true);
  });

  test('writes the HTML page, with the comparison when given, and leaves no temporary file', async () => {
    const baseline = report([simpleCase('a', true)], { name: 'v1' });
    const candidate = report([simpleCase('a', false)], { name: 'v2' });
    const html = join(dir, 'report.html');
    await writeReport(candidate, {
      json: join(dir, 'report.json'),
      html,
      comparison: compareReports(baseline, candidate),
      title: 'Nightly',
    });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<title>Nightly</title>');
    expect(page).toContain('<h2>Compared with v1</h2>');
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'report.json']);
  });

  test('without a path to write is a ConfigError', async () => {
    await expect(writeReport(weatherReport(), {})).rejects.toThrow(ConfigError);
  });
});

describe('readReport errors', () => {
  test('a missing file names the path and how to write one', async () => {
    const path = join(dir, 'absent.json');
    const error = await readError(path);
    expect(error.file).toBe(path);
    expect(error.message).toBe(
      `No report at ${path}: write one with writeReport(report, { json: path }) or \`golem eval --json\`.`,
    );
  });

  test('truncated JSON', async () => {
    const path = join(dir, 'cut.json');
    await writeReport(weatherReport(), { json: path });
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 200));
    const error = await readError(path);
    expect(error.message).toMatch(
      new RegExp(`^The report ${path} is not JSON \\(.+\\): it may be truncated`),
    );
    expect(error.file).toBe(path);
  });

  test('JSON that is not a report: another shape, a comparison, another version', async () => {
    expect((await readError(writeJson('a.json', [1, 2]))).message).toContain(
      'is not a golem eval report: the top level must be an object.',
    );
    expect((await readError(writeJson('b.json', { name: 'x' }))).message).toContain(
      'golemEvalReport: 1 is missing',
    );
    const r = report([simpleCase('a', true)]);
    expect((await readError(writeJson('c.json', compareReports(r, r)))).message).toContain(
      'it is a comparison (golemEvalComparison), not a report',
    );
    expect((await readError(writeJson('d.json', { ...r, golemEvalReport: 2 }))).message).toContain(
      'golemEvalReport is 2; this version reads 1',
    );
  });

  test('a field of the wrong type is named by its path', async () => {
    const r = weatherReport();
    const broken = JSON.parse(JSON.stringify(r)) as {
      cases: { runs: Record<string, unknown>[] }[];
    };
    const firstRun = broken.cases[1]?.runs[0];
    if (firstRun === undefined) throw new Error('fixture changed');
    firstRun.pass = 'yes';
    expect((await readError(writeJson('e.json', broken))).message).toContain(
      'report.cases[1].runs[0].pass must be a boolean (it is the string "yes")',
    );
  });

  test('missing summary fields and bad verdicts are caught', async () => {
    const r = weatherReport();
    const { latency: _latency, ...summary } = r.summary;
    expect((await readError(writeJson('f.json', { ...r, summary }))).message).toContain(
      'report.summary.latency must be an object (it is missing)',
    );
    const badScore = JSON.parse(JSON.stringify(r)) as {
      cases: { runs: { scores: Record<string, unknown>[] }[] }[];
    };
    const score = badScore.cases[0]?.runs[0]?.scores[0];
    if (score === undefined) throw new Error('fixture changed');
    score.score = null;
    expect((await readError(writeJson('g.json', badScore))).message).toContain(
      'report.cases[0].runs[0].scores[0].score must be a number (it is null)',
    );
  });
});
