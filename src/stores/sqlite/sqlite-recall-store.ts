import type { MigrationReport } from '../../core/durable/port';
import type {
  RecallDeleteFilter,
  RecallEntry,
  RecallHit,
  RecallQuery,
  RecallStore,
} from '../../core/durable/recall-port';
import { StoreError } from '../../core/durable/store-error';
import {
  checkDeleteFilter,
  checkIds,
  checkKey,
  chunks,
  prepareEntries,
  prepareQuery,
} from '../memory/recall-input';
import { fromRecallRow, RECALL_COLUMNS } from '../sql/recall-rows';
import { sqliteError } from './driver';
import type { SqliteRecallTables } from './recall-schema';
import { checkSqliteRecall, migrateSqliteRecall } from './recall-schema';
import type { RecallSqliteDatabase } from './recall-vec';

/** How entries are read back: the entry columns, table alias `e`. */
const COLUMNS = RECALL_COLUMNS.map((c) => `e.${c}`).join(', ');

/**
 * The SQLite recall store `sqliteRecallStore` opens: entries in a table, vectors in a sqlite-vec
 * `vec0` table sharing their rowid. better-sqlite3 is synchronous, so every call runs alone.
 * Internal.
 */
export class SqliteRecallStore implements RecallStore {
  readonly dimensions: number;
  private ready = false;
  private closed = false;

  constructor(
    private readonly db: RecallSqliteDatabase,
    private readonly t: SqliteRecallTables,
    private readonly label: string,
    private readonly owned: boolean,
    private readonly migrateOnOpen: boolean,
  ) {
    this.dimensions = t.dimensions;
  }

  migrate(): Promise<MigrationReport> {
    return this.run(() => {
      const report = migrateSqliteRecall(this.db, this.label, this.t, Date.now());
      this.ready = true;
      return report;
    }, false);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    if (!this.owned) return Promise.resolve();
    try {
      this.db.close();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(sqliteError(this.label, error));
    }
  }

