import type { ConversationFilter } from '../../core/durable/port';
import type { StoredConversation, StoredWorkingMemory } from '../../core/durable/records';
import { quote, StoreError } from '../../core/durable/store-error';
import { conversationLimit, jsonNeedle, likePattern } from '../../core/durable/conversation-search';
import { CONVERSATION_COLUMNS, toStoredConversation, toStoredWorkingMemory } from './rows';
import type { SqlClient, SqlTables } from './sql-client';

/**
 * The SQL of the threads and working-memory parts of the run-store port (schema version 5), for
 * {@link SqlRunStore}. PostgreSQL text cannot hold U+0000: a key containing it matches no row.
 * Internal.
 */
export class SqlThreads {
  constructor(
    private readonly client: () => Promise<SqlClient>,
    private readonly t: SqlTables,
    private readonly label: string,
  ) {}

  /** Conversations matching `filter`, newest first; see `RunStore.listConversations`. */
  async listConversations(filter: ConversationFilter): Promise<StoredConversation[]> {
    const client = await this.client();
    const postgres = client.dialect === 'postgres';
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.owner !== undefined) {
      if (postgres && filter.owner.includes('\u0000')) return [];
      where.push('owner = ?');
      params.push(filter.owner);
    }
    if (filter.text !== undefined) {
      // SQLite's LIKE folds ASCII letters; PostgreSQL's ILIKE folds at least those (a superset
      // golem narrows on the decoded messages).
      const like = postgres ? 'ILIKE' : 'LIKE';
      where.push(`(title ${like} ? ESCAPE '!' OR messages ${like} ? ESCAPE '!')`);
      params.push(likePattern(filter.text), likePattern(jsonNeedle(filter.text)));
    }
    if (filter.before !== undefined) {
      where.push('(updated_at < ? OR (updated_at = ? AND id > ?))');
      params.push(filter.before.updatedAt, filter.before.updatedAt, filter.before.id);
    }
    params.push(conversationLimit(filter));
    const rows = await client.all(
      `SELECT ${CONVERSATION_COLUMNS.join(', ')} FROM ${this.t.conversations}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY updated_at DESC, id ASC LIMIT ?`,
      postgres ? params.map(storable) : params,
    );
    return rows.map(toStoredConversation);
  }

  /** Deletes conversation `id` at `expectedVersion`; see `RunStore.deleteConversation`. */
  async deleteConversation(id: string, expectedVersion: number): Promise<boolean> {
    const client = await this.client();
    if (client.dialect === 'postgres' && id.includes('\u0000')) return false;
    const changed = await client.run(
      `DELETE FROM ${this.t.conversations} WHERE id = ? AND version = ?`,
      [id, expectedVersion],
    );
    return changed === 1;
  }

  async getWorkingMemory(scope: string): Promise<StoredWorkingMemory | undefined> {
    const client = await this.client();
    if (client.dialect === 'postgres' && scope.includes('\u0000')) return undefined;
    const rows = await client.all(
      `SELECT scope, value, version, updated_at FROM ${this.t.workingMemory} WHERE scope = ?`,
      [scope],
    );
    return rows[0] === undefined ? undefined : toStoredWorkingMemory(rows[0]);
  }

  async putWorkingMemory(record: StoredWorkingMemory, expectedVersion: number): Promise<boolean> {
    const client = await this.client();
    if (client.dialect === 'postgres' && record.scope.includes('\u0000'))
      throw new StoreError(
        `${this.label}: the working-memory scope ${quote(record.scope)} contains U+0000, which PostgreSQL text cannot hold; use scopes without control characters`,
        { reason: 'failed' },
      );
    const value = client.dialect === 'postgres' ? storable(record.value) : record.value;
    const changed =
      expectedVersion === 0
        ? await client.run(
            `INSERT INTO ${this.t.workingMemory} (scope, value, version, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope) DO NOTHING`,
            [record.scope, value, record.version, record.updatedAt],
          )
        : await client.run(
            `UPDATE ${this.t.workingMemory} SET value = ?, version = ?, updated_at = ? WHERE scope = ? AND version = ?`,
            [value, record.version, record.updatedAt, record.scope, expectedVersion],
          );
    return changed === 1;
  }

  async deleteWorkingMemory(scope: string): Promise<boolean> {
    const client = await this.client();
    if (client.dialect === 'postgres' && scope.includes('\u0000')) return false;
    const changed = await client.run(`DELETE FROM ${this.t.workingMemory} WHERE scope = ?`, [
      scope,
    ]);
    return changed > 0;
  }
}

/** A text parameter PostgreSQL can hold: U+0000 written as U+FFFD (as the store writes rows). */
function storable(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000')
    ? value.replaceAll('\u0000', '\ufffd')
    : value;
}
