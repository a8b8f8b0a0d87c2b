import { conversationMatches } from '../core/durable/conversation-search';
import type { RunStore, StoreTransaction } from '../core/durable/port';
import type { StoredConversation } from '../core/durable/records';
import { messagesJson, readMessages } from '../core/durable/records';
import { readMetadata, readTitle } from '../core/durable/thread-fields';
import { quote, StoreError } from '../core/durable/store-error';
import type { JsonValue } from '../core/kit/json';
import {
  checkCursor,
  checkCut,
  checkLimit,
  checkScope,
  checkText,
  checkThreadId,
  forkTitle,
  metadataJson,
} from './threads-input';
import type {
  Thread,
  ThreadCreateOptions,
  ThreadForkOptions,
  ThreadListOptions,
  ThreadScope,
  ThreadSearchOptions,
  ThreadWithMessages,
} from './threads-types';

/** Run statuses that hold a conversation. */
const LIVE = new Set(['running', 'paused']);
/** How many times `delete` tries again when a write moved the thread between its read and delete. */
const DELETE_ATTEMPTS = 3;

/**
 * Threads: the conversations of a run store (`agent.run(prompt, { conversation, owner })`) with a
 * title, metadata and an owner — list, search, rename, fork and delete them for a chat UI.
 *
 * **Every call checks the owner**: pass the tenant or user key the request speaks for as `owner`
 * (`owner: undefined`, written out, is an operator's unscoped access). A thread of another owner is
 * reported exactly like a missing one: the same `not-found` StoreError with the same message.
 * Invalid input (ids, titles, metadata, limits, cuts) is a `RunInputError` naming the fix.
 *
 * Needs golem's memory, SQLite or PostgreSQL store (schema version 5) or an adapter implementing
 * `listConversations` (for `list`/`search`) and `deleteConversation` (for `delete`).
 */
export class Threads {
  /** Threads over the conversations of `store`. */
  constructor(private readonly store: RunStore) {
    const s = store as Partial<RunStore> | null;
    if (typeof s !== 'object' || s === null || typeof s.getConversation !== 'function')
      throw new StoreError('Threads needs a run store (memoryStore, sqliteStore, postgresStore)', {
        reason: 'invalid-options',
      });
  }

  /** The owner's threads, newest `updatedAt` first; `before` continues after a previous page. */
  async list(options: ThreadListOptions): Promise<Thread[]> {
    const owner = checkScope('list', options);
    const limit = checkLimit(options.limit);
    const before = checkCursor(options.before);
    const rows = await this.listing('list')({
      ...(owner !== undefined && { owner }),
      ...(before !== undefined && { before }),
      limit,
    });
    return rows.filter((row) => visible(row, owner)).map(toThread);
  }

  /**
   * The owner's threads whose title or user/assistant message text contains `text` (ASCII letters
   * case-insensitively), newest first. Cost: there is no full-text index yet — the store scans the
   * owner's conversations with `LIKE` (SQL) over their stored JSON, and golem decodes each
   * candidate to confirm the match in the messages' text (not in tool arguments or results). Fine
   * for thousands of threads per owner; beyond that, index the text in your own search engine.
   */
  async search(options: ThreadSearchOptions): Promise<Thread[]> {
    const owner = checkScope('search', options);
    const text = checkText('text', (options as Partial<ThreadSearchOptions>).text);
    const limit = checkLimit(options.limit);
    let before = checkCursor(options.before);
    const list = this.listing('search');
    const page = Math.min(Math.max(limit * 2, 20), 500);
    const found: Thread[] = [];
    for (;;) {
      const rows = await list({
        ...(owner !== undefined && { owner }),
        ...(before !== undefined && { before }),
        text,
        limit: page,
      });
      for (const row of rows) {
        if (!visible(row, owner)) continue;
        const messages = readMessages(row.messages, 'conversation', row.id);
        if (!conversationMatches(readTitle(row), messages, text)) continue;
        found.push(toThread(row));
        if (found.length === limit) return found;
      }
      const last = rows.at(-1);
      if (rows.length < page || last === undefined) return found;
      before = { updatedAt: last.updatedAt, id: last.id };
    }
  }

