import { DeadlineExceededError, RunError, emptyUsage, findError, isRetryable } from '../core/index';
import type { Message, Middleware, RunEvent } from '../core/index';
import { isRecord } from '../core/kit/guards';
import type { EvalCase } from './case';
import { PausedRunError, caseRunError } from './case-error';
import { openCaseCassette, saveCaseCassette, type CaseCassette } from './case-cassette';
import { withCassette } from './cassette-context';
import type { ResolvedCassettes } from './cassette-options';
import { EvalError } from './eval-error';
import type { EvalContext, Evaluator, EvaluatorResult } from './evaluator';
import {
  encodeTranscript,
  evidenceOf,
  toJsonValue,
  toolCallsOf,
  type RunEvidence,
} from './evidence';
import type { EvalRunOptions, Task, TaskContext } from './experiment-types';
import type { CaseRun } from './report-types';
import { runEvaluator } from './score';
import { saveJudgments, withJudgments, type Judgments } from './judgments';
import { retryDelay, type Sleep } from './retry-sleep';

/** Everything one case run needs. */
export interface CaseRunInput {
  readonly evalCase: EvalCase;
  readonly repeat: number;
  readonly task: Task<unknown, unknown>;
  /** The dataset's, then the experiment's, then the case's evaluators. */
  readonly evaluators: readonly Evaluator[];
  readonly retries: number;
  readonly timeout: number | undefined;
  readonly sleep: Sleep;
  /** The experiment's signal. */
  readonly signal: AbortSignal;
  readonly cassettes: ResolvedCassettes | undefined;
}

/** What one attempt of the task gave. */
type Attempt =
  | {
      readonly ok: true;
      readonly evidence: RunEvidence;
      readonly events: readonly RunEvent[];
      readonly durationMs: number;
      readonly replayed: boolean;
      /** The attempt's cassette, when the experiment has cassettes. */
      readonly cassette: CaseCassette | undefined;
    }
  | {
      readonly ok: false;
      readonly error: unknown;
      readonly durationMs: number;
      readonly replayed: boolean;
    };

/**
 * Runs one case once: the task (retrying a retryable throw up to `retries` times, waiting 250 ms
 * doubling), under the case timeout and the case's cassette, then every evaluator in order
 * (duplicate names get `#2`, `#3`…). A task that fails, or a paused run, gives a run with an
 * `error` and no scores; it never throws.
 */
export async function runCaseRun(input: CaseRunInput): Promise<CaseRun> {
  let attempts = 0;
  let attempt: Attempt;
  for (;;) {
    attempts += 1;
    attempt = await runAttempt(input, attempts);
    if (attempt.ok || attempts > input.retries || input.signal.aborted) break;
    if (!isRetryable(attempt.error)) break;
    try {
      await input.sleep(retryDelay(attempts), input.signal);
    } catch {
      break;
    }
  }
  if (!attempt.ok) return failedRun(input, attempt, attempts);
  const ctx = evalContext(input, attempt);
  const judgments = judgmentsOf(input, attempt.cassette);
  const scores = await withJudgments(judgments, () => runEvaluators(input.evaluators, ctx));
  try {
    await saveJudgments(judgments);
  } catch (error) {
    return failedRun(input, { ...attempt, ok: false, error }, attempts);
  }
  const { evidence } = attempt;
  const run: CaseRun = {
    repeat: input.repeat,
    pass: scores.every((s) => s.pass),
    output: toJsonValue(evidence.output),
    scores,
    messages: encodeTranscript(evidence.messages),
    toolCalls: evidence.toolCalls,
    usage: evidence.usage,
    requests: evidence.requests,
    turns: evidence.turns,
    durationMs: attempt.durationMs,
    attempts,
    replayed: attempt.replayed,
  };
  return evidence.cost === undefined ? run : { ...run, cost: evidence.cost };
}

function failedRun(
  input: CaseRunInput,
  attempt: Extract<Attempt, { ok: false }>,
  attempts: number,
): CaseRun {
  const partial = findError(attempt.error, RunError.is)?.partial;
  const messages: readonly Message[] = partial?.messages ?? [];
  return {
    repeat: input.repeat,
    pass: false,
    error: caseRunError(attempt.error),
    scores: [],
    messages: encodeTranscript(messages),
    toolCalls: toolCallsOf(messages),
    usage: partial?.usage ?? emptyUsage(),
    requests: partial?.requests ?? 0,
    turns: messages.filter((m) => m.role === 'assistant').length,
    durationMs: attempt.durationMs,
    attempts,
    replayed: attempt.replayed,
  };
}

