import { cancellationError } from '../errors/cancellation';
import { describeError } from '../kit/error-base';
import { ModelRetry } from '../errors/errors';
import { isRecord } from '../kit/guards';
import type { ToolCall } from '../contract/message';
import type { GuardrailContext, GuardrailPhase, GuardrailResult, Guardrails } from './guardrails';
import { GuardrailError } from './guardrails';
import type { RunProgress } from './run-progress';

/** Where one check runs. Internal. */
export interface CheckSite {
  readonly name: string;
  readonly phase: GuardrailPhase;
  /** Trips become `ModelRetry` corrections. */
  readonly retry: boolean;
  readonly rewrite: boolean;
  readonly call?: { readonly toolName: string; readonly callId: string } | undefined;
  /** The call's turn; on the event of tool phases only (with `call`). */
  readonly turn: number;
}

/** A check's effect when it passes: the rewritten value, or `undefined` (unchanged). Internal. */
export type CheckEffect<T> = { readonly value: T } | undefined;

/**
 * Runs one check and emits its `guardrail` event. A trip throws `GuardrailError` (or, with
 * `site.retry`, a `ModelRetry` carrying the reason, caused by the `GuardrailError`); a check that
 * throws or answers something other than a verdict throws a `failed` `GuardrailError` — guardrails
 * fail closed. A run cancelled meanwhile throws its cancellation error. Internal.
 */
export async function runCheck<Deps, T>(
  state: RunProgress<Deps>,
  site: CheckSite,
  signal: AbortSignal,
  check: () => GuardrailResult<T> | Promise<GuardrailResult<T>>,
): Promise<CheckEffect<T>> {
  let answer: unknown;
  try {
    answer = await check();
  } catch (cause) {
    if (signal.aborted) throw cancellationError(signal);
    throw failed(state, site, `the check threw: ${describeError(cause)}`, cause);
  }
  // A check that ignored its signal and answered after the run (or its gate) ended reports
  // nothing: no event may follow the end of a run.
  if (signal.aborted) throw cancellationError(signal);
  if (answer === undefined || answer === null) return passed(state, site, undefined);
  const action = isRecord(answer) ? answer.action : undefined;
  if (action === 'pass') return passed(state, site, undefined);
  if (action === 'rewrite' && isRecord(answer) && 'value' in answer) {
    if (!site.rewrite)
      throw failed(state, site, 'it answered rewrite, which this guardrail cannot do');
    return passed(state, site, { value: answer.value as T });
  }
  if (action === 'trip' && isRecord(answer) && typeof answer.reason === 'string') {
    const error = new GuardrailError({
      guardrail: site.name,
      phase: site.phase,
      outcome: 'tripped',
      reason: answer.reason,
      details: answer.details,
      call: site.call,
    });
    emitCheck(state, site, site.retry ? 'retry' : 'trip', answer.reason);
    throw site.retry ? new ModelRetry(answer.reason, { cause: error }) : error;
  }
  throw failed(
    state,
    site,
    'it answered something other than a verdict; return verdict.pass(), verdict.rewrite(value) or verdict.trip(reason)',
  );
}

function passed<Deps, T>(
  state: RunProgress<Deps>,
  site: CheckSite,
  effect: CheckEffect<T>,
): CheckEffect<T> {
  emitCheck(state, site, effect === undefined ? 'pass' : 'rewrite', undefined);
  return effect;
}

function failed<Deps>(
  state: RunProgress<Deps>,
  site: CheckSite,
  reason: string,
  cause?: unknown,
): GuardrailError {
  emitCheck(state, site, 'failed', reason);
  return new GuardrailError({
    guardrail: site.name,
    phase: site.phase,
    outcome: 'failed',
    reason,
    call: site.call,
    cause,
  });
}

function emitCheck<Deps>(
  state: RunProgress<Deps>,
  site: CheckSite,
  outcome: 'pass' | 'rewrite' | 'trip' | 'retry' | 'failed',
  reason: string | undefined,
): void {
  if (!state.observed) return;
  const guardrail = {
    name: site.name,
    phase: site.phase,
    outcome,
    ...(reason !== undefined && { reason }),
  };
  const call = site.call;
  state.emit(
    call === undefined
      ? { kind: 'guardrail', guardrail }
      : {
          kind: 'guardrail',
          turn: site.turn,
          callId: call.callId,
          toolName: call.toolName,
          guardrail,
        },
  );
}

/** The context a check gets. Internal. */
export function checkContext<Deps>(
  state: RunProgress<Deps>,
  signal: AbortSignal,
): GuardrailContext<Deps> {
  return { deps: state.run.deps, signal, messages: state.messages };
}

/** Runs the output guardrails in order on the decoded output; returns it, maybe rewritten. Internal. */
export async function checkOutput<Deps>(
  guardrails: Guardrails<Deps> | undefined,
  state: RunProgress<Deps>,
  output: unknown,
): Promise<unknown> {
  let current = output;
  const { signal } = state.run;
  for (const guardrail of guardrails?.output ?? []) {
    const site: CheckSite = {
      name: guardrail.name,
      phase: 'output',
      retry: guardrail.onTrip === 'retry',
      rewrite: true,
      turn: 0,
    };
    const value = current;
    const effect = await runCheck(state, site, signal, () =>
      guardrail.check(value, checkContext(state, signal)),
    );
    if (effect !== undefined) current = effect.value;
  }
  return current;
}

/** The tool guardrails of one call, run by the tool executor. Internal. */
export interface ToolGuard {
  /** Before the tool runs: returns the arguments to run it with. */
  before(args: unknown, signal: AbortSignal): Promise<unknown>;
  /** After it returned `text`: returns the text the model gets. */
  after(args: unknown, text: string, signal: AbortSignal): Promise<string>;
}

/** The guard for `call` when any tool guardrail applies to it, else `undefined`. Internal. */
export function toolGuard<Deps>(
  guardrails: Guardrails<Deps> | undefined,
  state: RunProgress<Deps>,
  turn: number,
  call: ToolCall,
): ToolGuard | undefined {
  if (guardrails?.tool === undefined) return undefined; // the common case: no allocation per call
  const applying = guardrails.tool.filter(
    (g) => g.tools === undefined || g.tools.includes(call.name),
  );
  if (applying.length === 0) return undefined;
  const target = { toolName: call.name, callId: call.id };
  const site = (name: string, phase: GuardrailPhase, retry: boolean): CheckSite => ({
    name,
    phase,
    retry,
    rewrite: true,
    call: target,
    turn,
  });
  return {
    async before(args, signal) {
      let current = args;
      for (const g of applying) {
        if (g.before === undefined) continue;
        const checked = { ...target, args: current };
        const effect = await runCheck(
          state,
          site(g.name, 'tool_input', g.onTrip === 'retry'),
          signal,
          () => g.before?.(checked, checkContext(state, signal)),
        );
        if (effect !== undefined) current = effect.value;
      }
      return current;
    },
    async after(args, text, signal) {
      let current = text;
      for (const g of applying) {
        if (g.after === undefined) continue;
        const checked = { ...target, args, result: current };
        const effect = await runCheck(
          state,
          site(g.name, 'tool_output', g.onTrip === 'retry'),
          signal,
          () => g.after?.(checked, checkContext(state, signal)),
        );
        if (effect !== undefined) {
          if (typeof effect.value !== 'string')
            throw new GuardrailError({
              guardrail: g.name,
              phase: 'tool_output',
              outcome: 'failed',
              reason: 'it rewrote the result to something other than a string',
              call: target,
            });
          current = effect.value;
        }
      }
      return current;
    },
  };
}
