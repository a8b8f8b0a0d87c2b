import { defineTool, ModelRetry, type StandardSchemaV1, type Tool } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { validateWithSchema } from '../core/tool/standard-issues';
import { memoryScopeError } from './errors';
import type { MemoryScope, WorkingMemoryOptions } from './options';
import { patchSchemaOf } from './patch-schema';
import { loadRecord, type WorkingMemoryStore } from './working-memory-store';

/** Retries of an update whose record changed between its read and its write. */
export const WORKING_MEMORY_RETRIES = 3;

/** Finds the store of a working-memory scope key (the run's store, or `Memory`'s own). */
export type StoreLookup = (key: string) => WorkingMemoryStore;

/**
 * Working memory: the record of one scope (`owner:<id>` or `thread:<id>`), its block in the
 * instructions and the update tool. Internal to `Memory`.
 */
export class WorkingMemory {
  readonly scope: MemoryScope;
  readonly toolName: string;
  readonly tool: Tool;
  private readonly schema: StandardSchemaV1<unknown, object>;
  private readonly initial: Record<string, unknown>;

  constructor(options: WorkingMemoryOptions<object>, lookup: StoreLookup) {
    this.schema = options.schema;
    this.scope = options.scope ?? 'owner';
    this.toolName = options.toolName ?? 'update_working_memory';
    this.initial = { ...(options.initial as Record<string, unknown> | undefined) };
    const subject = this.scope === 'owner' ? 'the user' : 'this conversation';
    this.tool = defineTool({
      name: this.toolName,
      description: `Saves what you learned about ${subject} in your working memory. Pass only the fields that changed; null clears a field. Returns the updated record.`,
      schema: patchSchemaOf(options.schema),
      sequential: true,
      execute: async (args, ctx) => {
        const key = this.keyOf(ctx.owner, ctx.conversationId, `the ${this.toolName} tool`);
        const saved = await this.update(lookup(key), key, args);
        return `Saved. Working memory now: ${JSON.stringify(saved)}`;
      },
    });
  }

  /** The scope key of a run: `owner:<owner>` or `thread:<conversation>`; a `RunInputError` without one. */
  keyOf(owner: string | undefined, conversationId: string | undefined, part: string): string {
    if (this.scope === 'owner') {
      if (owner === undefined || owner === '') throw memoryScopeError('owner', part);
      return `owner:${owner}`;
    }
    if (conversationId === undefined || conversationId === '')
      throw memoryScopeError('conversation', part);
    return `thread:${conversationId}`;
  }

  /** The record of `key` (`initial` when none is stored). */
  async read(store: WorkingMemoryStore, key: string): Promise<Record<string, unknown>> {
    const { value } = await loadRecord(store, key);
    return value ?? { ...this.initial };
  }

  /** The `<working_memory>` block of `record`. */
  render(record: Record<string, unknown>): string {
    const subject = this.scope === 'owner' ? 'the user' : 'this conversation';
    return [
      '<working_memory>',
      `What you know about ${subject} (JSON). When you learn something new or a fact changes, call ${this.toolName} with the changed fields.`,
      // `<` escaped (still JSON): a stored value cannot close the block.
      JSON.stringify(record).replace(/</g, '\\u003c'),
      '</working_memory>',
    ].join('\n');
  }

  /**
   * Merges `patch` into the record of `key` (shallow; `null` clears a field), validates the
   * result against the schema and writes it if the record did not change meanwhile — else
   * re-reads and retries up to {@link WORKING_MEMORY_RETRIES} times. Invalid updates and lost
   * races are a `ModelRetry` for the model.
   */
  async update(
    store: WorkingMemoryStore,
    key: string,
    patch: unknown,
  ): Promise<Record<string, unknown>> {
    if (!isRecord(patch))
      throw new ModelRetry(
        `${this.toolName} takes an object of the fields to change, e.g. {"plan": "pro"}`,
      );
    for (let attempt = 0; attempt <= WORKING_MEMORY_RETRIES; attempt++) {
      const { value, version } = await loadRecord(store, key);
      const merged: Record<string, unknown> = { ...(value ?? this.initial) };
      for (const [field, next] of Object.entries(patch)) {
        if (next === null) Reflect.deleteProperty(merged, field);
        // Defined, not assigned: a `__proto__` key from the model stays a plain field.
        else
          Object.defineProperty(merged, field, {
            value: next,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      const valid = await validateWithSchema(this.schema, merged);
      if (!isRecord(valid))
        throw new ModelRetry(`${this.toolName}: the updated record is not an object`);
      const now = store.now?.() ?? Date.now();
      const written = await store.putWorkingMemory(
        { scope: key, value: JSON.stringify(valid), version: version + 1, updatedAt: now },
        version,
      );
      if (written) return valid;
    }
    throw new ModelRetry(
      `the working memory changed while ${this.toolName} was saving (${WORKING_MEMORY_RETRIES + 1} attempts); call ${this.toolName} again`,
    );
  }
}
