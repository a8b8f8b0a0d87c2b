import { cancellationError, DeadlineExceededError } from '../errors/cancellation';
import { describeError } from '../kit/error-base';
import { ModelRetry } from '../errors/errors';
import type { ToolCall } from '../contract/message';
import { parseUntrustedJson } from '../kit/safe-json';
import { isThenable } from '../kit/guards';
import type { ToolContext, ToolUpdate } from '../tool/context';
import { requireApproval } from '../tool/errors';
import type { Tool } from '../tool/tool';
import type { ToolGuard } from './guardrail-checks';
import { executeGuarded, toolText } from './guarded-execute';
import { withLazySignal } from './lazy-signal';
import type { RunCancellation, RunScope, SignalSource } from './run-signal';
import type { Middleware, ToolInvocation } from './middleware';
import { runToolChain } from './middleware-chain';

/** How one execution ended. Internal. */
export type ToolOutcome =
  { ok: true; text: string } | { ok: false; error: unknown; cancelled: boolean };

/** What one execution needs. Internal. */
export interface ExecutionInput<Deps> {
  tool: Tool<Deps>;
  call: ToolCall;
  deps: Deps;
  /** The run's cancellation and scope (its settings): checked without creating the run's signal. */
  run: RunCancellation & RunScope;
  /** Effective timeout in ms; <= 0 means none. */
  timeout: number;
  approved: boolean;
  retry: number;
  /** Delivers the tool's reports as run events; absent when the run is not observed. */
  report?: ((update: ToolUpdate) => void) | undefined;
  /** The tool guardrails of this call, when any applies. */
  guard?: ToolGuard | undefined;
  /** The agent's tool middleware, when it has any. */
  middleware?: ToolLayers | undefined;
}

/** The tool middleware of a run and who the run is. Internal. */
export interface ToolLayers {
  readonly layers: readonly Middleware[];
  readonly scope: ToolInvocation['scope'];
}

/**
 * Runs one tool call: parses its arguments defensively (invalid JSON → ModelRetry), applies the
 * approval policy, enforces the deadline, and never throws. After the tool settles, an aborted
 * run wins, then a passed deadline (even over a late success), then the tool's own outcome.
 */
export function executeTool<Deps>(input: ExecutionInput<Deps>): Promise<ToolOutcome> {
  const { run } = input;
  if (run.aborted)
    return Promise.resolve({ ok: false, error: cancellationError(run.signal), cancelled: true });
  // Not itself async: the deadline-free path's promise is returned as it is (no extra layer).
  return input.timeout <= 0 ? executeWithoutDeadline(input) : executeWithDeadline(input);
}

/** The tool under its deadline: a child controller aborted by the run or by the timer. */
async function executeWithDeadline<Deps>(input: ExecutionInput<Deps>): Promise<ToolOutcome> {
  const { tool, timeout } = input;
  const runSignal = input.run.signal;
  const controller = new AbortController();
  const onRunAbort = (): void => {
    controller.abort(runSignal.reason);
  };
  runSignal.addEventListener('abort', onRunAbort, { once: true });
  const deadline = { passed: false };
  const timer = setTimeout(() => {
    deadline.passed = true;
    controller.abort(
      new DeadlineExceededError(`tool "${tool.name}" exceeded its timeout of ${timeout} ms`),
    );
  }, Math.ceil(timeout));
  let outcome: ToolOutcome;
  try {
    outcome = { ok: true, text: await invoke(input, controller) };
  } catch (error) {
    outcome = { ok: false, error, cancelled: false };
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', onRunAbort);
  }
  if (isAborted(runSignal))
    return { ok: false, error: cancellationError(runSignal), cancelled: true };
  if (deadline.passed)
    return { ok: false, error: cancellationError(controller.signal), cancelled: true };
  return outcome;
}

/**
 * Without a deadline the tool sees the run's own signal: no controller, listener or timer per
 * call (the hot path of most runs), and a run that nothing can abort creates its signal only if
 * the tool reads `ctx.signal`. A run aborted meanwhile still wins over the tool's outcome.
 */
