import { ConfigError } from 'golem';
import { compareReports, comparePairwise } from '../../src/evals/compare';
import type { PairwiseJudge } from '../../src/evals/evaluators/pairwise-judge';
import type { CaseComparison, Comparison } from '../../src/evals/report-types';
import { caseOf, report, run, simpleCase, verdict } from './report-fixtures';

function byName(cmp: Comparison, name: string): CaseComparison {
  const found = cmp.cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  return found;
}

/** A case with one run and one evaluator scoring `score` (passing at 0.5). */
function scored(name: string, score: number, output: string = name) {
  return caseOf(name, [run({ output, scores: [verdict('judge', score >= 0.5, { score })] })]);
}

describe('compareReports', () => {
  test('a lower pass rate is a regression, a higher one an improvement', () => {
    const cmp = compareReports(
      report([simpleCase('a', true), simpleCase('b', false)]),
      report([simpleCase('a', false), simpleCase('b', true)]),
    );
    expect(byName(cmp, 'a').change).toBe('regressed');
    expect(byName(cmp, 'b').change).toBe('improved');
    expect(cmp.regressions).toBe(1);
    expect(cmp.improvements).toBe(1);
  });

  test('at an equal pass rate the mean score decides', () => {
    const cmp = compareReports(
      report([scored('down', 0.9), scored('up', 0.6), scored('same', 0.7)]),
      report([scored('down', 0.8), scored('up', 0.7), scored('same', 0.7)]),
    );
    expect(byName(cmp, 'down').change).toBe('regressed');
    expect(byName(cmp, 'up').change).toBe('improved');
    expect(byName(cmp, 'same').change).toBe('unchanged');
  });

  test('a score move within the tolerance is unchanged; beyond it counts', () => {
    const baseline = report([scored('small', 0.9), scored('big', 0.9)]);
    const candidate = report([scored('small', 0.85), scored('big', 0.7)]);
    const cmp = compareReports(baseline, candidate, { tolerance: 0.1 });
    expect(byName(cmp, 'small').change).toBe('unchanged');
    expect(byName(cmp, 'big').change).toBe('regressed');
    expect(compareReports(baseline, candidate).cases.map((c) => c.change)).toEqual([
      'regressed',
      'regressed',
    ]);
  });

  test('the tolerance never hides a pass-rate drop', () => {
    const cmp = compareReports(report([scored('a', 0.55)]), report([scored('a', 0.45)]), {
      tolerance: 0.5,
    });
    expect(byName(cmp, 'a').change).toBe('regressed');
  });

  test('cases only in the candidate are added, only in the baseline removed, in that order', () => {
    const cmp = compareReports(
      report([simpleCase('kept', true), simpleCase('old', true)]),
      report([simpleCase('new', false), simpleCase('kept', true)]),
    );
    expect(cmp.cases.map((c) => [c.name, c.change])).toEqual([
      ['new', 'added'],
      ['kept', 'unchanged'],
      ['old', 'removed'],
    ]);
    expect(byName(cmp, 'new')).toMatchObject({ candidate: { passRate: 0 } });
    expect(byName(cmp, 'new').baseline).toBeUndefined();
    expect(byName(cmp, 'old')).toMatchObject({ baseline: { passRate: 1, meanScore: 1 } });
    expect(byName(cmp, 'old').candidate).toBeUndefined();
    expect(cmp.regressions).toBe(0);
  });

  test('lists the evaluators that moved, ran only on one side, and not those that held', () => {
    const baseline = report([
      caseOf('a', [
        run({
          scores: [
            verdict('steady', true),
            verdict('slipped', true),
            verdict('dropped', true),
            verdict('rescored', false, { score: 0.4 }),
          ],
        }),
      ]),
    ]);
    const candidate = report([
      caseOf('a', [
        run({
          scores: [
            verdict('steady', true),
            verdict('slipped', false),
            verdict('fresh', true),
            verdict('rescored', false, { score: 0.1 }),
          ],
        }),
      ]),
    ]);
    const diffs = byName(compareReports(baseline, candidate), 'a').evaluators;
    expect(diffs).toEqual([
      {
        name: 'slipped',
        baseline: { passRate: 1, meanScore: 1 },
        candidate: { passRate: 0, meanScore: 0 },
      },
      { name: 'fresh', candidate: { passRate: 1, meanScore: 1 } },
      {
        name: 'rescored',
        baseline: { passRate: 0, meanScore: 0.4 },
        candidate: { passRate: 0, meanScore: 0.1 },
      },
      { name: 'dropped', baseline: { passRate: 1, meanScore: 1 } },
    ]);
  });

  test('outputChanged compares the first runs structurally, ignoring key order', () => {
    const one = (output: Record<string, number> | string) =>
      caseOf('a', [run({ output, scores: [verdict('x', true)] })]);
    expect(
      byName(compareReports(report([one({ a: 1, b: 2 })]), report([one({ b: 2, a: 1 })])), 'a')
        .outputChanged,
    ).toBe(false);
    expect(
      byName(compareReports(report([one('yes')]), report([one('no')])), 'a').outputChanged,
    ).toBe(true);
  });

  test('delta is candidate minus baseline; cost only when both sides are priced', () => {
    const priced = (name: string, pass: boolean, cost: number, durationMs: number) =>
      caseOf(name, [
        run({ cost, durationMs, scores: [verdict('x', pass, { score: pass ? 1 : 0.5 })] }),
      ]);
    const baseline = report([priced('a', true, 0.01, 100), priced('b', false, 0.02, 300)]);
    const candidate = report([priced('a', true, 0.005, 200), priced('b', true, 0.01, 400)]);
    const cmp = compareReports(baseline, candidate);
    expect(cmp.delta.passRate).toBeCloseTo(0.5);
    expect(cmp.delta.meanScore).toBeCloseTo(0.25);
    expect(cmp.delta.cost).toBeCloseTo(-0.015);
    expect(cmp.delta.p50LatencyMs).toBe(100);
    expect(cmp).toMatchObject({ golemEvalComparison: 1, baseline: 'weather-agent' });
    const unpriced = report([simpleCase('a', true)]);
    expect(compareReports(unpriced, candidate).delta).not.toHaveProperty('cost');
  });

  test('names both experiments', () => {
    const cmp = compareReports(report([], { name: 'v1' }), report([], { name: 'v2' }));
    expect([cmp.baseline, cmp.candidate]).toEqual(['v1', 'v2']);
  });

  test('a tolerance outside 0..1 or a non-report argument is a ConfigError', () => {
    const r = report([simpleCase('a', true)]);
    expect(() => compareReports(r, r, { tolerance: -0.1 })).toThrow(ConfigError);
    expect(() => compareReports(r, r, { tolerance: 5 })).toThrow(/tolerance must be/);
    expect(() => compareReports({} as never, r)).toThrow(/baseline is not an experiment report/);
  });
});

