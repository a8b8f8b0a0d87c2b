import type { JsonValue, Tool, ToolContext } from '../core/index';
import type { RunToolOptions, StepContext } from './context';
import type { Execution } from './execution';
import { toJsonValue } from './json-value';
import { runStep } from './step-runner';

/** What a person decides about a tool step: run it, run it again, or record its result. */
interface ToolDecision {
  approved?: boolean;
  rerun?: boolean;
  result?: string;
}

/**
 * `wf.runTool`: a golem `Tool` as a step, with the agent loop's guarantees. A completed call
 * replays its result (never runs again). A call that was in flight when its process died runs
 * again only if the tool is `idempotent`; otherwise the step suspends for a decision —
 * `{ rerun: true }` runs it again, `{ result }` records what it did — as a run pauses on such a
 * call. A tool with an `approval` policy suspends for `{ approved }` before it runs (a denial
 * fails the step). Internal.
 */
export function runToolStep<Deps>(
  exec: Execution,
  name: string,
  tool: Tool<Deps>,
  args: unknown,
  options: RunToolOptions<Deps> = {},
): Promise<string> {
  const where = { runId: exec.runId, step: name };
  let rawArgs: string;
  try {
    rawArgs = JSON.stringify(toJsonValue(args, `the arguments of tool ${tool.name}`, where));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return runStep<string>(exec, {
    name,
    kind: 'step',
    options: {
      ...(options.retries !== undefined && { retries: options.retries }),
      ...(options.timeout !== undefined && { timeout: options.timeout }),
    },
    execute: async (ctx, record) => {
      const interrupted = ctx.interrupted && tool.idempotent !== true;
      const gated = tool.approval !== undefined && tool.approval !== false;
      // Resumed with a decision this step asked for: read it back.
      const decided = record.resumeData !== undefined || exec.hasPending(record.key);
      let approved = false;
      if (interrupted || gated || decided) {
        const decision = await ask(ctx, tool.name, interrupted);
        if (decision.result !== undefined) return decision.result;
        if (gated && decision.approved !== true && decision.rerun !== true)
          throw new Error(`tool ${tool.name} was not approved`);
        approved = true;
      }
      const context: ToolContext<Deps> = {
        deps: options.deps as Deps,
        signal: ctx.signal,
        callId: `${exec.runId}:${ctx.step}`,
        toolName: tool.name,
        rawArgs,
        approved,
        retry: ctx.attempt - 1,
        ...(exec.setup.info.owner !== undefined && { owner: exec.setup.info.owner }),
      };
      return await tool.execute(JSON.parse(rawArgs) as unknown, context);
    },
  });
}

/** Suspends the step for a decision about the call (its data read back on resume). */
async function ask(
  ctx: StepContext,
  toolName: string,
  interrupted: boolean,
): Promise<ToolDecision> {
  const reason = interrupted
    ? `tool ${toolName} was running when its process stopped and may have run: resume with { rerun: true } to run it again, or { result } to record what it did`
    : `tool ${toolName} needs approval: resume with { approved: true } or { approved: false }`;
  const data: JsonValue = await ctx.suspend({ reason, payload: { tool: toolName, interrupted } });
  const decision = (typeof data === 'object' && data !== null ? data : {}) as ToolDecision;
  if (decision.result !== undefined && typeof decision.result !== 'string')
    throw new TypeError(`the decision about tool ${toolName}: result must be a string`);
  return decision;
}