async function executeWithoutDeadline<Deps>(input: ExecutionInput<Deps>): Promise<ToolOutcome> {
  const { run } = input;
  let outcome: ToolOutcome;
  try {
    outcome = { ok: true, text: await invoke(input, run) };
  } catch (error) {
    outcome = { ok: false, error, cancelled: false };
  }
  if (run.aborted) return { ok: false, error: cancellationError(run.signal), cancelled: true };
  return outcome;
}

/** Reads `aborted` afresh (control-flow narrowing would keep an earlier check's result). */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/**
 * A call that needs none of the execution machinery — no deadline, approval policy, guardrail,
 * middleware, trace or observer: the same outcome as {@link executeTool} with one async frame
 * (and no promise of its own when the tool answers synchronously). Internal.
 */
export async function executePlain<Deps>(
  tool: Tool<Deps>,
  call: ToolCall,
  deps: Deps,
  run: RunCancellation & RunScope,
  retry: number,
): Promise<ToolOutcome> {
  if (run.aborted) return { ok: false, error: cancellationError(run.signal), cancelled: true };
  let outcome: ToolOutcome;
  try {
    const args = parseArgs(call);
    const ctx = callContext(deps, call, false, retry, undefined, run, run);
    const value = tool.execute(args, ctx);
    outcome = { ok: true, text: toolText(tool, isThenable(value) ? await value : value) };
  } catch (error) {
    outcome = { ok: false, error, cancelled: false };
  }
  if (abortedNow(run)) return { ok: false, error: cancellationError(run.signal), cancelled: true };
  return outcome;
}

/** Reads `aborted` afresh (control-flow narrowing would keep the earlier check's result). */
function abortedNow(run: RunCancellation): boolean {
  return run.aborted;
}

/** A call's arguments as JSON; invalid JSON is a `ModelRetry` asking the model to fix them. */
function parseArgs(call: ToolCall): unknown {
  try {
    return parseUntrustedJson(call.args);
  } catch (cause) {
    throw new ModelRetry(
      `the arguments are not valid JSON (${describeError(cause)}); send a JSON object matching the tool's schema`,
      { cause },
    );
  }
}

/** What a tool receives; `signal` reads through from `source` (created only if the tool reads it). */
function callContext<Deps>(
  deps: Deps,
  call: ToolCall,
  approved: boolean,
  retry: number,
  report: ((update: ToolUpdate) => void) | undefined,
  scope: RunScope,
  source: SignalSource,
): ToolContext<Deps> {
  const fields: { -readonly [K in keyof ToolContext<Deps>]?: ToolContext<Deps>[K] } = {
    deps,
    callId: call.id,
    toolName: call.name,
    rawArgs: call.args,
    approved,
    retry,
  };
  if (report !== undefined) fields.report = report;
  if (scope.owner !== undefined) fields.owner = scope.owner;
  if (scope.conversationId !== undefined) fields.conversationId = scope.conversationId;
  return withLazySignal(fields, source) as ToolContext<Deps>;
}

/** Runs the tool; `ctx.signal` is read through from `source` (the run, or the call's deadline). */
async function invoke<Deps>(input: ExecutionInput<Deps>, source: SignalSource): Promise<string> {
  const { tool, call } = input;
  const args = parseArgs(call);
  const ctx = callContext(
    input.deps,
    call,
    input.approved,
    input.retry,
    input.report,
    input.run,
    source,
  );
  if (!input.approved && tool.approval !== undefined && tool.approval !== false) {
    const needed = tool.approval === true ? true : await tool.approval(args, ctx);
    if (needed) throw requireApproval();
  }
  const { guard, middleware } = input;
  if (middleware === undefined) {
    if (guard !== undefined) return executeGuarded(tool, guard, args, ctx, source.signal);
    return toolText(tool, await tool.execute(args, ctx));
  }
  return runToolChain(
    middleware.layers,
    { tool: tool.name, callId: call.id, ctx: ctx, scope: middleware.scope },
    args,
    async (value) =>
      guard !== undefined
        ? executeGuarded(tool, guard, value, ctx, source.signal)
        : toolText(tool, await tool.execute(value, ctx)),
  );
}
