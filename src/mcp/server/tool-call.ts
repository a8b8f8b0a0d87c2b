import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeadlineExceededError } from '../../core/errors/cancellation';
import { describeError } from '../../core/kit/error-base';
import { ModelRetry } from '../../core/errors/errors';
import { isRecord } from '../../core/kit/guards';
import type { ToolContext, ToolUpdate } from '../../core/tool/context';
import { Deferred } from '../../core/tool/errors';
import type { Tool } from '../../core/tool/tool';

/** What one call needs besides the tool and its arguments. Internal. */
export interface CallContext<Deps> {
  /** Builds the call's `deps` (a `depsFor` of the request); a failure is the call's failure. */
  deps: () => Deps | Promise<Deps>;
  /**
   * The tool that runs the call, when it depends on the request (an agent scoped to the
   * request's run owner); default the tool itself. A failure is the call's failure.
   */
  runner?: (() => Tool<Deps> | Promise<Tool<Deps>>) | undefined;
  /** Aborts when the client cancels the request (or the session ends). */
  signal: AbortSignal;
  callId: string;
  /** Deadline in ms (the tool's own `timeout` wins); ≥ MAX means none. */
  timeout: number;
  /** Checks the arguments against the tool's schema: undefined, or what is wrong. */
  validate: ((args: unknown) => string | undefined) | undefined;
  exposeErrors: boolean;
  onError: ((error: unknown, toolName: string) => void) | undefined;
  /** Sends a progress or log notification for this call. */
  report: (update: ToolUpdate) => void;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs a golem tool for an MCP `tools/call` and maps the outcome: the text → one text item;
 * `ModelRetry` → `isError` with its message (the calling model may correct itself); arguments
 * failing the schema → `isError` naming the problem; a passed deadline or a cancellation →
 * `isError` saying so; a tool that needs approval or defers → `isError` (an MCP server cannot
 * pause); anything else — a `deps` factory that throws included — → `isError`
 * `tool <name> failed` (with the message if `exposeErrors`). It never rejects.
 */
export async function runServedTool<Deps>(
  tool: Tool<Deps>,
  args: unknown,
  call: CallContext<Deps>,
): Promise<CallToolResult> {
  const input = args ?? {};
  if (!isRecord(input)) return errorResult(`the arguments of ${tool.name} must be a JSON object`);
  let problem: string | undefined;
  try {
    problem = call.validate?.(input);
  } catch (error) {
    return failure(tool.name, error, call);
  }
  if (problem !== undefined) return errorResult(`invalid arguments for ${tool.name}: ${problem}`);
  if (tool.approval !== undefined && tool.approval !== false) {
    return errorResult(
      `tool ${tool.name} requires human approval, which this MCP server cannot obtain`,
    );
  }
  const ms = tool.timeout !== undefined && tool.timeout > 0 ? tool.timeout : call.timeout;
  const timer = new AbortController();
  const handle = setTimeout(() => {
    timer.abort(new DeadlineExceededError(`tool "${tool.name}" exceeded its timeout of ${ms} ms`));
  }, ms);
  const signal = AbortSignal.any([call.signal, timer.signal]);
  try {
    // The deps are built under the call's deadline and cancellation, like the tool's own work.
    const deps = await abortable(Promise.resolve().then(call.deps), signal);
    const runner =
      call.runner === undefined
        ? tool
        : await abortable(Promise.resolve().then(call.runner), signal);
    const ctx: ToolContext<Deps> = {
      deps,
      signal,
      callId: call.callId,
      toolName: tool.name,
      rawArgs: JSON.stringify(input),
      approved: false,
      retry: 0,
      report: call.report,
    };
    const text: unknown = await abortable(Promise.resolve(runner.execute(input, ctx)), signal);
    if (typeof text !== 'string')
      return failure(tool.name, new TypeError(`returned ${typeof text}, not text`), call);
    return { content: [{ type: 'text', text }] };
  } catch (error) {
    if (timer.signal.aborted)
      return errorResult(`tool ${tool.name} exceeded its timeout of ${ms} ms`);
    if (call.signal.aborted) return errorResult(`tool ${tool.name} was cancelled`);
    if (ModelRetry.is(error)) return errorResult(error.reason);
    if (Deferred.is(error)) {
      return errorResult(
        `tool ${tool.name} deferred its call, which this MCP server cannot pause for`,
      );
    }
    return failure(tool.name, error, call);
  } finally {
    clearTimeout(handle);
  }
}

/**
 * The answer to a call that failed unexpectedly: `onError` observes the error, the client gets
 * `tool <name> failed` — with the error's message only when `exposeErrors` is set.
 */
export function failure(
  toolName: string,
  error: unknown,
  call: Pick<CallContext<unknown>, 'exposeErrors' | 'onError'>,
): CallToolResult {
  try {
    call.onError?.(error, toolName);
  } catch {
    // An observer never changes the answer.
  }
  return errorResult(
    call.exposeErrors
      ? `tool ${toolName} failed: ${describeError(error)}`
      : `tool ${toolName} failed`,
  );
}

/** Settles with `work`, or rejects as soon as `signal` aborts (a tool ignoring its signal). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error), { cause: error }));
      },
    );
  });
}
