import { throwIfCancelled } from '../errors/cancellation';
import { causeText } from '../kit/cause-text';
import { ModelRetry } from '../errors/errors';
import { isRecord } from '../kit/guards';
import { GolemError, brandGuard } from '../kit/error-base';
import type { Result } from '../engine/result';
import type { ToolContext } from '../tool/context';
import { defineTool } from '../tool/define-tool';
import type { Tool } from '../tool/tool';

/**
 * Options of `agent.asTool`.
 * @inline
 */
export interface AgentToolOptions<Output> {
  /**
   * Renders the sub-agent's output for the delegating model; also the hook to capture the inner
   * result. Throwing fails the delegating run at the `tool` stage.
   */
  render?: (
    output: Output,
    ctx: { signal: AbortSignal; result: Result<Output> },
  ) => string | Promise<string>;
  /**
   * Who the sub-agent's stored runs belong to (its `run(…, { owner })`; the sub-agent needs a run
   * store). A server that runs the tool for a caller builds one tool per owner.
   */
  owner?: string;
}

/** A delegated sub-agent's result could not be rendered to text. */
export class DelegationError extends GolemError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DelegationError', message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<DelegationError>('DelegationError');
}

/** The minimal surface of an agent that delegation needs. */
interface Runnable<Deps, Output> {
  run(
    prompt: string,
    options: { deps: Deps; signal: AbortSignal; owner?: string },
  ): Promise<Result<Output>>;
}

const PROMPT_DESCRIPTION =
  'The complete request for the sub-agent. It sees nothing else of this conversation, so include every detail it needs.';

/** Builds the tool behind `agent.asTool` (spec §22). */
export function agentTool<Deps, Output>(
  agent: Runnable<Deps, Output> | null | undefined,
  name: string,
  description: string,
  options: AgentToolOptions<Output>,
): Tool<Deps> {
  if (agent === undefined || agent === null) throw new TypeError('asTool needs an agent');
  return defineTool<Deps, string>({
    name,
    description,
    schema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: PROMPT_DESCRIPTION } },
      required: ['prompt'],
      additionalProperties: false,
    },
    parse: (args) => {
      if (!isRecord(args) || typeof args.prompt !== 'string') {
        throw new ModelRetry(
          'the arguments must be an object with a string prompt, e.g. {"prompt":"..."}',
        );
      }
      if (args.prompt === '') throw new ModelRetry('prompt is required');
      return args.prompt;
    },
    execute: async (prompt, ctx: ToolContext<Deps>) => {
      const result = await agent.run(prompt, {
        deps: ctx.deps,
        signal: ctx.signal,
        ...(options.owner !== undefined && { owner: options.owner }),
      });
      if (result.pending !== undefined) {
        throw new DelegationError(
          `sub-agent "${name}" paused on deferred tool calls; delegated agents must not defer`,
        );
      }
      if (options.render !== undefined) {
        try {
          return await options.render(result.output, { signal: ctx.signal, result });
        } catch (cause) {
          throw new DelegationError(`render result: ${causeText(cause)}`, { cause });
        }
      }
      throwIfCancelled(ctx.signal);
      if (typeof result.output === 'string') return result.output;
      try {
        const text: unknown = JSON.stringify(result.output);
        if (typeof text !== 'string') throw new TypeError('the output has no JSON form');
        return text;
      } catch (cause) {
        throw new DelegationError(`encode result: ${causeText(cause)}`, { cause });
      }
    },
  });
}