  /** The thread `id` with its messages; `not-found` when it is missing or another owner's. */
  async get(id: string, scope: ThreadScope): Promise<ThreadWithMessages> {
    const owner = checkScope('get', scope);
    const row = await this.store.getConversation(checkThreadId(id));
    if (row === undefined || !visible(row, owner)) throw notFound(id, owner);
    return withMessages(row);
  }

  /** Creates an empty thread (a run on its id then continues it); `conflict` if the id is taken. */
  async create(options: ThreadCreateOptions): Promise<Thread> {
    const owner = checkScope('create', options);
    const id = options.id === undefined ? newId() : checkThreadId(options.id);
    const title = options.title === undefined ? null : checkText('title', options.title);
    const metadata = options.metadata === undefined ? null : metadataJson(options.metadata);
    const row = await this.store.transaction((tx) =>
      this.insert(tx, { id, messages: '[]', owner, title, metadata }),
    );
    return toThread(row);
  }

  /** Sets (or, with `null`, removes) the thread's title; allowed while a run is on it. */
  async rename(id: string, title: string | null, scope: ThreadScope): Promise<Thread> {
    const owner = checkScope('rename', scope);
    const value = title === null ? null : checkText('title', title);
    return this.update(id, owner, { title: value });
  }

  /** Replaces (or, with `null`, removes) the thread's metadata: a JSON object, ≤ 16 384 characters. */
  async setMetadata(
    id: string,
    metadata: Record<string, JsonValue> | null,
    scope: ThreadScope,
  ): Promise<Thread> {
    const owner = checkScope('setMetadata', scope);
    const value = metadata === null ? null : metadataJson(metadata);
    return this.update(id, owner, { metadata: value });
  }

  /**
   * A new thread holding the thread's first `atMessage` messages, with its owner and metadata and
   * the title `"<title> (fork)"` (or `title`). The original is untouched. A cut between a tool
   * call and its result is refused (`RunInputError` naming the nearest cuts), never moved.
   */
  async fork(id: string, options: ThreadForkOptions): Promise<ThreadWithMessages> {
    const owner = checkScope('fork', options);
    const source = await this.store.getConversation(checkThreadId(id));
    if (source === undefined || !visible(source, owner)) throw notFound(id, owner);
    const messages = readMessages(source.messages, 'conversation', source.id);
    const at = checkCut(messages, options.atMessage);
    const forkId = options.id === undefined ? newId() : checkThreadId(options.id, 'fork id');
    const title =
      options.title === undefined
        ? forkTitle(readTitle(source))
        : checkText('title', options.title);
    const metadata = readMetadata(source);
    const row = await this.store.transaction((tx) =>
      this.insert(tx, {
        id: forkId,
        messages: messagesJson(messages.slice(0, at)),
        owner: source.owner ?? undefined,
        title: title ?? null,
        metadata: metadata === undefined ? null : JSON.stringify(metadata),
      }),
    );
    return withMessages(row);
  }

