import { ConfigError } from 'golem';
import { EvalError } from '../../src/evals/eval-error';
import { compareReports } from '../../src/evals/compare';
import { evalMatchers } from '../../src/evals/matchers';
import type { Thresholds } from '../../src/evals/report-types';
import { assertThresholds, checkThresholds } from '../../src/evals/thresholds';
import { caseOf, report, run, simpleCase, verdict, weatherReport } from './report-fixtures';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Jest's matcher typing is a namespace
  namespace jest {
    interface Matchers<R> {
      toPass(thresholds?: Thresholds): R;
    }
  }
}

expect.extend(evalMatchers);

/** Three of four runs pass; contains 3/4, tone 4/4; cost 0.04; latencies 100..400. */
function mixed() {
  return report([
    caseOf('a', [
      run({
        cost: 0.01,
        durationMs: 100,
        scores: [verdict('contains', true), verdict('tone', true)],
      }),
    ]),
    caseOf('b', [
      run({
        cost: 0.01,
        durationMs: 200,
        scores: [verdict('contains', true), verdict('tone', true)],
      }),
    ]),
    caseOf('c', [
      run({
        cost: 0.01,
        durationMs: 300,
        scores: [verdict('contains', true), verdict('tone', true)],
      }),
    ]),
    caseOf('d', [
      run({
        cost: 0.01,
        durationMs: 400,
        scores: [verdict('contains', false, { reason: 'no "Paris"' }), verdict('tone', true)],
      }),
    ]),
  ]);
}

describe('checkThresholds', () => {
  test('passes when every threshold is met', () => {
    expect(
      checkThresholds(mixed(), {
        passRate: 0.75,
        meanScore: 0.85,
        evaluators: { contains: 0.75, tone: 1 },
        maxCost: 0.04,
        maxP90LatencyMs: 400,
      }),
    ).toEqual({ ok: true, failures: [] });
  });

  test('pass rate below its threshold, with the counts', () => {
    expect(checkThresholds(mixed(), { passRate: 0.9 }).failures).toEqual([
      'Pass rate 75% is below the threshold 90% (3 of 4 runs passed).',
    ]);
  });

  test('mean score below its threshold', () => {
    expect(checkThresholds(mixed(), { meanScore: 0.9 }).failures).toEqual([
      'Mean score 0.88 is below the threshold 0.90.',
    ]);
  });

  test('an evaluator below its pass rate, and one that never ran', () => {
    expect(
      checkThresholds(mixed(), { evaluators: { contains: 0.8, polite: 0.5 } }).failures,
    ).toEqual([
      'Evaluator contains passed 75% of its runs, below the threshold 80%.',
      'Evaluator polite did not run, so its pass rate cannot reach 50% (evaluators that ran: contains, tone).',
    ]);
  });

  test('cost above maxCost, and an unpriced report fails maxCost', () => {
    expect(checkThresholds(mixed(), { maxCost: 0.03 }).failures).toEqual([
      'Cost 0.0400 is above maxCost 0.0300.',
    ]);
    expect(checkThresholds(report([simpleCase('a', true)]), { maxCost: 1 }).failures[0]).toMatch(
      /^Cost is unknown \(no run was priced\)/,
    );
  });

  test('p90 latency above maxP90LatencyMs', () => {
    expect(checkThresholds(mixed(), { maxP90LatencyMs: 350 }).failures).toEqual([
      'p90 latency 400ms is above maxP90LatencyMs 350ms.',
    ]);
  });

  test('maxRegressions counts the comparison’s regressions and names them; unchecked without one', () => {
    const baseline = report([simpleCase('a', true), simpleCase('b', true)], { name: 'v1' });
    const candidate = report([simpleCase('a', false), simpleCase('b', false)]);
    const comparison = compareReports(baseline, candidate);
    expect(checkThresholds(candidate, { maxRegressions: 1 }, comparison).failures).toEqual([
      '2 cases regressed against v1, more than maxRegressions 1: a, b.',
    ]);
    expect(checkThresholds(candidate, { maxRegressions: 2 }, comparison).ok).toBe(true);
    expect(checkThresholds(candidate, { maxRegressions: 0 }).ok).toBe(true);
  });

  test('lists every threshold missed', () => {
    const check = checkThresholds(mixed(), { passRate: 1, meanScore: 1, maxCost: 0.01 });
    expect(check.ok).toBe(false);
    expect(check.failures).toHaveLength(3);
  });

  test('a rate written as a percentage is a ConfigError with the fix', () => {
    expect(() => checkThresholds(mixed(), { passRate: 90 })).toThrow(
      'Threshold passRate must be a number between 0 and 1 (got 90); write 0.9 for 90%.',
    );
    expect(() => checkThresholds(mixed(), { evaluators: { tone: -1 } })).toThrow(ConfigError);
    expect(() => checkThresholds(mixed(), { maxRegressions: 1.5 })).toThrow(/whole number/);
  });
});

describe('assertThresholds', () => {
  test('returns quietly when met', () => {
    expect(() => {
      assertThresholds(mixed(), { passRate: 0.5 });
    }).not.toThrow();
  });

  test('throws EvalError threshold with every failure', () => {
    let caught: unknown;
    try {
      assertThresholds(mixed(), { passRate: 0.9, meanScore: 0.9 });
    } catch (error) {
      caught = error;
    }
    expect(EvalError.isKind(caught, 'threshold')).toBe(true);
    const error = caught as EvalError;
    expect(error.failures).toHaveLength(2);
    expect(error.message).toBe(
      'Experiment weather-agent missed 2 thresholds:\n' +
        '  - Pass rate 75% is below the threshold 90% (3 of 4 runs passed).\n' +
        '  - Mean score 0.88 is below the threshold 0.90.',
    );
  });
});

describe('evalMatchers.toPass', () => {
  test('passes a report where every run passed', () => {
    expect(report([simpleCase('a', true)])).toPass();
  });

  test('fails by default on any failing run, listing failing cases and reasons', () => {
    expect(() => {
      expect(mixed()).toPass();
    }).toThrow(
      'expected experiment weather-agent to pass its thresholds:\n' +
        '  - Pass rate 75% is below the threshold 100% (3 of 4 runs passed).\n\n' +
        'Failing cases (1):\n' +
        '  ✗ d (0% of runs passed)\n' +
        '      contains: no "Paris"',
    );
  });

  test('takes thresholds', () => {
    expect(mixed()).toPass({ passRate: 0.75 });
    expect(() => {
      expect(mixed()).toPass({ maxCost: 0.01 });
    }).toThrow('Cost 0.0400 is above maxCost 0.0100.');
  });

  test('lists task errors and numbers runs of repeated cases', () => {
    const result = evalMatchers.toPass(weatherReport());
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain(
      '  ✗ tokyo (0% of runs passed)\n      error: RunError [model]: HTTP 500',
    );
    expect(message).toContain('(50% of runs passed)\n      run 2 judge: rude');
  });

  test('.not.toPass fails with a message when the report passed', () => {
    expect(mixed()).not.toPass();
    expect(() => {
      expect(report([simpleCase('a', true)])).not.toPass();
    }).toThrow(
      'expected experiment weather-agent not to pass its thresholds, but it did (pass rate 100%).',
    );
  });

  test('a value that is not a report fails with what it got', () => {
    expect(() => {
      expect({ cases: [] }).toPass();
    }).toThrow('expect(report).toPass() needs an experiment report (what runExperiment() returns)');
    expect(evalMatchers.toPass(undefined).pass).toBe(false);
  });
});
