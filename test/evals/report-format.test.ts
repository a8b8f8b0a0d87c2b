import { formatComparison } from '../../src/evals/comparison-format';
import { compareReports } from '../../src/evals/compare';
import { formatReport } from '../../src/evals/report-format';
import { caseOf, report, run, simpleCase, verdict, weatherReport } from './report-fixtures';

// eslint-disable-next-line no-control-regex -- looking for ANSI escapes
const ANSI = /\u001b\[/;

describe('formatReport', () => {
  test('the header names the experiment and dataset and gives runs, pass rate, score, cost, latency, replayed', () => {
    const text = formatReport(weatherReport());
    const header = text.split('\n').slice(0, 4).join('\n');
    expect(header).toContain('Experiment weather-agent');
    expect(header).toContain('dataset weather');
    expect(header).toContain('Runs 5 (4 cases × 2)');
    expect(header).toContain('passed 2  failed 3  errored 1');
    expect(header).toContain('pass rate 40%');
    expect(header).toContain('cost 0.003 ');
    expect(header).toMatch(/Latency p50 \d+ms {2}p90 .* {2}p99 /);
    expect(header).toContain('replayed 1/5');
    expect(header).toContain('judges 600 in / 80 out, cost 0.0008');
  });

  test('a table row per case gives pass rate, score, evaluators passed, tokens, cost and latency', () => {
    const text = formatReport(weatherReport(), { width: 160 });
    const lagos = text.split('\n').find((line) => line.trimStart().startsWith('lagos'));
    expect(lagos).toBeDefined();
    expect(lagos).toMatch(/lagos\s+✓\s+100%\s+1\.00\s+2\/2 ✓\s+1,280\s+0\.0021\s+850ms/);
    const paris = text.split('\n').find((line) => line.trimStart().startsWith('paris'));
    expect(paris).toMatch(/paris\s+✗\s+0%\s+0\.00\s+0\/2 ✗ contains, calledTool\(get_weather\)/);
    const tokyo = text.split('\n').find((line) => line.trimStart().startsWith('tokyo'));
    expect(tokyo).toContain('(1 errored)');
  });

  test('an evaluator table gives each evaluator its runs, pass rate, score and errors', () => {
    const withError = report([
      caseOf('a', [run({ scores: [verdict('judge', false, { error: 'judge timed out' })] })]),
      simpleCase('b', true),
    ]);
    const text = formatReport(withError);
    const section = text.slice(text.indexOf('Evaluators'));
    expect(section).toMatch(/judge\s+1\s+0%\s+0\.00\s+1/);
    expect(section).toMatch(/contains\s+1\s+100%\s+1\.00\s+0/);
  });

  test('failures are listed with the evaluator and its reason, and task errors with their stage', () => {
    const text = formatReport(weatherReport());
    const failures = text.slice(text.indexOf('Failures'));
    expect(failures).toContain('Failures (4)');
    expect(failures).toContain('paris · contains\n      expected "Paris" not found in the output');
    expect(failures).toContain('tokyo · error\n      RunError [model]: HTTP 500 from the provider');
    expect(failures).toContain('(run 2) · judge\n      rude');
  });

  test('a report where everything passed has no failures section', () => {
    expect(formatReport(report([simpleCase('a', true)]))).not.toContain('Failures');
  });

  test('plain text by default, ANSI colours only when asked', () => {
    expect(formatReport(weatherReport())).not.toMatch(ANSI);
    const coloured = formatReport(weatherReport(), { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain('\u001b[31m✗\u001b[39m');
  });

  test('control characters from model text cannot reach the terminal', () => {
    const sneaky = report([
      caseOf('evil\u001b[2Jname', [
        run({
          scores: [
            verdict('contains', false, { reason: 'line one\nline two\u001b]0;title\u0007' }),
          ],
        }),
      ]),
    ]);
    const text = formatReport(sneaky);
    expect(text).not.toMatch(ANSI);
    expect(text).not.toContain('\u0007');
    expect(text).toContain('evil [2Jname');
    expect(text).toContain('line one line two ]0;title');
  });

  test('long case names are shortened to fit the width', () => {
    const long = 'a'.repeat(200);
    const text = formatReport(report([simpleCase(long, true)]), { width: 80 });
    const row = text.split('\n').find((line) => line.includes('aaaa'));
    expect(row).toContain('…');
    expect(row?.length).toBeLessThanOrEqual(80);
  });

  test('a long list of failing evaluators is shortened before the case names', () => {
    const text = formatReport(weatherReport(), { width: 100 });
    const paris = text.split('\n').find((line) => line.trimStart().startsWith('paris'));
    expect(paris).toMatch(/^ {2}paris\s/);
    expect(paris).toContain('0/2 ✗ contains, calledTool(…');
    expect(paris?.length).toBeLessThanOrEqual(100);
  });

  test('timing: false leaves out when the experiment started and how long it took', () => {
    const header = formatReport(weatherReport(), { timing: false }).split('\n')[0];
    expect(header).toBe('Experiment weather-agent  dataset weather');
    expect(formatReport(weatherReport()).split('\n')[0]).toContain('took 1.23s');
  });
});

describe('formatComparison', () => {
  test('gives the deltas and counts and flags regressions first', () => {
    const baseline = report(
      [simpleCase('a', true), simpleCase('b', false), simpleCase('gone', true)],
      {
        name: 'v1',
      },
    );
    const candidate = report(
      [simpleCase('a', false), simpleCase('b', true), simpleCase('new', true)],
      {
        name: 'v2',
      },
    );
    const text = formatComparison(compareReports(baseline, candidate));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Comparison v1 → v2');
    expect(lines[1]).toContain('Pass rate ±0 pts');
    expect(lines[2]).toBe('Regressions 1  improvements 1  added 1  removed 1  unchanged 0');
    const rows = lines.slice(5);
    expect(rows[0]).toMatch(/^ {2}a\s+✗ REGRESSED\s+100% → 0%\s+1\.00 → 0\.00\s+contains 100%→0%$/);
    expect(rows[1]).toMatch(/^ {2}b\s+✓ improved/);
    expect(rows[2]).toMatch(/^ {2}new\s+\+ added\s+- → 100%/);
    expect(rows[3]).toMatch(/^ {2}gone\s+- removed\s+100% → -/);
  });

  test('shows a judge column only when a judge gave verdicts', () => {
    const base = report([simpleCase('a', true)]);
    const cmp = compareReports(base, base);
    expect(formatComparison(cmp)).not.toContain('judge');
    const judged = {
      ...cmp,
      cases: cmp.cases.map((c) => ({
        ...c,
        preferred: 'candidate' as const,
        reason: 'more precise',
      })),
    };
    expect(formatComparison(judged)).toContain('candidate: more precise');
  });
});
