import type { MigrationReport } from '../../core/durable/port';
import type {
  RecallDeleteFilter,
  RecallEntry,
  RecallHit,
  RecallQuery,
  RecallStore,
} from '../../core/durable/recall-port';
import { StoreError } from '../../core/durable/store-error';
import type { PreparedEntry } from '../memory/recall-input';
import {
  checkDeleteFilter,
  checkIds,
  checkKey,
  chunks,
  clampScore,
  prepareEntries,
  prepareQuery,
} from '../memory/recall-input';
import { checkMeta, metaTable, outdated, READ_META, toMeta } from '../sql/recall-schema';
import { fromRecallRow, RECALL_COLUMNS } from '../sql/recall-rows';
import type { PgPool, PgPoolClient, PgResult } from './driver';
import { postgresError } from './driver';
import type { PostgresRecallTables } from './recall-schema';
import { POSTGRES_RECALL_MIGRATIONS, POSTGRES_RECALL_VERSION } from './recall-schema';

/** Rows per INSERT (10 parameters each, well under PostgreSQL's 65 535). */
const BATCH = 500;
const SELECT = RECALL_COLUMNS.join(', ');

/**
 * The PostgreSQL recall store `postgresRecallStore` opens: one row per entry, similarity computed
 * by the `<table>_dot` function over the owner's rows. Internal.
 */
