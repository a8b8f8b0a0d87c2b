import type {
  ConversationFilter,
  MigrationReport,
  RunFilter,
  RunStore,
  StoreTransaction,
} from '../../core/durable/port';
import type {
  StoredConversation,
  StoredRun,
  StoredWorkingMemory,
} from '../../core/durable/records';
import { StoreError } from '../../core/durable/store-error';
import type { StoreOptions } from '../../core/durable/store-options';
import { storeSettings } from '../../core/durable/store-options';
import { selectConversations } from './select-conversations';
import { selectRuns } from './select-runs';
import type { StoredWorkflowRun, WorkflowRunFilter, WorkflowStore } from '../../workflows/index';
import { WorkflowRunTable } from './workflow-runs';

/**
 * A run store in this process's memory: for tests and examples. It follows the same rules as the
 * database stores (leases, versions, conversation claims) but keeps nothing after the process
 * ends. Rows are copied in and out, so nothing outside can change them. It keeps workflow runs
 * too (the `WorkflowStore` port of `golem/workflows`).
 */
export class MemoryRunStore implements RunStore, WorkflowStore {
  readonly leaseMs: number;
  private readonly clock: () => number;
  private readonly runs = new Map<string, StoredRun>();
  private readonly conversations = new Map<string, StoredConversation>();
  private readonly workingMemory = new Map<string, StoredWorkingMemory>();
  private readonly workflowRuns = new WorkflowRunTable();
  private lock: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: StoreOptions = {}) {
    const settings = storeSettings('memoryStore', options);
    this.leaseMs = settings.leaseMs;
    this.clock = settings.clock;
  }

  now(): number {
    return this.clock();
  }

  migrate(): Promise<MigrationReport> {
    this.open();
    return Promise.resolve({ from: 1, to: 1, applied: [] });
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  getRun(id: string): Promise<StoredRun | undefined> {
    this.open();
    const run = this.runs.get(id);
    return Promise.resolve(run === undefined ? undefined : { ...run });
  }

  getConversation(id: string): Promise<StoredConversation | undefined> {
    this.open();
    const conversation = this.conversations.get(id);
    return Promise.resolve(conversation === undefined ? undefined : { ...conversation });
  }

  listRuns(filter: RunFilter = {}): Promise<StoredRun[]> {
    this.open();
    return Promise.resolve(selectRuns([...this.runs.values()], filter).map((run) => ({ ...run })));
  }

  listConversations(filter: ConversationFilter = {}): Promise<StoredConversation[]> {
    this.open();
    const rows = selectConversations([...this.conversations.values()], filter);
    return Promise.resolve(rows.map((c) => ({ ...c })));
  }

  deleteConversation(id: string, expectedVersion: number): Promise<boolean> {
    return this.exclusive(
      () =>
        this.conversations.get(id)?.version === expectedVersion && this.conversations.delete(id),
    );
  }

  getWorkingMemory(scope: string): Promise<StoredWorkingMemory | undefined> {
    this.open();
    const record = this.workingMemory.get(scope);
    return Promise.resolve(record === undefined ? undefined : { ...record });
  }

  putWorkingMemory(record: StoredWorkingMemory, expectedVersion: number): Promise<boolean> {
    return this.exclusive(() => {
      const current = this.workingMemory.get(record.scope);
      if (expectedVersion === 0 ? current !== undefined : current?.version !== expectedVersion)
        return false;
      this.workingMemory.set(record.scope, { ...record });
      return true;
    });
  }

  deleteWorkingMemory(scope: string): Promise<boolean> {
    return this.exclusive(() => this.workingMemory.delete(scope));
  }

  replaceRun(run: StoredRun, expectedVersion: number): Promise<boolean> {
    return this.exclusive(() => {
      const current = this.runs.get(run.id);
      if (current?.version !== expectedVersion) return false;
      this.runs.set(run.id, { ...run });
      return true;
    });
  }

  insertRun(run: StoredRun): Promise<boolean> {
    return this.exclusive(() => {
      if (this.runs.has(run.id)) return false;
      this.runs.set(run.id, { ...run });
      return true;
    });
  }

  // Workflow runs: failures (closed store, a field of the wrong type) reject, never throw.
  getWorkflowRun(id: string): Promise<StoredWorkflowRun | undefined> {
    return Promise.resolve().then(() => {
      this.open();
      return this.workflowRuns.get(id);
    });
  }

  insertWorkflowRun(run: StoredWorkflowRun): Promise<boolean> {
    return Promise.resolve().then(() => this.exclusive(() => this.workflowRuns.insert(run)));
  }

  replaceWorkflowRun(run: StoredWorkflowRun, expectedVersion: number): Promise<boolean> {
    return Promise.resolve().then(() =>
      this.exclusive(() => this.workflowRuns.replace(run, expectedVersion)),
    );
  }

  listWorkflowRuns(filter: WorkflowRunFilter = {}): Promise<StoredWorkflowRun[]> {
    return Promise.resolve().then(() => {
      this.open();
      return this.workflowRuns.list(filter);
    });
  }

  transaction<T>(body: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const runs = new Map<string, StoredRun>();
      const conversations = new Map<string, StoredConversation>();
      const tx: StoreTransaction = {
        getRun: (id) => {
          const run = runs.get(id) ?? this.runs.get(id);
          return Promise.resolve(run === undefined ? undefined : { ...run });
        },
        getConversation: (id) => {
          const c = conversations.get(id) ?? this.conversations.get(id);
          return Promise.resolve(c === undefined ? undefined : { ...c });
        },
        putRun: (run) => {
          runs.set(run.id, { ...run });
          return Promise.resolve();
        },
        putConversation: (conversation) => {
          conversations.set(conversation.id, { ...conversation });
          return Promise.resolve();
        },
      };
      const result = await body(tx);
      // Committed only when the body succeeded: a throw leaves the store as it was.
      for (const [id, run] of runs) this.runs.set(id, run);
      for (const [id, c] of conversations) this.conversations.set(id, c);
      return result;
    });
  }

  /** Runs `body` after every earlier write, so writes never interleave. */
  private exclusive<T>(body: () => T | Promise<T>): Promise<T> {
    this.open();
    const next = this.lock.then(body);
    this.lock = next.catch(() => undefined);
    return next;
  }

  private open(): void {
    if (this.closed) throw new StoreError('memoryStore: the store is closed', { reason: 'closed' });
  }
}

/** A new {@link MemoryRunStore}. */
export function memoryStore(options: StoreOptions = {}): MemoryRunStore {
  return new MemoryRunStore(options);
}
