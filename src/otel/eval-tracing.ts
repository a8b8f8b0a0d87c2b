import type { Attributes, Context, Tracer } from '@opentelemetry/api';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { isRecord } from '../core/kit/guards';
import { scrubSecrets } from '../core/kit/scrub-secrets';
import type {
  CaseRunInfo,
  CaseRunOutcome,
  ExperimentInfo,
  ExperimentInstrumentation,
} from '../evals/index';
import { otelConfigError } from './config-error';
import { SCOPE } from './semconv';
import { recordFailure } from './span-attributes';

/** The attributes of the eval spans (golem's own: no convention covers evals). */
export const EVAL_ATTR = Object.freeze({
  experiment: 'golem.eval.experiment',
  dataset: 'golem.eval.dataset',
  cases: 'golem.eval.cases',
  repeat: 'golem.eval.repeat',
  case: 'golem.eval.case',
  pass: 'golem.eval.pass',
  replayed: 'golem.eval.replayed',
  durationMs: 'golem.eval.duration_ms',
  /** Prefix of one attribute per evaluator: `golem.eval.score.<evaluator>` (0–1). */
  scorePrefix: 'golem.eval.score.',
  passRate: 'golem.eval.pass_rate',
  passed: 'golem.eval.passed',
  failed: 'golem.eval.failed',
});

/** Options of {@link evalTracing}. */
export interface EvalTracingOptions {
  /** Where spans go; default the global tracer provider's tracer `golem`. */
  readonly tracer?: Tracer;
}

/** The longest status message of a failed case span. */
const MAX_STATUS = 1024;

/**
 * Experiment instrumentation making OpenTelemetry spans: give it to an experiment
 * (`runExperiment({ …, instrumentation: evalTracing() })`). The experiment is a span
 * `eval <experiment>` (`golem.eval.dataset`, `golem.eval.cases`, `golem.eval.repeat`, and
 * once done `golem.eval.passed`, `golem.eval.failed`, `golem.eval.pass_rate` of its case runs); each case run a child span `eval.case <case>` (`golem.eval.case`,
 * `golem.eval.repeat`, `golem.eval.pass`, `golem.eval.replayed`, and
 * `golem.eval.score.<evaluator>` per evaluator) with status `ERROR` when the run fails. The task
 * runs inside its case span, so the spans of an agent with `otelInstrumentation()` nest under it.
 */
export function evalTracing(options: EvalTracingOptions = {}): ExperimentInstrumentation {
  const raw: unknown = options;
  if (!isRecord(raw)) throw otelConfigError('evalTracing options must be an object');
  const given = options.tracer;
  if (given !== undefined && typeof (given as Partial<Tracer>).startSpan !== 'function')
    throw otelConfigError('`tracer` must be an OpenTelemetry Tracer (startSpan)');
  const tracerOf = (): Tracer => given ?? trace.getTracer(SCOPE);
  /**
   * The open experiments by name: the parent of a case run started outside their context, and
   * the tally of their case runs' outcomes.
   */
  const open = new Map<string, OpenExperiment[]>();

  return {
    async experiment<T>(info: ExperimentInfo, fn: () => Promise<T>): Promise<T> {
      const span = tracerOf().startSpan(
        `eval ${info.name}`,
        {
          attributes: {
            [EVAL_ATTR.experiment]: info.name,
            [EVAL_ATTR.dataset]: info.dataset,
            [EVAL_ATTR.cases]: info.cases,
            [EVAL_ATTR.repeat]: info.repeat,
          },
        },
        context.active(),
      );
      const entry: OpenExperiment = {
        context: trace.setSpan(context.active(), span),
        passed: 0,
        failed: 0,
      };
      const stack = open.get(info.name) ?? [];
      stack.push(entry);
      open.set(info.name, stack);
      try {
        return await context.with(entry.context, fn);
      } catch (error) {
        recordFailure(span, error, []);
        throw error;
      } finally {
        stack.splice(stack.lastIndexOf(entry), 1);
        if (stack.length === 0) open.delete(info.name);
        span.setAttributes(tallyAttributes(entry));
        span.end();
      }
    },

    async caseRun<T>(
      info: CaseRunInfo,
      fn: (report: (outcome: CaseRunOutcome) => void) => Promise<T>,
    ): Promise<T> {
      const experiment = open.get(info.experiment)?.at(-1);
      let parent = context.active();
      if (trace.getSpan(parent) === undefined && experiment !== undefined)
        parent = experiment.context;
      const span = tracerOf().startSpan(
        `eval.case ${info.caseName}`,
        {
          attributes: {
            [EVAL_ATTR.experiment]: info.experiment,
            [EVAL_ATTR.case]: info.caseName,
            [EVAL_ATTR.repeat]: info.repeat,
          },
        },
        parent,
      );
      const report = (outcome: CaseRunOutcome): void => {
        if (experiment !== undefined) {
          if (outcome.pass) experiment.passed++;
          else experiment.failed++;
        }
        span.setAttributes(outcomeAttributes(outcome));
        if (!outcome.pass)
          span.setStatus({ code: SpanStatusCode.ERROR, message: failureMessage(outcome) });
      };
      try {
        return await context.with(trace.setSpan(parent, span), () => fn(report));
      } catch (error) {
        recordFailure(span, error, []);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

function outcomeAttributes(outcome: CaseRunOutcome): Attributes {
  const attributes: Attributes = {
    [EVAL_ATTR.pass]: outcome.pass,
    [EVAL_ATTR.replayed]: outcome.replayed,
    [EVAL_ATTR.durationMs]: outcome.durationMs,
  };
  for (const score of outcome.scores)
    attributes[`${EVAL_ATTR.scorePrefix}${score.name}`] = score.score;
  return attributes;
}

/** Why a case run failed, in one line: its error, else the evaluators that did not pass. */
function failureMessage(outcome: CaseRunOutcome): string {
  if (outcome.error !== undefined) return scrubSecrets(outcome.error, []).slice(0, MAX_STATUS);
  const failed = outcome.scores.filter((score) => !score.pass).map((score) => score.name);
  return `failed: ${failed.length > 0 ? failed.join(', ') : 'the case run did not pass'}`.slice(
    0,
    MAX_STATUS,
  );
}

/** An experiment whose span is open: its context, and its case runs' outcomes so far. */
interface OpenExperiment {
  readonly context: Context;
  passed: number;
  failed: number;
}

/** The case runs an experiment's span saw pass and fail, and the pass rate when there were any. */
function tallyAttributes({ passed, failed }: OpenExperiment): Attributes {
  const attributes: Attributes = { [EVAL_ATTR.passed]: passed, [EVAL_ATTR.failed]: failed };
  if (passed + failed > 0) attributes[EVAL_ATTR.passRate] = passed / (passed + failed);
  return attributes;
}
