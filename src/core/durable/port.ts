import type { StoredConversation, StoredRun, StoredWorkingMemory } from './records';

/** Which stored runs {@link RunStore.listRuns} returns. */
export interface RunFilter {
  /** Only runs in these statuses (e.g. `['paused']` for the runs awaiting decisions). */
  status?: readonly string[];
  /** Only runs of the agent with this name. */
  agent?: string;
  /** Only runs on this conversation. */
  conversationId?: string;
  /**
   * Only runs of this owner (the tenant or user key given at start). Golem's `listRuns` passes it;
   * a store adapter filters on it like on `agent`.
   */
  owner?: string;
  /** At most this many, newest `updatedAt` first; default 100. */
  limit?: number;
}

/**
 * A position in a conversation listing (newest `updatedAt` first, ties by `id` ascending): the
 * listing continues with the conversations after it. Pass the last conversation of a page.
 * @inline
 */
export interface ConversationCursor {
  updatedAt: number;
  id: string;
}

/** Which stored conversations {@link RunStore.listConversations} returns. */
export interface ConversationFilter {
  /** Only conversations of this owner. Default: any owner. */
  owner?: string;
  /**
   * Only conversations whose `title` contains this text, or whose `messages` JSON contains it as
   * JSON writes it inside a string (`JSON.stringify(text).slice(1, -1)`); ASCII letters compare
   * case-insensitively. A prefilter: it may also match tool arguments or JSON keys, and golem
   * narrows the rows to the messages' text. Without an index this reads every row of the owner.
   */
  text?: string;
  /** Only conversations listed after this one (keyset paging). */
  before?: ConversationCursor;
  /** At most this many, newest `updatedAt` first (ties by `id`); default 100. */
  limit?: number;
}

/** What {@link RunStore.migrate} did. */
export interface MigrationReport {
  /** The schema version before. */
  from: number;
  /** The schema version now (the newest this golem knows). */
  to: number;
  /** The versions applied, in order (empty when the schema was current). */
  applied: number[];
}

/** How {@link RunStore.replaceRun} and {@link RunStore.insertRun} may commit a write. */
export interface WriteOptions {
  /**
   * `false`: the write may be committed without waiting for the database's disk flush — it
   * survives the process dying, and the next flushed write makes it durable too (PostgreSQL:
   * `synchronous_commit = off` for that transaction; adapters may ignore it). Golem asks it only
   * for writes that a flushed write always follows before any tool runs: a run's start and a
   * final answer not yet decoded. Default `true`.
   */
  flush?: boolean;
}

/** The reads and writes of one {@link RunStore.transaction}: rows read are locked until it ends. */
export interface StoreTransaction {
  getRun(id: string): Promise<StoredRun | undefined>;
  getConversation(id: string): Promise<StoredConversation | undefined>;
  /** Inserts or replaces the run with this id. */
  putRun(run: StoredRun): Promise<void>;
  /** Inserts or replaces the conversation with this id. */
  putConversation(conversation: StoredConversation): Promise<void>;
}

/**
 * The run-store port: where durable runs keep their conversations and checkpoints. Golem ships
 * adapters for memory (`golem/stores/memory`), SQLite (`golem/stores/sqlite`) and PostgreSQL
 * (`golem/stores/postgres`); implement this interface for another database. Adapters store rows
 * verbatim — golem encodes, decodes, validates and applies the lease rules — and report failures
 * as `StoreError` (`unavailable` for a lost connection, `corrupt` for damaged data).
 */
export interface RunStore {
  /** How long a lease lasts without renewal, in ms. */
  readonly leaseMs: number;
  /** The store's clock (ms since the epoch); injectable so tests can expire leases. */
  now(): number;
  /** Applies pending schema migrations (additive, versioned); safe to call concurrently. */
  migrate(): Promise<MigrationReport>;
  /** Releases connections and handles; later calls fail with a `closed` StoreError. */
  close(): Promise<void>;
  getRun(id: string): Promise<StoredRun | undefined>;
  getConversation(id: string): Promise<StoredConversation | undefined>;
  listRuns(filter?: RunFilter): Promise<StoredRun[]>;
  /**
   * Replaces the run `run.id` only if its stored `version` is `expectedVersion` (the checkpoint
   * fast path: one conditional write); resolves `false` when it was not (or no such run exists).
   */
  replaceRun(run: StoredRun, expectedVersion: number, options?: WriteOptions): Promise<boolean>;
  /**
   * Optional fast path: inserts `run` unless a run with its id exists (resolves `false` then), in
   * one statement. Golem starts a run without a conversation with it; without it, with a
   * {@link RunStore.transaction}.
   */
  insertRun?(run: StoredRun, options?: WriteOptions): Promise<boolean>;
  /** Runs `body` atomically, the rows it reads locked against other writers until it ends. */
  transaction<T>(body: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Optional (threads): the conversations matching `filter`, whole rows, newest `updatedAt` first
   * (ties by `id` ascending). Rows are complete, so one written back never loses its messages.
   */
  listConversations?(filter: ConversationFilter): Promise<StoredConversation[]>;
  /**
   * Optional (threads): deletes the conversation `id` only if its stored `version` is
   * `expectedVersion` (a run claiming it meanwhile changes it); resolves whether it did. Golem
   * checks the owner and the active run first. The runs that used it are kept.
   */
  deleteConversation?(id: string, expectedVersion: number): Promise<boolean>;
  /** Optional (working memory): the working memory of `scope`, if stored. */
  getWorkingMemory?(scope: string): Promise<StoredWorkingMemory | undefined>;
  /**
   * Optional (working memory): stores `record` only if the stored version of `record.scope` is
   * `expectedVersion` — `0`: only if none is stored. Resolves `false` (nothing written) otherwise,
   * so of concurrent writers from the same version exactly one wins.
   */
  putWorkingMemory?(record: StoredWorkingMemory, expectedVersion: number): Promise<boolean>;
  /** Optional (working memory): deletes the working memory of `scope`; resolves whether one existed. */
  deleteWorkingMemory?(scope: string): Promise<boolean>;
}
