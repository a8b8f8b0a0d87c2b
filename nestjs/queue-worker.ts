import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import type {
  AgentEntry,
  QueueAgent,
  RunQueueOptions,
  RunWorker,
  RunWorkerOptions,
} from '../src/queue/index';
import type { ConfigError } from '../src/core/index';
import { nestError, nameOf } from './errors';
import { loadQueue } from './queue-load';
import { definitionOf, getAgentToken, type AgentClass } from './tokens';

/** The token of the root options of `GolemQueueModule` (shared by its workers). */
export const GOLEM_QUEUE_OPTIONS = Symbol('GolemQueueModuleOptions');

/** The token of one `registerWorker`'s options. */
export const GOLEM_WORKER_OPTIONS = Symbol('GolemQueueWorkerOptions');

/**
 * Options of `GolemQueueModule.registerWorker`: what `runWorker` takes, except what the root
 * module holds (connection, store, name, prefix, limits, feed and job retention), with `agents`
 * given as agent classes.
 */
export interface GolemQueueWorkerOptions extends Omit<
  RunWorkerOptions,
  | 'connection'
  | 'store'
  | 'agents'
  | 'name'
  | 'prefix'
  | 'limits'
  | 'feed'
  | 'jobs'
  | 'clock'
  | 'onError'
> {
  /**
   * The agents this worker runs: agent classes registered with `GolemModule.forFeature` (anywhere
   * in the application), each under its class name; or a record of names to classes or engine
   * `Agent`s.
   */
  agents: readonly AgentClass[] | Readonly<Record<string, AgentClass | QueueAgent>>;
  /** On shutdown, stop the runs in progress at once and requeue them (default: finish them). */
  handoverOnShutdown?: boolean;
  /** Background errors of this worker; default the root options' `onError`. */
  onError?: RunWorkerOptions['onError'];
}

function invalid(message: string): ConfigError {
  return nestError(`GolemQueueModule.registerWorker: ${message}`, {
    reason: 'invalid-options',
  });
}

/**
 * One worker of `GolemQueueModule.registerWorker`: it starts when the application has
 * bootstrapped (every module initialised) and closes before it shuts down. Each job gets its agent
 * from Nest — a singleton agent is shared, a request-scoped one is built per job.
 */
@Injectable()
export class GolemQueueWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running: RunWorker | undefined;

  /** @internal Built by `GolemQueueModule.registerWorker`. */
  constructor(
    @Inject(GOLEM_QUEUE_OPTIONS) private readonly root: RunQueueOptions,
    @Inject(GOLEM_WORKER_OPTIONS) private readonly options: GolemQueueWorkerOptions,
    private readonly ref: ModuleRef,
  ) {}

  /** The running worker (`id`, `activeRuns`), once the application has bootstrapped. */
  get worker(): RunWorker | undefined {
    return this.running;
  }

  /** Checks the agents are provided, then starts taking jobs. */
  async onApplicationBootstrap(): Promise<void> {
    const { agents, handoverOnShutdown: _handover, onError, ...rest } = this.options;
    this.running = await loadQueue().runWorker({
      ...rest,
      connection: this.root.connection,
      store: this.root.store,
      ...(this.root.name !== undefined && { name: this.root.name }),
      ...(this.root.prefix !== undefined && { prefix: this.root.prefix }),
      ...(this.root.limits !== undefined && { limits: this.root.limits }),
      ...(this.root.feed !== undefined && { feed: this.root.feed }),
      ...(this.root.jobs !== undefined && { jobs: this.root.jobs }),
      ...(this.root.clock !== undefined && { clock: this.root.clock }),
      ...((onError ?? this.root.onError) !== undefined && {
        onError: onError ?? this.root.onError,
      }),
      agents: this.registry(agents),
    });
  }

  /** Stops taking jobs; finishes (or hands over) the runs in progress. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.running?.close({ handover: this.options.handoverOnShutdown === true });
  }

  private registry(agents: GolemQueueWorkerOptions['agents']): Record<string, AgentEntry> {
    const entries: [string, AgentClass | QueueAgent][] = Array.isArray(agents)
      ? (agents as readonly AgentClass[]).map((c) => [nameOf(c), c])
      : Object.entries(agents as Record<string, AgentClass | QueueAgent>);
    if (entries.length === 0) throw invalid('agents must name at least one agent');
    const registry: Record<string, AgentEntry> = {};
    for (const [name, entry] of entries) {
      if (name in registry)
        throw invalid(
          `two agents are named ${name}; a queue addresses agents by name, so give each a unique one`,
        );
      registry[name] = typeof entry === 'function' ? this.resolver(entry) : entry;
    }
    return registry;
  }

  /** A factory resolving the agent class from Nest per job (an unregistered class fails here). */
  private resolver(target: AgentClass): () => Promise<QueueAgent> {
    definitionOf(target, 'GolemQueueModule.registerWorker');
    const token = getAgentToken(target);
    try {
      this.ref.introspect(token);
    } catch (error) {
      throw nestError(
        `GolemQueueModule.registerWorker: ${nameOf(target)} is not registered: import GolemModule.forFeature([${nameOf(target)}]) in the application`,
        { reason: 'unregistered-agent', agent: nameOf(target), cause: error },
      );
    }
    return () =>
      this.ref.resolve<unknown, QueueAgent>(token, ContextIdFactory.create(), { strict: false });
  }
}
