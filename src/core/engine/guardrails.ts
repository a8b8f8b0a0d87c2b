import { GolemError, brandGuard } from '../kit/error-base';
import type { Message } from '../contract/message';
import type { Part } from '../contract/part';

/**
 * Where a guardrail checks: the run's input, its output, a tool call's arguments or its result.
 * @inline
 */
export type GuardrailPhase = 'input' | 'output' | 'tool_input' | 'tool_output';

/**
 * What a check decided: let it through, replace the value, or stop the run.
 * @inline
 */
export type GuardrailVerdict<T> =
  | { readonly action: 'pass' }
  | { readonly action: 'rewrite'; readonly value: T }
  | { readonly action: 'trip'; readonly reason: string; readonly details?: unknown };

/** A check's answer: a verdict, or nothing (pass). */
export type GuardrailResult<T> = GuardrailVerdict<T> | undefined | void;

/** Builds verdicts: `verdict.pass()`, `verdict.rewrite(value)`, `verdict.trip(reason, details?)`. */
export const verdict = {
  /** Let the value through unchanged (the same as returning nothing). */
  pass(): GuardrailVerdict<never> {
    return { action: 'pass' };
  },
  /** Replace the value (the prompt, the arguments, the result text, the output) with `value`. */
  rewrite<T>(value: T): GuardrailVerdict<T> {
    return { action: 'rewrite', value };
  },
  /**
   * Stop: the run fails at the `guardrail` stage with `reason` (or, for guardrails with
   * `onTrip: 'retry'`, the model is asked to correct itself with `reason`). `details` travel on
   * the error for the caller; they are never sent to the model.
   */
  trip(reason: string, details?: unknown): GuardrailVerdict<never> {
    return details === undefined ? { action: 'trip', reason } : { action: 'trip', reason, details };
  },
} as const;

/** What every check receives besides the value. */
export interface GuardrailContext<Deps> {
  readonly deps: Deps;
  /** Aborted when the run ends or (parallel input guardrails) another guardrail trips. */
  readonly signal: AbortSignal;
  /** The run's conversation so far (read-only). */
  readonly messages: readonly Message[];
}

/** The input an input guardrail checks: the run's prompt and its parts. */
export interface GuardrailInput {
  readonly prompt: string;
  readonly parts: readonly Part[];
}

/**
 * Checks a run's input before the first model call. `'sequential'` (default) guardrails run in
 * order before the model is called and may rewrite the prompt; `'parallel'` ones run alongside the
 * first model call (lower latency): a trip aborts that call, and nothing the model answered runs
 * or is returned before every parallel guardrail has passed. Parallel guardrails cannot rewrite.
 */
export interface InputGuardrail<Deps = unknown> {
  readonly name: string;
  readonly mode?: 'sequential' | 'parallel';
  check(
    input: GuardrailInput,
    ctx: GuardrailContext<Deps>,
  ): GuardrailResult<string> | Promise<GuardrailResult<string>>;
}

/**
 * Checks the decoded output before the run returns it; may rewrite it. `onTrip: 'retry'` turns a
 * trip into a correction (the reason goes back to the model) within `outputRetries`.
 */
export interface OutputGuardrail<Deps = unknown, Output = unknown> {
  readonly name: string;
  readonly onTrip?: 'fail' | 'retry';
  check(
    output: Output,
    ctx: GuardrailContext<Deps>,
  ): GuardrailResult<Output> | Promise<GuardrailResult<Output>>;
}

/** The tool call a tool guardrail checks. */
export interface GuardrailToolCall {
  readonly toolName: string;
  readonly callId: string;
  /**
   * The validated arguments (a `defineTool` tool's `args` schema output or `parse` result, a
   * decorated tool's DTO instance; the parsed JSON for a tool that validates on its own), after
   * any earlier guardrail's rewrite.
   */
  readonly args: unknown;
}

/**
 * Checks tool calls: `before` on the arguments before the tool runs (may rewrite them), `after`
 * on the text it returned (may rewrite it). `tools` limits it to those tool names (default: all).
 * `onTrip: 'retry'` turns a trip into a correction within the tool's retry budget.
 */
export interface ToolGuardrail<Deps = unknown> {
  readonly name: string;
  readonly tools?: readonly string[];
  readonly onTrip?: 'fail' | 'retry';
  before?(
    call: GuardrailToolCall,
    ctx: GuardrailContext<Deps>,
  ): GuardrailResult<unknown> | Promise<GuardrailResult<unknown>>;
  after?(
    call: GuardrailToolCall & { readonly result: string },
    ctx: GuardrailContext<Deps>,
  ): GuardrailResult<string> | Promise<GuardrailResult<string>>;
}

/** An agent's guardrails (`AgentConfig.guardrails`). */
export interface Guardrails<Deps = unknown, Output = unknown> {
  readonly input?: readonly InputGuardrail<Deps>[];
  readonly output?: readonly OutputGuardrail<Deps, Output>[];
  readonly tool?: readonly ToolGuardrail<Deps>[];
}

/**
 * What one check did, on `guardrail` run events.
 * @inline
 */
export interface GuardrailCheck {
  readonly name: string;
  readonly phase: GuardrailPhase;
  /** `retry`: a trip turned into a correction; `failed`: the check threw or answered nonsense. */
  readonly outcome: 'pass' | 'rewrite' | 'trip' | 'retry' | 'failed';
  /** The trip's reason, or why the check failed. */
  readonly reason?: string;
}

const PHASE_TEXT: Readonly<Record<GuardrailPhase, string>> = {
  input: 'the input',
  output: 'the output',
  tool_input: 'the arguments of',
  tool_output: 'the result of',
};

/**
 * A guardrail stopped the run (`outcome: 'tripped'`, with its `reason` and `details`) or could not
 * decide (`outcome: 'failed'`: the check threw — `cause` — or returned something other than a
 * verdict). The run fails at the `guardrail` stage with this as its cause.
 */
export class GuardrailError extends GolemError {
  readonly guardrail: string;
  readonly phase: GuardrailPhase;
  readonly outcome: 'tripped' | 'failed';
  /** The guardrail's reason (tripped) or what went wrong (failed). */
  readonly reason: string;
  /** What the guardrail attached to its trip, for the caller (never sent to the model). */
  readonly details: unknown;
  /** The checked call's tool, on tool phases. */
  readonly toolName: string | undefined;
  readonly callId: string | undefined;

  constructor(init: {
    guardrail: string;
    phase: GuardrailPhase;
    outcome: 'tripped' | 'failed';
    reason: string;
    details?: unknown;
    call?: { toolName: string; callId: string } | undefined;
    cause?: unknown;
  }) {
    const target =
      init.call === undefined
        ? PHASE_TEXT[init.phase]
        : `${PHASE_TEXT[init.phase]} tool "${init.call.toolName}" (call "${init.call.callId}")`;
    const what = init.outcome === 'tripped' ? 'tripped on' : 'failed while checking';
    super(
      'GuardrailError',
      `guardrail "${init.guardrail}" ${what} ${target}: ${init.reason}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.guardrail = init.guardrail;
    this.phase = init.phase;
    this.outcome = init.outcome;
    this.reason = init.reason;
    this.details = init.details;
    this.toolName = init.call?.toolName;
    this.callId = init.call?.callId;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<GuardrailError>('GuardrailError');
}
