import type { AgentMemory, MemoryContext } from '../core/agent/memory-port';
import type { Message, RunStore, Tool } from '../core/index';
import { checkMemoryOptions } from './check-options';
import { workingMemoryStoreError } from './errors';
import type { MemoryOptions, WorkingMemoryOptions } from './options';
import { SemanticRecall, type MemoryDocument } from './semantic-recall';
import { WorkingMemory } from './working-memory';
import { workingMemoryStore, type WorkingMemoryStore } from './working-memory-store';

/** Scope keys whose run store is remembered for the update tool (the oldest are forgotten). */
const REMEMBERED_STORES = 10_000;

/**
 * An agent's memory (`new Agent({ memory })`): a typed working-memory record per owner or
 * conversation, and semantic recall of earlier messages and documents. Before a run's first model
 * call, `recall` renders a `<working_memory>` and a `<recalled_context>` block that the agent
 * appends to its instructions; the `update_working_memory` tool updates the record; once the run
 * completes, `remember` embeds its new messages. Runs must have an `owner` (and a
 * `conversation` for thread-scoped parts): without one the run is rejected (`RunInputError`).
 *
 * ```ts
 * const memory = new Memory({
 *   workingMemory: { schema: z.object({ plan: z.string().optional() }) },
 *   recall: { store: memoryRecallStore({ dimensions: 256 }), embedder },
 * });
 * const agent = new Agent({ model, memory, store: memoryStore() });
 * await agent.run('I am on the Pro plan', { owner: 'user-1', conversation: 'thread-1' });
 * ```
 */
export class Memory<T extends object = Record<string, unknown>> implements AgentMemory {
  /** The tools memory adds to the agent: the working-memory update tool, when configured. */
  readonly tools: readonly Tool[];
  private readonly options: MemoryOptions<T>;
  private readonly working: WorkingMemory | undefined;
  private readonly semantic: SemanticRecall | undefined;
  private readonly fixedStore: WorkingMemoryStore | undefined;
  private readonly stores = new Map<string, WorkingMemoryStore>();
  private readonly derived = new WeakMap<object, Memory<object>>();

  /** Checks `options` eagerly: a `ConfigError` (component `memory`) names the option at fault. */
  constructor(options: MemoryOptions<T>) {
    const checked = checkMemoryOptions(options);
    this.options = options;
    this.fixedStore = checked.store === undefined ? undefined : workingMemoryStore(checked.store);
    this.working =
      checked.workingMemory === undefined
        ? undefined
        : new WorkingMemory(checked.workingMemory, (key) => this.storeOf(key));
    this.semantic = checked.recall === undefined ? undefined : new SemanticRecall(checked.recall);
    this.tools = this.working === undefined ? [] : [this.working.tool];
  }

  /**
   * The same memory (recall store, embedder and working-memory store) with another working
   * memory: how `golem/container` and `golem/nestjs` give a `@WorkingMemory` agent its own record.
   * One `Memory` per `workingMemory` object (the same object gives the same `Memory`).
   */
  withWorkingMemory<U extends object>(workingMemory: WorkingMemoryOptions<U>): Memory<U> {
    const known = this.derived.get(workingMemory);
    if (known !== undefined) return known as unknown as Memory<U>;
    const { workingMemory: _previous, ...rest } = this.options;
    const memory = new Memory<U>({ ...rest, workingMemory });
    this.derived.set(workingMemory, memory);
    return memory;
  }

  /** The `<working_memory>` and `<recalled_context>` blocks of a run (see {@link AgentMemory.recall}). */
  async recall(context: MemoryContext): Promise<string | undefined> {
    const blocks: string[] = [];
    if (this.working !== undefined) {
      const key = this.working.keyOf(context.owner, context.conversationId, 'working memory');
      const store = this.fixedStore ?? workingMemoryStore(context.store);
      this.note(key, store);
      blocks.push(this.working.render(await this.working.read(store, key)));
    }
    if (this.semantic !== undefined) {
      const block = await this.semantic.recall(context);
      if (block !== undefined) blocks.push(block);
    }
    return blocks.length === 0 ? undefined : blocks.join('\n\n');
  }

  /** Embeds and stores a completed run's new user and assistant messages (semantic recall only). */
  async remember(context: MemoryContext, added: readonly Message[]): Promise<void> {
    if (this.semantic !== undefined) await this.semantic.remember(context, added);
  }

  /**
   * Adds documents to `owner`'s recall (long texts split into chunks of at most 2,000
   * characters, paragraphs kept whole where they fit). Needs the `recall` option.
   */
  async addDocuments(
    owner: string,
    documents: readonly MemoryDocument[],
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    if (this.semantic === undefined)
      throw new TypeError('Memory.addDocuments needs the recall option ({ store, embedder })');
    await this.semantic.addDocuments(owner, documents, options?.signal);
  }

  /**
   * The current working-memory record of an owner (or, thread-scoped, a conversation) — what the
   * next run will see; `initial` when none is stored. `store` defaults to `Memory`'s own.
   */
  async workingMemory(target: {
    owner?: string;
    conversationId?: string;
    store?: RunStore;
  }): Promise<Partial<T>> {
    if (this.working === undefined)
      throw new TypeError('Memory.workingMemory needs the workingMemory option ({ schema })');
    const key = this.working.keyOf(target.owner, target.conversationId, 'working memory');
    const store =
      target.store === undefined
        ? (this.fixedStore ?? workingMemoryStore(undefined))
        : workingMemoryStore(target.store);
    return (await this.working.read(store, key)) as Partial<T>;
  }

  private note(key: string, store: WorkingMemoryStore): void {
    this.stores.delete(key);
    this.stores.set(key, store);
    if (this.stores.size > REMEMBERED_STORES) {
      const oldest = this.stores.keys().next().value;
      if (oldest !== undefined) this.stores.delete(oldest);
    }
  }

  /** The store of a scope key for the update tool: `Memory`'s own, else the one its run's recall saw. */
  private storeOf(key: string): WorkingMemoryStore {
    const store = this.fixedStore ?? this.stores.get(key);
    if (store === undefined) throw workingMemoryStoreError(undefined);
    return store;
  }
}