describe('comparePairwise', () => {
  /** A judge that prefers the longer output and records what it saw. */
  function lengthJudge(): PairwiseJudge & { seen: unknown[][] } {
    const seen: unknown[][] = [];
    return {
      name: 'length',
      seen,
      compare(input, baseline, candidate, options) {
        seen.push([input, baseline, candidate, options?.expected]);
        const a = String(baseline).length;
        const b = String(candidate).length;
        return Promise.resolve({
          preferred: a === b ? 'tie' : a > b ? 'baseline' : 'candidate',
          reason: `lengths ${String(a)} vs ${String(b)}`,
        });
      },
    };
  }

  test('fills the verdict for each case whose output changed, passing input and expected', async () => {
    const baseline = report([
      caseOf('short', [run({ output: 'ok', scores: [] })], { input: 'q1', expected: 'okay' }),
      caseOf('long', [run({ output: 'a long answer', scores: [] })], { input: 'q2' }),
    ]);
    const candidate = report([
      caseOf('short', [run({ output: 'okay!', scores: [] })], { input: 'q1', expected: 'okay' }),
      caseOf('long', [run({ output: 'short', scores: [] })], { input: 'q2' }),
    ]);
    const judge = lengthJudge();
    const cmp = await comparePairwise(baseline, candidate, judge);
    expect(byName(cmp, 'short')).toMatchObject({
      preferred: 'candidate',
      reason: 'lengths 2 vs 5',
    });
    expect(byName(cmp, 'long')).toMatchObject({ preferred: 'baseline', reason: 'lengths 13 vs 5' });
    expect(judge.seen).toContainEqual(['q1', 'ok', 'okay!', 'okay']);
    expect(judge.seen).toContainEqual(['q2', 'a long answer', 'short', undefined]);
  });

  test('identical outputs are a tie without asking the judge; added cases are not judged', async () => {
    const baseline = report([simpleCase('same', true)]);
    const candidate = report([simpleCase('same', true), simpleCase('new', true)]);
    const judge = lengthJudge();
    const cmp = await comparePairwise(baseline, candidate, judge);
    expect(judge.seen).toEqual([]);
    expect(byName(cmp, 'same')).toMatchObject({ preferred: 'tie' });
    expect(byName(cmp, 'new').preferred).toBeUndefined();
  });

  test('a side without output (task failed) is not judged', async () => {
    const failed = caseOf('a', [run({ error: { name: 'RunError', message: 'boom' } })]);
    const judge = lengthJudge();
    const cmp = await comparePairwise(report([simpleCase('a', true)]), report([failed]), judge);
    expect(judge.seen).toEqual([]);
    expect(byName(cmp, 'a')).toMatchObject({ change: 'regressed' });
    expect(byName(cmp, 'a').preferred).toBeUndefined();
  });

  test('the verdict does not change the metric-based change', async () => {
    const cmp = await comparePairwise(
      report([scored('a', 0.9, 'x')]),
      report([scored('a', 0.2, 'much longer')]),
      lengthJudge(),
    );
    expect(byName(cmp, 'a')).toMatchObject({ change: 'regressed', preferred: 'candidate' });
  });

  test('a judge that throws leaves no verdict and says why in the reason', async () => {
    const judge: PairwiseJudge = {
      name: 'flaky',
      compare: () => Promise.reject(new Error('rate limited')),
    };
    const cmp = await comparePairwise(
      report([scored('a', 1, 'x')]),
      report([scored('a', 1, 'y')]),
      judge,
    );
    expect(byName(cmp, 'a').preferred).toBeUndefined();
    expect(byName(cmp, 'a').reason).toBe('The judge flaky failed: rate limited');
  });

  test('an aborted signal rejects', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      comparePairwise(report([scored('a', 1, 'x')]), report([scored('a', 1, 'y')]), lengthJudge(), {
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop');
  });

  test('judges at most `concurrency` cases at once', async () => {
    let active = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const judge: PairwiseJudge = {
      name: 'slow',
      async compare() {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => releases.push(resolve));
        active -= 1;
        return { preferred: 'tie', reason: '' };
      },
    };
    const names = ['a', 'b', 'c', 'd', 'e'];
    const pending = comparePairwise(
      report(names.map((n) => scored(n, 1, `${n}1`))),
      report(names.map((n) => scored(n, 1, `${n}2`))),
      judge,
      { concurrency: 2 },
    );
    const state = { settled: false };
    void pending.finally(() => {
      state.settled = true;
    });
    while (!state.settled) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const release of releases.splice(0)) release();
    }
    const cmp = await pending;
    expect(peak).toBe(2);
    expect(cmp.cases.every((c) => c.preferred === 'tie')).toBe(true);
  });

  test('a judge without compare() is a ConfigError', async () => {
    const r = report([]);
    await expect(comparePairwise(r, r, {} as PairwiseJudge)).rejects.toThrow(ConfigError);
  });
});