  upsert(entries: readonly RecallEntry[]): Promise<void> {
    return this.run(() => {
      const prepared = prepareEntries(this.label, entries, this.dimensions);
      const { entries: e, vectors: v } = this.t;
      this.transaction(() => {
        for (const { entry, vector } of prepared) {
          const found = this.all(`SELECT seq FROM ${e} WHERE owner = ? AND id = ?`, [
            entry.owner,
            entry.id,
          ]);
          const fields = [
            entry.kind,
            entry.conversationId ?? null,
            entry.position ?? null,
            entry.documentId ?? null,
            entry.text,
            entry.metadata === undefined ? null : JSON.stringify(entry.metadata),
            entry.createdAt,
          ];
          let seq: bigint;
          if (found[0] !== undefined) {
            seq = BigInt(found[0].seq as number);
            this.write(
              `UPDATE ${e} SET kind = ?, conversation_id = ?, position = ?, document_id = ?, text = ?, metadata = ?, created_at = ? WHERE seq = ?`,
              [...fields, seq],
            );
            this.write(`DELETE FROM ${v} WHERE rowid = ?`, [seq]);
          } else {
            seq = BigInt(
              this.statement(
                `INSERT INTO ${e} (owner, id, kind, conversation_id, position, document_id, text, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
              ).run(entry.owner, entry.id, ...fields).lastInsertRowid,
            );
          }
          this.write(
            `INSERT INTO ${v} (rowid, embedding, owner, kind, conversation_id) VALUES (?, ?, ?, ?, ?)`,
            [
              seq,
              Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
              entry.owner,
              entry.kind,
              entry.conversationId ?? '',
            ],
          );
        }
      });
    });
  }

  query(query: RecallQuery): Promise<RecallHit[]> {
    return this.run(() => {
      const q = prepareQuery(this.label, query, this.dimensions);
      if (q.kinds?.length === 0) return [];
      if (q.conversationId !== undefined && q.conversationId === q.excludeConversationId) return [];
      const where = ['embedding MATCH ?', 'k = ?', 'owner = ?'];
      const params: unknown[] = [
        Buffer.from(q.vector.buffer, q.vector.byteOffset, q.vector.byteLength),
        q.topK,
        q.owner,
      ];
      if (q.kinds !== undefined && q.kinds.length < 2) {
        where.push(`kind IN (${q.kinds.map(() => '?').join(', ')})`);
        params.push(...q.kinds);
      }
      if (q.conversationId !== undefined) {
        where.push('conversation_id = ?');
        params.push(q.conversationId);
      }
      if (q.excludeConversationId !== undefined) {
        where.push('conversation_id != ?');
        params.push(q.excludeConversationId);
      }
      const rows = this.all(
        `SELECT ${COLUMNS}, knn.distance AS distance FROM (SELECT rowid, distance FROM ${this.t.vectors} WHERE ${where.join(' AND ')}) AS knn JOIN ${this.t.entries} AS e ON e.seq = knn.rowid ORDER BY knn.distance, e.id`,
        params,
      );
      const hits: RecallHit[] = [];
      for (const row of rows) {
        // sqlite-vec's cosine distance is 1 - similarity.
        const score = Math.max(-1, Math.min(1, 1 - Number(row.distance)));
        if (q.minScore !== undefined && score < q.minScore) break;
        hits.push({ entry: fromRecallRow(this.label, row), score });
      }
      return hits;
    });
  }

  has(owner: string, ids: readonly string[]): Promise<Set<string>> {
    return this.run(() => {
      const who = checkKey(this.label, 'owner', owner);
      const found = new Set<string>();
      for (const part of chunks(checkIds(this.label, 'ids', ids))) {
        const rows = this.all(
          `SELECT id FROM ${this.t.entries} WHERE owner = ? AND id IN (${part.map(() => '?').join(', ')})`,
          [who, ...part],
        );
        for (const row of rows) found.add(row.id as string);
      }
      return found;
    });
  }

  delete(filter: RecallDeleteFilter): Promise<number> {
    return this.run(() => {
      const f = checkDeleteFilter(this.label, filter);
      const base = `SELECT seq FROM ${this.t.entries} WHERE owner = ?${f.conversationId === undefined ? '' : ' AND conversation_id = ?'}`;
      const params: unknown[] =
        f.conversationId === undefined ? [f.owner] : [f.owner, f.conversationId];
      return this.transaction(() => {
        const seqs: bigint[] = [];
        const parts = f.ids === undefined ? [undefined] : chunks(f.ids);
        for (const part of parts) {
          const rows =
            part === undefined
              ? this.all(base, params)
              : this.all(`${base} AND id IN (${part.map(() => '?').join(', ')})`, [
                  ...params,
                  ...part,
                ]);
          for (const row of rows) seqs.push(BigInt(row.seq as number));
        }
        for (const seq of seqs) {
          this.write(`DELETE FROM ${this.t.vectors} WHERE rowid = ?`, [seq]);
          this.write(`DELETE FROM ${this.t.entries} WHERE seq = ?`, [seq]);
        }
        return seqs.length;
      });
    });
  }

  count(owner?: string): Promise<number> {
    return this.run(() => {
      const rows =
        owner === undefined
          ? this.all(`SELECT COUNT(*) AS n FROM ${this.t.entries}`, [])
          : this.all(`SELECT COUNT(*) AS n FROM ${this.t.entries} WHERE owner = ?`, [
              checkKey(this.label, 'owner', owner),
            ]);
      return Number(rows[0]?.n ?? 0);
    });
  }

  /**
   * Runs `body` on an open store whose schema is ready; errors become rejections (driver errors
   * as StoreErrors). better-sqlite3 is synchronous, so each call runs alone.
   */
  private run<T>(body: () => T, needsSchema = true): Promise<T> {
    try {
      if (this.closed)
        throw new StoreError(`${this.label}: the store is closed`, { reason: 'closed' });
      if (needsSchema && !this.ready) {
        if (this.migrateOnOpen) migrateSqliteRecall(this.db, this.label, this.t, Date.now());
        else checkSqliteRecall(this.db, this.label, this.t);
        this.ready = true;
      }
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(sqliteError(this.label, error));
    }
  }

  private transaction<T>(body: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = body();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite may have rolled back already (e.g. after SQLITE_FULL)
      }
      throw error;
    }
  }

  private readonly statements = new Map<string, ReturnType<RecallSqliteDatabase['prepare']>>();

  private statement(sql: string): ReturnType<RecallSqliteDatabase['prepare']> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private all(sql: string, params: readonly unknown[]): Record<string, unknown>[] {
    return this.statement(sql).all(...params) as Record<string, unknown>[];
  }

  private write(sql: string, params: readonly unknown[]): void {
    this.statement(sql).run(...params);
  }
}
