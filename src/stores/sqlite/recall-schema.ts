import type { MigrationReport } from '../../core/durable/port';
import type { RecallMigration } from '../sql/recall-schema';
import { checkMeta, metaTable, newest, outdated, READ_META, toMeta } from '../sql/recall-schema';
import type { RecallSqliteDatabase } from './recall-vec';

/** The SQLite recall tables of one `table` prefix. Internal. */
export interface SqliteRecallTables {
  readonly meta: string;
  /** One row per entry (`seq` is the rowid the vector shares). */
  readonly entries: string;
  /** The sqlite-vec `vec0` table: the vectors, partitioned by owner. */
  readonly vectors: string;
  readonly dimensions: number;
  readonly chunkSize: number;
}

/**
 * The schema. Vectors live in a `vec0` virtual table (cosine distance, 32-bit floats) whose
 * rowid is the entry's `seq`; `owner` is its partition key (a query scans only that owner's
 * vectors) and `kind` and `conversation_id` are metadata columns, filtered during the search so
 * a filtered query still returns up to `k` hits. `conversation_id` is `''` for none there.
 */
export const SQLITE_RECALL_MIGRATIONS: readonly RecallMigration<SqliteRecallTables>[] = [
  {
    version: 1,
    description: 'recall entries and their sqlite-vec index',
    statements: (t) => [
      `CREATE TABLE ${t.entries} (
        seq INTEGER PRIMARY KEY,
        owner TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        conversation_id TEXT,
        position INTEGER,
        document_id TEXT,
        text TEXT NOT NULL,
        metadata TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (owner, id))`,
      `CREATE INDEX ${t.entries}_conversation ON ${t.entries} (owner, conversation_id)`,
      `CREATE VIRTUAL TABLE ${t.vectors} USING vec0(
        embedding float[${t.dimensions}] distance_metric=cosine,
        owner text partition key,
        kind text,
        conversation_id text,
        chunk_size=${t.chunkSize})`,
    ],
  },
];

/** The newest SQLite recall schema version. */
export const SQLITE_RECALL_VERSION = newest(SQLITE_RECALL_MIGRATIONS);

function read(db: RecallSqliteDatabase, label: string, t: SqliteRecallTables) {
  const exists = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .all(t.meta);
  if (exists.length === 0) return { version: 0, dimensions: undefined };
  return toMeta(label, db.prepare(READ_META(t.meta)).all()[0] as Record<string, unknown>);
}

/** Checks the schema without changing it (`migrate: false`). */
export function checkSqliteRecall(
  db: RecallSqliteDatabase,
  label: string,
  t: SqliteRecallTables,
): void {
  const meta = read(db, label, t);
  checkMeta(label, meta, SQLITE_RECALL_VERSION, t.dimensions, `${t.entries}/${t.vectors}`);
  if (meta.version < SQLITE_RECALL_VERSION)
    throw outdated(label, meta.version, SQLITE_RECALL_VERSION);
}

/**
 * Applies the missing versions in one `BEGIN IMMEDIATE` transaction: other connections wait for
 * the write lock, then find the schema current (each version is applied once).
 */
export function migrateSqliteRecall(
  db: RecallSqliteDatabase,
  label: string,
  t: SqliteRecallTables,
  now: number,
): MigrationReport {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(metaTable(t.meta));
    const meta = read(db, label, t);
    checkMeta(label, meta, SQLITE_RECALL_VERSION, t.dimensions, `${t.entries}/${t.vectors}`);
    const applied: number[] = [];
    for (const migration of SQLITE_RECALL_MIGRATIONS) {
      if (migration.version <= meta.version) continue;
      for (const statement of migration.statements(t)) db.exec(statement);
      db.prepare(
        `INSERT INTO ${t.meta} (version, description, dimensions, applied_at) VALUES (?, ?, ?, ?)`,
      ).run(migration.version, migration.description, t.dimensions, now);
      applied.push(migration.version);
    }
    db.exec('COMMIT');
    return { from: meta.version, to: SQLITE_RECALL_VERSION, applied };
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite may have rolled back already
    }
    throw error;
  }
}