async function runAttempt(input: CaseRunInput, attempt: number): Promise<Attempt> {
  const { evalCase, repeat } = input;
  const deadline = caseDeadline(input);
  const signal = deadline.signal;
  const events: RunEvent[] = [];
  let cassette: CaseCassette | undefined;
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    if (input.cassettes !== undefined) {
      cassette = await openCaseCassette(input.cassettes, evalCase.name, repeat);
    }
    const middleware: readonly Middleware[] =
      cassette === undefined ? [] : [cassette.session.middleware];
    const runOptions: EvalRunOptions = {
      signal,
      observer: (event) => events.push(event),
      middleware,
    };
    const ctx: TaskContext = { caseName: evalCase.name, repeat, attempt, signal, runOptions };
    const running = withCassette(cassette?.session.middleware, () =>
      invokeTask(input.task, evalCase, ctx),
    );
    const value = await untilAborted(running, signal);
    const durationMs = elapsed();
    const failure = cassette?.session.failure;
    if (failure !== undefined) throw failure;
    const evidence = evidenceOf(value, events);
    if (evidence.paused !== undefined) {
      throw new PausedRunError(
        `case "${evalCase.name}": the run paused on ${evidence.paused}; an eval task must finish (resolve approvals inside a function task, or turn deferred tools off)`,
      );
    }
    if (cassette !== undefined) await saveCaseCassette(cassette, evalCase.name, repeat, durationMs);
    const recorded = cassette?.recorded;
    return {
      ok: true,
      evidence,
      events,
      durationMs: recorded === undefined ? durationMs : recorded.durationMs,
      replayed: recorded !== undefined,
      cassette,
    };
  } catch (error) {
    const reason: unknown = deadline.timedOut()
      ? signal.reason
      : (cassette?.session.failure ?? error);
    const recorded = cassette?.recorded;
    return {
      ok: false,
      error: reason,
      durationMs: recorded === undefined ? elapsed() : recorded.durationMs,
      replayed: recorded !== undefined,
    };
  } finally {
    deadline.clear();
  }
}

/** The case's signal: the experiment's, aborted too when the case timeout passes. */
function caseDeadline(input: CaseRunInput): {
  signal: AbortSignal;
  timedOut: () => boolean;
  clear: () => void;
} {
  const { timeout, signal } = input;
  if (timeout === undefined) return { signal, timedOut: () => false, clear: () => undefined };
  const controller = new AbortController();
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    controller.abort(
      new DeadlineExceededError(
        `case "${input.evalCase.name}" exceeded its timeout of ${timeout} ms (the experiment's timeout option)`,
      ),
    );
  }, timeout);
  return {
    signal: AbortSignal.any([signal, controller.signal]),
    timedOut: () => passed,
    clear: () => {
      clearTimeout(timer);
    },
  };
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (whichever is first). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
        reject(error);
      },
    );
  });
}

/** An agent: run on the case's prompt with the run options; a function: called with the input. */
async function invokeTask(
  task: Task<unknown, unknown>,
  evalCase: EvalCase,
  ctx: TaskContext,
): Promise<unknown> {
  if (typeof task === 'function') return task(evalCase.input, ctx);
  const { prompt, deps, history } = agentInput(evalCase);
  const options = {
    ...ctx.runOptions,
    ...(deps === undefined ? {} : { deps }),
    ...(history === undefined ? {} : { history }),
  };
  return task.run(prompt, options);
}

function agentInput(evalCase: EvalCase): {
  prompt: string;
  deps: unknown;
  history: readonly Message[] | undefined;
} {
  const input = evalCase.input;
  if (typeof input === 'string') return { prompt: input, deps: undefined, history: undefined };
  if (isRecord(input) && typeof input['prompt'] === 'string') {
    const history = input['history'];
    if (history !== undefined && !Array.isArray(history)) throw badInput(evalCase);
    return {
      prompt: input['prompt'],
      deps: input['deps'],
      history: history as readonly Message[] | undefined,
    };
  }
  throw badInput(evalCase);
}

function badInput(evalCase: EvalCase): EvalError {
  return new EvalError(
    'dataset',
    `case "${evalCase.name}": an Agent task takes a string prompt or { prompt, deps?, history? } as input, got ${describeInput(evalCase.input)}; give the case such an input, or use a function task`,
    { caseName: evalCase.name },
  );
}

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  return typeof input === 'object' ? 'an object without a string prompt' : typeof input;
}

function evalContext(input: CaseRunInput, attempt: Extract<Attempt, { ok: true }>): EvalContext {
  const { evidence, events } = attempt;
  return {
    case: input.evalCase,
    input: input.evalCase.input,
    expected: input.evalCase.expected,
    output: evidence.output,
    messages: evidence.messages,
    events,
    toolCalls: evidence.toolCalls,
    turns: evidence.turns,
    requests: evidence.requests,
    usage: evidence.usage,
    cost: evidence.cost,
    durationMs: attempt.durationMs,
    repeat: input.repeat,
    signal: input.signal,
  };
}

/**
 * Where the evaluators' judges record and replay (see `judgmentCassette`): the case run's
 * cassette, live unless the experiment replays only; a recording starts without judgments.
 */
function judgmentsOf(
  input: CaseRunInput,
  cassette: CaseCassette | undefined,
): Judgments | undefined {
  if (input.cassettes === undefined || cassette === undefined) return undefined;
  const recorded = input.cassettes.mode === 'record' ? undefined : cassette.recorded?.judgments;
  return {
    file: cassette.file,
    caseName: input.evalCase.name,
    live: input.cassettes.mode !== 'replay',
    recorded: new Map(Object.entries(recorded ?? {})),
    added: new Map(),
  };
}

/** Runs the evaluators in order; a name met again gets `#2`, `#3`…. */
async function runEvaluators(
  evaluators: readonly Evaluator[],
  ctx: EvalContext,
): Promise<EvaluatorResult[]> {
  const used = new Set<string>();
  const results: EvaluatorResult[] = [];
  for (const evaluator of evaluators) {
    let name = evaluator.name;
    for (let k = 2; used.has(name); k++) name = `${evaluator.name}#${k}`;
    used.add(name);
    results.push(await runEvaluator(evaluator, ctx, name));
  }
  return results;
}