  /**
   * Deletes the thread. Refused (`conflict`) while a run on it is running or paused — finish it
   * first. The runs that used it are kept (`loadRun` reads them; a failed one can no longer be
   * continued): delete them under your own retention rules.
   */
  async delete(id: string, scope: ThreadScope): Promise<void> {
    const owner = checkScope('delete', scope);
    const remove = this.store.deleteConversation?.bind(this.store);
    if (remove === undefined) throw missing('deleteConversation', 'delete');
    checkThreadId(id);
    for (let attempt = 1; ; attempt++) {
      const row = await this.store.getConversation(id);
      if (row === undefined || !visible(row, owner)) throw notFound(id, owner);
      if (row.activeRunId !== null) {
        const run = await this.store.getRun(row.activeRunId);
        if (run !== undefined && LIVE.has(run.status))
          throw new StoreError(
            `thread ${quote(id)} has an unfinished run ${quote(run.id)} (${run.status}); finish it first — agent.resume(${quote(run.id)}, results) for a paused run, agent.resumeRun(${quote(run.id)}) for an interrupted one — then delete the thread`,
            { reason: 'conflict', conversationId: id, runId: run.id },
          );
      }
      if (await remove(id, row.version)) return;
      if (attempt === DELETE_ATTEMPTS)
        throw new StoreError(
          `thread ${quote(id)} kept changing while it was being deleted (runs starting on it); try again`,
          { reason: 'conflict', conversationId: id },
        );
    }
  }

  /** The store's `listConversations`, or a clear error when the adapter has none. */
  private listing(method: string): NonNullable<RunStore['listConversations']> {
    const list = this.store.listConversations?.bind(this.store);
    if (list === undefined) throw missing('listConversations', method);
    return list;
  }

  /** Writes `fields` over the thread `id` in one transaction (a new version). */
  private async update(
    id: string,
    owner: string | undefined,
    fields: Pick<StoredConversation, 'title'> | Pick<StoredConversation, 'metadata'>,
  ): Promise<Thread> {
    checkThreadId(id);
    const row = await this.store.transaction(async (tx) => {
      const current = await tx.getConversation(id);
      if (current === undefined || !visible(current, owner)) throw notFound(id, owner);
      const next: StoredConversation = {
        ...current,
        ...fields,
        version: current.version + 1,
        updatedAt: this.store.now(),
      };
      await tx.putConversation(next);
      return next;
    });
    return toThread(row);
  }

  /** Inserts a new conversation row in `tx`, or throws `conflict` when the id is taken. */
  private async insert(
    tx: StoreTransaction,
    fields: Pick<StoredConversation, 'id' | 'messages' | 'title' | 'metadata'> & {
      owner: string | undefined;
    },
  ): Promise<StoredConversation> {
    if ((await tx.getConversation(fields.id)) !== undefined)
      throw new StoreError(
        `a stored conversation already has the id ${quote(fields.id)}; thread ids are unique across owners — omit \`id\` for a random one`,
        { reason: 'conflict', conversationId: fields.id },
      );
    const now = this.store.now();
    const row: StoredConversation = {
      ...fields,
      owner: fields.owner ?? null,
      activeRunId: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await tx.putConversation(row);
    return row;
  }
}

/** Whether `owner` (`undefined`: anyone) may see `row`. */
function visible(row: StoredConversation, owner: string | undefined): boolean {
  return owner === undefined || row.owner === owner;
}

/** The one error for a missing thread and for another owner's: the message depends on the scope only. */
function notFound(id: string, owner: string | undefined): StoreError {
  const of = owner === undefined ? '' : ' for this owner';
  return new StoreError(`no thread with the id ${quote(id)} exists${of}`, {
    reason: 'not-found',
    conversationId: id,
  });
}

function missing(method: string, call: string): StoreError {
  return new StoreError(
    `threads.${call} needs a run store with ${method} (golem's memory, SQLite and PostgreSQL stores have it); this store's adapter does not implement it`,
    { reason: 'invalid-options' },
  );
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** A row as a {@link Thread} (title and metadata validated; messages not decoded). */
function toThread(row: StoredConversation): Thread {
  return {
    id: row.id,
    owner: typeof row.owner === 'string' ? row.owner : undefined,
    title: readTitle(row),
    metadata: readMetadata(row),
    activeRunId: row.activeRunId ?? undefined,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

function withMessages(row: StoredConversation): ThreadWithMessages {
  return { ...toThread(row), messages: readMessages(row.messages, 'conversation', row.id) };
}
