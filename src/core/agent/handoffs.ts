import type { ToolSpec } from '../contract/request';
import { agentConfigError } from '../engine/errors';
import type { HandoffInputFilter } from '../engine/handoff-types';
import type { EngineConfig, HandoffRoute, HandoffTarget } from '../engine/run-config';
import { isRecord } from '../kit/guards';
import type { Message } from '../contract/message';
import { replayHandoffs } from '../engine/handoff';
import type { ActiveAgent } from './stored-run';
import type { Result } from '../engine/result';

/**
 * An agent a run may hand off to: any golem `Agent` whose `Output` is that of the agent handing
 * off (the run's output type stays one type). The target runs with the run's `deps`, so it should
 * take the same `Deps`.
 * @inline
 */
export interface HandoffAgent<Deps, Output> {
  /** Names the agent in results and events, and (unless `name` is given) its transfer tool. */
  readonly name: string;
  run(prompt: string, options: never): Promise<Result<Output> | { output: Output }>;
  /** Optional marker of the target's `Deps` (golem agents do not declare it). */
  readonly deps?: Deps;
}

/**
 * A handoff with options: the target (or a function returning it, for agents that hand off to
 * each other), the transfer tool's name and description, and an input filter.
 * @inline
 */
export interface HandoffOptions<Deps, Output> {
  /** The agent taking over, or a function returning it (then `name` is required). */
  agent: HandoffAgent<Deps, Output> | (() => HandoffAgent<Deps, Output>);
  /** Names the target (the tool is `transfer_to_<name>`); default the agent's `name`. */
  name?: string;
  /** What the model reads about when to hand off; default names the agent. */
  description?: string;
  /** Rewrites what the target sees of the conversation (see `HandoffInputFilter`). */
  inputFilter?: HandoffInputFilter<Deps>;
}

/**
 * One entry of an agent's `handoffs`: an agent, or an agent with options.
 * @inline
 */
export type Handoff<Deps, Output> = HandoffAgent<Deps, Output> | HandoffOptions<Deps, Output>;

/** How many handoffs a run may take by default. */
export const DEFAULT_MAX_HANDOFFS = 5;

const TARGETS = new WeakMap<object, () => HandoffTarget<never>>();

/** Records how `agent` runs as a handoff target (called by `Agent`'s constructor). Internal. */
export function registerHandoffTarget<Deps>(
  agent: object,
  target: () => HandoffTarget<Deps>,
): void {
  TARGETS.set(agent, target);
}

/** `agent` as a handoff target; a `ConfigError` when it is not a golem `Agent`. Internal. */
export function handoffTarget<Deps>(agent: unknown, where: string): HandoffTarget<Deps> {
  const target = typeof agent === 'object' && agent !== null ? TARGETS.get(agent) : undefined;
  if (target === undefined)
    throw agentConfigError(`${where}: the target is not a golem Agent (new Agent({...}))`);
  return target() as HandoffTarget<Deps>;
}

const NAME = /^[A-Za-z0-9_-]{1,52}$/;

/** The transfer tool of a target named `name`. Internal. */
export function transferToolName(name: string): string {
  return `transfer_to_${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * An agent's `handoffs` and `maxHandoffs`, validated: one route per transfer tool (names distinct
 * from the agent's tools and output tool). Targets given directly must be golem agents; targets
 * given as functions are resolved at the first handoff. Internal.
 */
export function handoffConfig<Deps>(
  handoffs: unknown,
  maxHandoffs: unknown,
  taken: ReadonlySet<string>,
): Pick<EngineConfig<Deps>, 'handoffs' | 'maxHandoffs'> {
  if (
    maxHandoffs !== undefined &&
    (typeof maxHandoffs !== 'number' || !Number.isSafeInteger(maxHandoffs) || maxHandoffs < 0)
  )
    throw agentConfigError('Agent `maxHandoffs` must be a non-negative integer');
  const limit = maxHandoffs ?? DEFAULT_MAX_HANDOFFS;
  if (handoffs === undefined) return { maxHandoffs: limit };
  if (!Array.isArray(handoffs))
    throw agentConfigError('Agent `handoffs` must be an array of agents or { agent, ... }');
  const routes = new Map<string, HandoffRoute<Deps>>();
  (handoffs as unknown[]).forEach((entry, i) => {
    const route = handoffRoute<Deps>(entry, `Agent \`handoffs[${i}]\``);
    const tool = route.spec.name;
    if (taken.has(tool) || routes.has(tool))
      throw agentConfigError(
        `Agent \`handoffs[${i}]\`: the transfer tool "${tool}" collides with another tool or handoff; give the handoff another \`name\``,
      );
    routes.set(tool, route);
  });
  return routes.size === 0 ? { maxHandoffs: limit } : { handoffs: routes, maxHandoffs: limit };
}

function handoffRoute<Deps>(entry: unknown, where: string): HandoffRoute<Deps> {
  const options: Record<string, unknown> =
    isRecord(entry) && 'agent' in entry && !TARGETS.has(entry) ? entry : { agent: entry };
  const { agent, name, description, inputFilter } = options;
  if (inputFilter !== undefined && typeof inputFilter !== 'function')
    throw agentConfigError(`${where}: \`inputFilter\` must be a function (input) => messages`);
  if (description !== undefined && typeof description !== 'string')
    throw agentConfigError(`${where}: \`description\` must be a string`);
  let resolve: () => HandoffTarget<Deps>;
  let agentName: string;
  let about: string | undefined;
  if (typeof agent === 'function') {
    if (typeof name !== 'string')
      throw agentConfigError(
        `${where}: a target given as a function needs \`name\` (the transfer tool is named before the target exists)`,
      );
    agentName = name;
    let cached: HandoffTarget<Deps> | undefined;
    resolve = () => (cached ??= handoffTarget<Deps>((agent as () => unknown)(), where));
  } else {
    const target = handoffTarget<Deps>(agent, where);
    agentName = typeof name === 'string' ? name : target.name;
    const said = (agent as { description?: unknown }).description;
    about = typeof said === 'string' && said.trim() !== '' ? said.trim() : undefined;
    resolve = () => target;
  }
  if (!NAME.test(agentName))
    throw agentConfigError(
      `${where}: the handoff name ${JSON.stringify(agentName)} must be 1-52 letters, digits, _ or - (it names the tool transfer_to_<name>); set \`name\``,
    );
  const spec: ToolSpec = {
    name: transferToolName(agentName),
    description:
      description ??
      `Hand the conversation over to the ${agentName} agent, which continues it from here.${about === undefined ? '' : ` About it: ${about}`}`,
    schema: { type: 'object', properties: {}, additionalProperties: false },
  };
  return {
    spec,
    agent: agentName,
    target: resolve,
    inputFilter: inputFilter as HandoffInputFilter<Deps> | undefined,
  };
}

/**
 * The agent answering a run of `root` whose transcript is `messages` (its own last `turns` model
 * turns), when the run handed off; `undefined` when it did not. Internal.
 */
export function activeAgent<Deps>(
  root: HandoffTarget<Deps>,
  messages: readonly Message[],
  turns: number | undefined,
): ActiveAgent<Deps> | undefined {
  const replayed = replayHandoffs(root, messages, turns);
  return replayed.path.length === 0 ? undefined : replayed;
}