export class PostgresRecallStore implements RecallStore {
  readonly dimensions: number;
  private ready: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly pool: PgPool,
    private readonly t: PostgresRecallTables,
    private readonly label: string,
    private readonly owned: boolean,
    private readonly migrateOnOpen: boolean,
    /** Statements run first in `migrate()`'s transaction (the lock, the schema). */
    private readonly prelude: readonly string[],
  ) {
    this.dimensions = t.dimensions;
  }

  async migrate(): Promise<MigrationReport> {
    this.open();
    const report = await this.transaction(async (query) => {
      for (const statement of this.prelude) await query(statement);
      await query(metaTable(this.t.meta));
      const meta = toMeta(this.label, (await query(READ_META(this.t.meta))).rows[0]);
      checkMeta(this.label, meta, POSTGRES_RECALL_VERSION, this.dimensions, this.t.entries);
      const applied: number[] = [];
      for (const migration of POSTGRES_RECALL_MIGRATIONS) {
        if (migration.version <= meta.version) continue;
        for (const statement of migration.statements(this.t)) await query(statement);
        await query(
          `INSERT INTO ${this.t.meta} (version, description, dimensions, applied_at) VALUES ($1, $2, $3, $4)`,
          [migration.version, migration.description, this.dimensions, Date.now()],
        );
        applied.push(migration.version);
      }
      return { from: meta.version, to: POSTGRES_RECALL_VERSION, applied };
    });
    this.ready = Promise.resolve();
    return report;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.owned) await this.pool.end();
  }

  async upsert(entries: readonly RecallEntry[]): Promise<void> {
    this.open();
    // The last entry of an owner and id wins (one INSERT cannot update a row twice).
    const latest = new Map<string, PreparedEntry>();
    for (const p of prepareEntries(this.label, entries, this.dimensions))
      latest.set(JSON.stringify([p.entry.owner, p.entry.id]), p);
    // In key order, so concurrent upserts lock shared rows in one order (no deadlock).
    const sorted = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const batches = chunks(
      sorted.map(([, p]) => p),
      BATCH,
    );
    await this.schema();
    const write = async (query: Query, batch: PreparedEntry[]) => {
      const values: unknown[] = [];
      const rows = batch.map(({ entry, vector }) => {
        const at = values.length;
        values.push(
          entry.owner,
          entry.id,
          entry.kind,
          entry.conversationId ?? null,
          entry.position ?? null,
          entry.documentId ?? null,
          // PostgreSQL text cannot hold U+0000.
          entry.text.replaceAll('\u0000', '\ufffd'),
          entry.metadata === undefined ? null : JSON.stringify(entry.metadata),
          entry.createdAt,
          arrayLiteral(vector),
        );
        return `(${Array.from({ length: 10 }, (_, i) => `$${at + i + 1}`).join(', ')}::real[])`;
      });
      await query(
        `INSERT INTO ${this.t.entries} (${SELECT}, embedding) VALUES ${rows.join(', ')}
         ON CONFLICT (owner, id) DO UPDATE SET kind = excluded.kind, conversation_id = excluded.conversation_id,
           position = excluded.position, document_id = excluded.document_id, text = excluded.text,
           metadata = excluded.metadata, created_at = excluded.created_at, embedding = excluded.embedding`,
        values,
      );
    };
    if (batches.length === 1)
      await write((sql, params) => this.exec(sql, params), batches[0] ?? []);
    else if (batches.length > 1)
      await this.transaction(async (query) => {
        for (const batch of batches) await write(query, batch);
      });
  }

  async query(query: RecallQuery): Promise<RecallHit[]> {
    this.open();
    const q = prepareQuery(this.label, query, this.dimensions);
    if (q.kinds?.length === 0) return [];
    const params: unknown[] = [q.owner, arrayLiteral(q.vector)];
    const where = ['owner = $1'];
    if (q.kinds !== undefined && q.kinds.length < 2) {
      params.push([...q.kinds]);
      where.push(`kind = ANY($${params.length}::text[])`);
    }
    if (q.conversationId !== undefined) {
      params.push(q.conversationId);
      where.push(`conversation_id = $${params.length}`);
    }
    if (q.excludeConversationId !== undefined) {
      params.push(q.excludeConversationId);
      where.push(`conversation_id IS DISTINCT FROM $${params.length}`);
    }
    let scoreFilter = '';
    if (q.minScore !== undefined) {
      params.push(q.minScore);
      scoreFilter = ` WHERE score >= $${params.length}`;
    }
    params.push(q.topK);
    await this.schema();
    const { rows } = await this.exec(
      `SELECT * FROM (SELECT ${SELECT}, ${this.t.dot}(embedding, $2::float8[]) AS score FROM ${this.t.entries} WHERE ${where.join(' AND ')}) AS scored${scoreFilter} ORDER BY score DESC, id LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      entry: fromRecallRow(this.label, row),
      score: clampScore(Number(row.score)),
    }));
  }

  async has(owner: string, ids: readonly string[]): Promise<Set<string>> {
    this.open();
    const who = checkKey(this.label, 'owner', owner);
    const list = checkIds(this.label, 'ids', ids);
    const found = new Set<string>();
    if (list.length === 0) return found;
    await this.schema();
    const { rows } = await this.exec(
      `SELECT id FROM ${this.t.entries} WHERE owner = $1 AND id = ANY($2::text[])`,
      [who, list],
    );
    for (const row of rows) found.add(row.id as string);
    return found;
  }

  async delete(filter: RecallDeleteFilter): Promise<number> {
    this.open();
    const f = checkDeleteFilter(this.label, filter);
    const params: unknown[] = [f.owner];
    let sql = `DELETE FROM ${this.t.entries} WHERE owner = $1`;
    if (f.conversationId !== undefined) {
      params.push(f.conversationId);
      sql += ` AND conversation_id = $${params.length}`;
    }
    if (f.ids !== undefined) {
      if (f.ids.length === 0) return 0;
      params.push(f.ids);
      sql += ` AND id = ANY($${params.length}::text[])`;
    }
    await this.schema();
    return (await this.exec(sql, params)).rowCount ?? 0;
  }

  async count(owner?: string): Promise<number> {
    this.open();
    const who = owner === undefined ? undefined : checkKey(this.label, 'owner', owner);
    await this.schema();
    const { rows } =
      who === undefined
        ? await this.exec(`SELECT COUNT(*) AS n FROM ${this.t.entries}`)
        : await this.exec(`SELECT COUNT(*) AS n FROM ${this.t.entries} WHERE owner = $1`, [who]);
    return Number(rows[0]?.n ?? 0);
  }

  private async exec(sql: string, params: readonly unknown[] = []): Promise<PgResult> {
    try {
      return await this.pool.query(sql, [...params]);
    } catch (error) {
      throw postgresError(this.label, error);
    }
  }

  /** Runs `body` in one transaction on a checked-out connection. */
  private async transaction<T>(body: (query: Query) => Promise<T>): Promise<T> {
    let client: PgPoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw postgresError(this.label, error);
    }
    const query: Query = async (sql, params = []) => {
      try {
        return await client.query(sql, [...params]);
      } catch (error) {
        throw postgresError(this.label, error);
      }
    };
    let broken = false;
    try {
      await query('BEGIN');
      const result = await body(query);
      await query('COMMIT');
      return result;
    } catch (error) {
      broken = StoreError.isReason(error, 'unavailable');
      if (!broken) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Waits until the schema is migrated (or checked, with `migrate: false`). */
  private async schema(): Promise<void> {
    this.ready ??= this.migrateOnOpen ? this.migrate().then(() => undefined) : this.check();
    try {
      await this.ready;
    } catch (error) {
      this.ready = undefined; // a later call tries again (the server may be back)
      throw error;
    }
  }

  private async check(): Promise<void> {
    const exists = await this.exec(`SELECT to_regclass($1) AS name`, [this.t.meta]);
    const meta =
      exists.rows[0]?.name === null || exists.rows[0]?.name === undefined
        ? { version: 0, dimensions: undefined }
        : toMeta(this.label, (await this.exec(READ_META(this.t.meta))).rows[0]);
    checkMeta(this.label, meta, POSTGRES_RECALL_VERSION, this.dimensions, this.t.entries);
    if (meta.version < POSTGRES_RECALL_VERSION)
      throw outdated(this.label, meta.version, POSTGRES_RECALL_VERSION);
  }

  private open(): void {
    if (this.closed)
      throw new StoreError(`${this.label}: the store is closed`, { reason: 'closed' });
  }
}

type Query = (sql: string, params?: readonly unknown[]) => Promise<PgResult>;

/**
 * A vector as a PostgreSQL array literal, 9 significant digits a number (exact for 32-bit
 * floats): about half the text `pg` sends for a JS array, which it quotes number by number.
 */
function arrayLiteral(vector: Float32Array): string {
  return `{${Array.from(vector, (x) => x.toPrecision(9)).join(',')}}`;
}
