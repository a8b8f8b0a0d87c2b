import { ModelRetry } from '../../model/errors';
import { isRecord } from '../../model/guards';
import type { ToolContext } from '../../tool/context';
import type { Tool } from '../../tool/tool';

/** What a served agent's run gives back that a call needs. */
interface RunOutcome {
  readonly output: unknown;
  readonly pending?: unknown;
}

/** A served agent's `run`, taking the run owner (a golem `Agent`'s). Internal. */
export type OwnedRun<Deps> = (
  prompt: string,
  options: { deps: Deps; signal: AbortSignal; owner?: string },
) => PromiseLike<RunOutcome>;

/**
 * The served tool of an agent (`agent.asTool`), running the agent with `owner`: the same name,
 * description, schema and answers (the prompt checked, a paused run refused, the output as text
 * or JSON), and the run stored with the request's owner. Internal.
 */
export function ownedAgentTool<Deps>(
  tool: Tool<Deps>,
  run: (
    prompt: string,
    options: { deps: Deps; signal: AbortSignal; owner: string },
  ) => PromiseLike<RunOutcome>,
  owner: string,
): Tool<Deps> {
  return {
    ...tool,
    execute: async (args: unknown, ctx: ToolContext<Deps>) => {
      if (!isRecord(args) || typeof args.prompt !== 'string') {
        throw new ModelRetry(
          'the arguments must be an object with a string prompt, e.g. {"prompt":"..."}',
        );
      }
      if (args.prompt === '') throw new ModelRetry('prompt is required');
      const result = await run(args.prompt, { deps: ctx.deps, signal: ctx.signal, owner });
      if (result.pending !== undefined) {
        throw new Error(
          `sub-agent "${tool.name}" paused on deferred tool calls; delegated agents must not defer`,
        );
      }
      if (typeof result.output === 'string') return result.output;
      const text: unknown = JSON.stringify(result.output);
      if (typeof text !== 'string') throw new TypeError('the output has no JSON form');
      return text;
    },
  };
}
