import type { Model } from '../contract/model';
import type { ToolSpec } from '../contract/request';
import type { RunEvent, RunObserver } from './events';
import type { Result } from './result';

/** What an instrumentation learns when a run starts. */
export interface RunStartInfo {
  /** The agent's name (`Agent.name`: a decorated agent's class name, else `agent` by default). */
  readonly agent: string;
  /** The agent's model. */
  readonly model: Model;
  /** Whether the run streams (`runStream`). */
  readonly stream: boolean;
  /** The tools advertised to the model (the output tool included), in request order. */
  readonly tools: readonly ToolSpec[];
  /** `json` when the agent asks for structured output (`outputSchema`/`outputTool`), else `text`. */
  readonly outputType: 'text' | 'json';
  /** The stored conversation the run continues (`run(prompt, { conversation })`), if any. */
  readonly conversation?: string;
  /** The stored run's id, when the caller chose it (`run(prompt, { runId })`). */
  readonly runId?: string;
}

/** Which piece of work {@link RunTrace.within} runs. */
export type TraceScope =
  | { readonly kind: 'model'; readonly turn: number; readonly attempt: number }
  | { readonly kind: 'tool'; readonly callId: string }
  | { readonly kind: 'compaction'; readonly turn: number; readonly policy: string };

/** How a run ended: its result, or the error it failed with. */
export type RunOutcome =
  | { readonly ok: true; readonly result?: Result<unknown> }
  | { readonly ok: false; readonly error: unknown };

/**
 * One run as an instrumentation sees it (see {@link RunInstrumentation}). Every method is
 * advisory: what it throws is swallowed and never changes the run.
 */
export interface RunTrace {
  /** Receives every event of the run, after the agent's and the run's observers. */
  observe(event: RunEvent): void;
  /**
   * Runs one model call or tool execution — whose `model_start`/`tool_start` was just observed —
   * inside the trace's context (e.g. an active span, so HTTP spans and nested agent runs become
   * its children). Must call `call` once and return its promise.
   */
  within<T>(scope: TraceScope, call: () => Promise<T>): Promise<T>;
  /** The run ended; called once, after its last event. */
  end(outcome: RunOutcome): void;
}

/**
 * The instrumentation port (tracing, metrics): an agent's `instrumentation` starts one
 * {@link RunTrace} per run. `golem/otel` implements it with OpenTelemetry; the engine never
 * depends on an implementation.
 */
export interface RunInstrumentation {
  /** Called as a run starts; `undefined` leaves the run untraced. */
  startRun(info: RunStartInfo): RunTrace | undefined;
}

/** The engine's guarded handle on one run's trace: idempotent end, swallowed failures. Internal. */
export class TraceHandle {
  private outcome: RunOutcome | undefined;
  private ended = false;
  /** The trace as a run observer. */
  readonly observer: RunObserver;

  constructor(private readonly trace: RunTrace) {
    this.observer = (event) => {
      trace.observe(event);
    };
  }

  /** Runs `call` in the trace's context; a trace that fails before calling it is bypassed. */
  within<T>(scope: TraceScope, call: () => Promise<T>): Promise<T> {
    const progress = { called: false };
    try {
      return this.trace.within(scope, () => {
        progress.called = true;
        return call();
      });
    } catch (error) {
      if (progress.called) throw error;
      return call();
    }
  }

  /** Remembers how the run is ending (the last report wins); `end` reports it. */
  record(outcome: RunOutcome): void {
    if (!this.ended) this.outcome = outcome;
  }

  /** Ends the trace once: with `error` when given, else with the recorded outcome. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    const outcome: RunOutcome =
      error !== undefined ? { ok: false, error } : (this.outcome ?? { ok: true });
    try {
      this.trace.end(outcome);
    } catch {
      // Instrumentation is advisory: it never changes a run's outcome.
    }
  }
}

/** Starts the trace of one run, or `undefined` (no instrumentation, or it declined). Internal. */
export function startTrace(
  instrumentation: RunInstrumentation | undefined,
  info: RunStartInfo,
): TraceHandle | undefined {
  if (instrumentation === undefined) return undefined;
  let trace: RunTrace | undefined;
  try {
    trace = instrumentation.startRun(info);
  } catch {
    return undefined;
  }
  return trace === undefined ? undefined : new TraceHandle(trace);
}

/** Runs `call` in `trace`'s context when the run is traced. Internal. */
export function traced<T>(
  trace: TraceHandle | undefined,
  scope: TraceScope,
  call: () => Promise<T>,
): Promise<T> {
  return trace === undefined ? call() : trace.within(scope, call);
}
