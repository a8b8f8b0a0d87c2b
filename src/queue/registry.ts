import type {
  ContinueOptions,
  ResumeOptions,
  RunOptions,
  StreamOptions,
} from '../core/agent/config';
import type { DeferredResults } from '../core/engine/deferred-types';
import type { Result } from '../core/engine/result';
import type { Delta } from '../core/contract/delta';
import type { JsonValue } from '../core/kit/json';
import type { RunJobKind } from './job';
import { QueueError } from './queue-error';

/**
 * What a worker needs of an agent — every `Agent` fits, whatever its `Deps` and `Output` (its deps
 * come from the job as JSON; its tools validate what they use).
 */
export interface QueueAgent {
  /** The name stored with its runs. */
  readonly name: string;
  /** Whether its model streams (deltas are published only then). */
  readonly streaming: boolean;
  run(prompt: string, options?: RunOptions<unknown>): Promise<Result<unknown>>;
  runStream(
    prompt: string,
    options?: StreamOptions<unknown>,
  ): AsyncIterable<Delta> & { readonly result: Promise<Result<unknown>> };
  resume(
    runId: string,
    results: DeferredResults,
    options?: ResumeOptions<unknown>,
  ): Promise<Result<unknown>>;
  resumeRun(runId: string, options?: ContinueOptions<unknown>): Promise<Result<unknown>>;
}

/** What a factory knows about the job it builds an agent for. */
export interface AgentJobInfo {
  readonly runId: string;
  /** The registry name. */
  readonly agent: string;
  readonly kind: RunJobKind;
  readonly deps: JsonValue | undefined;
  /** 1-based delivery number. */
  readonly attempt: number;
}

/**
 * Builds the agent for one job: resolve it from a container (`() => resolveAgent(container,
 * WeatherAgent)`), or build one per job with collaborators of its own.
 */
export type AgentFactory = (job: AgentJobInfo) => QueueAgent | Promise<QueueAgent>;

/** One registry entry: a ready agent (shared by every job) or a factory called per job. */
export type AgentEntry = QueueAgent | AgentFactory;

/**
 * The agents a worker runs, by the name jobs use: a record (`{ support: supportAgent,
 * WeatherAgent: () => resolveAgent(container, WeatherAgent) }`) or a list of agents keyed by their
 * `name`. `enqueue(WeatherAgent, …)` with a class uses the class name, so register decorated
 * classes under it (the container glue `queueAgents(container, [WeatherAgent])` does).
 */
export type AgentRegistry = Readonly<Record<string, AgentEntry>> | readonly QueueAgent[];

function isAgentLike(value: unknown): value is QueueAgent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { run?: unknown }).run === 'function' &&
    typeof (value as { resumeRun?: unknown }).resumeRun === 'function'
  );
}

/** The registry as a map, validated (`invalid-options` naming a bad entry). */
export function registryMap(registry: AgentRegistry): ReadonlyMap<string, AgentEntry> {
  const map = new Map<string, AgentEntry>();
  const entries: [string, unknown][] = Array.isArray(registry)
    ? (registry as readonly unknown[]).map((agent, i) => [
        isAgentLike(agent) ? agent.name : `[${i}]`,
        agent,
      ])
    : Object.entries(registry as Record<string, unknown>);
  for (const [name, entry] of entries) {
    if (typeof entry !== 'function' && !isAgentLike(entry))
      throw new QueueError(
        `agents["${name}"] must be an Agent or a function returning one (job) => Agent`,
        { reason: 'invalid-options' },
      );
    if (map.has(name))
      throw new QueueError(`agents: two agents are named "${name}"; give each a unique name`, {
        reason: 'invalid-options',
      });
    map.set(name, entry as AgentEntry);
  }
  if (map.size === 0)
    throw new QueueError('agents must register at least one agent', { reason: 'invalid-options' });
  return map;
}

/** The agent for `info`, or `unknown-agent` naming the registered ones. */
export async function agentFor(
  registry: ReadonlyMap<string, AgentEntry>,
  info: AgentJobInfo,
): Promise<QueueAgent> {
  const entry = registry.get(info.agent);
  if (entry === undefined) {
    const known = [...registry.keys()].slice(0, 20).map((n) => JSON.stringify(n));
    throw new QueueError(
      `no agent named "${info.agent}" is registered with this worker (it runs ${known.join(', ')}): register it in runWorker({ agents }) or enqueue one of these`,
      { reason: 'unknown-agent', runId: info.runId },
    );
  }
  if (typeof entry !== 'function') return entry;
  const agent: unknown = await entry(info);
  if (!isAgentLike(agent))
    throw new QueueError(`the factory of agent "${info.agent}" did not return an Agent`, {
      reason: 'invalid-options',
      runId: info.runId,
    });
  return agent;
}
