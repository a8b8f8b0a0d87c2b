/** Shared test helpers of the workflow suites: a controllable clock, gates, a small schema. */
import type { StandardSchemaV1 } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import type { MemoryRunStore } from 'golem/stores/memory';
import type { WorkflowDefinition, WorkflowEvent, WorkflowRunnerOptions } from 'golem/workflows';
import { WorkflowRunner } from 'golem/workflows';

/** A clock tests move by hand. */
export class Clock {
  time = 1_000_000;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** A promise opened by hand. */
export interface Gate<T = void> {
  promise: Promise<T>;
  open(value: T): void;
}

export function gate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Long leases: the renewal timer (every leaseMs / 3 of real time) never fires during a test. */
export const LEASE_MS = 600_000;

/** A memory store on a hand-moved clock. */
export function clockedStore(): { store: MemoryRunStore; clock: Clock } {
  const clock = new Clock();
  return { store: memoryStore({ clock: clock.now, leaseMs: LEASE_MS }), clock };
}

/** A runner whose retry waits are recorded instead of slept, and whose events are kept. */
export function runnerOn(
  store: MemoryRunStore,
  workflows: readonly WorkflowDefinition[],
  options: Partial<WorkflowRunnerOptions> = {},
): { runner: WorkflowRunner; events: WorkflowEvent[]; waits: number[] } {
  const events: WorkflowEvent[] = [];
  const waits: number[] = [];
  const runner = new WorkflowRunner({
    store,
    workflows,
    onEvent: (event) => events.push(event),
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { runner, events, waits };
}

/** A Standard Schema of objects whose `key` is a `type` value. */
export function objectSchema<T extends object>(
  fields: Record<string, 'string' | 'number' | 'boolean'>,
): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (value) => {
        if (typeof value !== 'object' || value === null)
          return { issues: [{ message: 'expected an object' }] };
        const issues = Object.entries(fields)
          .filter(([key, type]) => typeof (value as Record<string, unknown>)[key] !== type)
          .map(([key, type]) => ({ message: `expected ${type}`, path: [key] }));
        return issues.length > 0 ? { issues } : { value: value as T };
      },
    },
  };
}

/** Lets queued promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}
