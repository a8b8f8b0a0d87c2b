import { existsSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import {
  ConfigError,
  hasKind,
  loadRun,
  type Model,
  type RunRecord,
  type RunStore,
} from '../core/index';
import { isRecord } from '../core/kit/guards';
import type { RunDetail, StudioQueueState } from './api-types';
import { runDetail } from './run-detail';
import { SpanStore } from './span-store';
import type { StudioAgent, StudioOptions, StudioQueue } from './studio-options';
import { queueStateOf } from './studio-queue';
import type { SsePoller } from './studio-sse';

/** What every route of one studio shares: its settled options and its running state. */
export interface StudioContext {
  readonly store: RunStore;
  readonly token: string;
  readonly agents: ReadonlyMap<string, StudioAgent>;
  readonly models: ReadonlyMap<string, Model>;
  /** The owner the studio is scoped to, if any. */
  readonly owner: string | undefined;
  /** The run queue actions go through, if one is configured. */
  readonly queue: StudioQueue | undefined;
  readonly traces: boolean;
  readonly spans: SpanStore;
  readonly pollMs: number;
  readonly allowedHosts: ReadonlySet<string>;
  readonly appDir: string;
  readonly reports: string | undefined;
  /** The open live streams (stopped by `close`). */
  readonly pollers: Set<SsePoller>;
  /** The runs the studio started and has not seen end. */
  readonly background: Set<Promise<void>>;
  /** Gives an internal error to `onError` and returns the ref the client sees. */
  report(error: unknown, where: string): string;
  /** Starts `work` in the background (its failure goes to {@link StudioContext.report}). */
  startBackground(where: string, work: () => Promise<unknown>): void;
  /** The run `id` the studio may see, or undefined (unknown, or another owner's). */
  findRun(id: string): Promise<RunRecord | undefined>;
  /** The detail of a run as the studio shows it now (`queue`: where the queue has it). */
  detailOf(record: RunRecord, queue?: StudioQueueState): RunDetail;
  /**
   * The detail of a run with its place on the queue, when the studio has one (a run the queue
   * does not know has none; a queue that cannot answer is reported and leaves it out).
   */
  liveDetailOf(record: RunRecord): Promise<RunDetail>;
}

function fail(option: string, problem: string): never {
  throw new ConfigError(`createStudio: ${option} ${problem}`, { component: 'studio', option });
}

function agentsOf(value: StudioOptions['agents']): Map<string, StudioAgent> {
  const map = new Map<string, StudioAgent>();
  const list = value === undefined ? [] : Array.isArray(value) ? value : Object.values(value);
  for (const agent of list as readonly StudioAgent[]) {
    if (!isRecord(agent) || typeof agent.run !== 'function' || typeof agent.name !== 'string')
      fail('agents', 'must hold golem Agents');
    map.set(agent.name, agent);
  }
  return map;
}

/** How long a run detail waits for the queue's state of the run. */
const QUEUE_WAIT_MS = 3000;

const QUEUE_METHODS = ['status', 'decide', 'recover', 'cancel'] as const;

function queueOf(value: unknown): StudioQueue | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || QUEUE_METHODS.some((m) => typeof value[m] !== 'function'))
    fail('queue', 'must be a golem/queue RunQueue (status, decide, recover, cancel)');
  return value as unknown as StudioQueue;
}

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) fail(option, 'must be a positive integer');
  return value;
}

function isNotFound(error: unknown): boolean {
  return hasKind(error, 'StoreError') && (error as { reason?: unknown }).reason === 'not-found';
}

/** Checks `options` (a `ConfigError` of component 'studio' names the bad one) and builds the context. */
export function studioContext(options: StudioOptions): StudioContext {
  if (!isRecord(options)) fail('options', 'must be an object { store, … }');
  const store: RunStore = options.store;
  if (!isRecord(store) || typeof store.listRuns !== 'function')
    fail('store', 'must be a golem RunStore');
  if (
    options.token !== undefined &&
    (typeof options.token !== 'string' || options.token.length < 16)
  )
    fail('token', 'must be a string of at least 16 characters');
  const agents = agentsOf(options.agents);
  const owner = options.owner;
  const queue = queueOf(options.queue);
  const spans = new SpanStore(positive('maxSpans', options.maxSpans, 50_000));
  const background = new Set<Promise<void>>();

  const report = (error: unknown, where: string): string => {
    const ref = randomUUID().slice(0, 8);
    try {
      options.onError?.(error, { ref, where });
    } catch {
      // a failing hook must not keep the client from its answer
    }
    return ref;
  };

  const detailOf = (record: RunRecord, state?: StudioQueueState): RunDetail =>
    runDetail(record, {
      spans: spans.ofRun(record.id),
      cost: spans.costOfRun(record.id),
      now: Date.now(),
      hasAgent: agents.has(record.agent),
      hasQueue: queue !== undefined,
      ...(state !== undefined && { queue: state }),
    });

  return {
    store,
    token: options.token ?? randomBytes(32).toString('base64url'),
    agents,
    models: new Map(Object.entries(options.models ?? {})),
    owner,
    queue,
    traces: options.traces ?? true,
    spans,
    pollMs: positive('pollMs', options.pollMs, 500),
    allowedHosts: new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase())),
    appDir: options.appDir ?? defaultAppDir(),
    reports: options.reports,
    pollers: new Set<SsePoller>(),
    background,
    report,
    startBackground: (where, work) => {
      const task = work().then(
        () => undefined,
        (error: unknown) => void report(error, where),
      );
      background.add(task);
      void task.finally(() => background.delete(task));
    },
    findRun: async (id) => {
      try {
        return await loadRun(store, id, owner === undefined ? {} : { owner });
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    detailOf,
    liveDetailOf: async (record) => {
      if (queue === undefined) return detailOf(record);
      let state: StudioQueueState | undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        // A queue that does not answer (Redis down: its calls wait for the reconnect) must not
        // hold the detail: after QUEUE_WAIT_MS the detail goes out without the queue's state.
        state = await Promise.race([
          queueStateOf(queue, record.id, owner),
          new Promise<never>((_resolve, reject) => {
            timer = setTimeout(() => {
              reject(new Error(`the run queue did not answer within ${String(QUEUE_WAIT_MS)} ms`));
            }, QUEUE_WAIT_MS);
          }),
        ]);
      } catch (error) {
        report(error, `queue status ${record.id}`);
      } finally {
        clearTimeout(timer);
      }
      return detailOf(record, state);
    },
  };
}

/**
 * Where the built app is: beside the compiled module (`dist/src/studio` → `dist/studio/app`), or,
 * running from golem's TypeScript sources (a checkout), the build's `dist/studio/app` — never the
 * app's sources (`studio/app`), which a browser cannot run.
 */
function defaultAppDir(): string {
  const compiled = resolvePath(__dirname, '../../studio/app');
  if (existsSync(resolvePath(__dirname, 'index.js'))) return compiled;
  return resolvePath(__dirname, '../../dist/studio/app');
}
