import { StoreError } from '../../core/durable/store-error';

/**
 * The recall stores' schema bookkeeping, shared by the SQLite and PostgreSQL adapters: a
 * `<table>_meta` table with one row per applied version, each recording the embedding size the
 * tables were created for. Versioned separately from the run store's `golem_migrations`. Internal.
 */

/** One recall schema version: statements that only add, never drop or rewrite. */
export interface RecallMigration<T> {
  readonly version: number;
  readonly description: string;
  readonly statements: (tables: T) => readonly string[];
}

/** The newest recall schema version among `migrations`. */
export function newest<T>(migrations: readonly RecallMigration<T>[]): number {
  return migrations.reduce((v, m) => Math.max(v, m.version), 0);
}

/** `CREATE TABLE IF NOT EXISTS` of the meta table named `meta`. */
export function metaTable(meta: string): string {
  return `CREATE TABLE IF NOT EXISTS ${meta} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, dimensions INTEGER NOT NULL, applied_at BIGINT NOT NULL)`;
}

/** The version and embedding size recorded in the meta table (`0`, `undefined` before any). */
export const READ_META = (meta: string): string =>
  `SELECT MAX(version) AS version, MIN(dimensions) AS dimensions, MAX(dimensions) AS widest FROM ${meta}`;

/** What {@link READ_META} found. */
export interface RecallMeta {
  version: number;
  dimensions: number | undefined;
}

/** Reads a {@link READ_META} row; mixed sizes (a damaged table) are `corrupt`. */
export function toMeta(label: string, row: Record<string, unknown> | undefined): RecallMeta {
  const version = Number(row?.version ?? 0);
  const low =
    row?.dimensions === null || row?.dimensions === undefined ? undefined : Number(row.dimensions);
  if (low !== undefined && Number(row?.widest) !== low)
    throw new StoreError(
      `${label}: the recall meta table records different embedding sizes; restore it from a backup`,
      {
        reason: 'corrupt',
      },
    );
  return { version: Number.isFinite(version) ? version : 0, dimensions: low };
}

/** Checks what the database holds against what this store was opened with. */
export function checkMeta(
  label: string,
  meta: RecallMeta,
  known: number,
  dimensions: number,
  tables: string,
): void {
  if (meta.version > known)
    throw new StoreError(
      `${label}: the recall schema is at version ${meta.version}, newer than the ${known} this golem knows; upgrade golem (nothing was changed)`,
      { reason: 'schema-too-new' },
    );
  if (meta.dimensions !== undefined && meta.dimensions !== dimensions)
    throw new StoreError(
      `${label}: the tables ${tables} hold ${meta.dimensions}-dimension embeddings but the store was opened with \`dimensions: ${dimensions}\` (expected ${meta.dimensions}, got ${dimensions}); open it with the embedding model it was created for, or give another \`table\` name for the new model`,
      { reason: 'invalid-options' },
    );
}

/** The error for a schema that needs `migrate()` when the store was opened with `migrate: false`. */
export function outdated(label: string, version: number, known: number): StoreError {
  return new StoreError(
    `${label}: the recall schema is at version ${version} and this golem needs ${known}; run store.migrate() (the store was opened with migrate: false)`,
    { reason: 'schema-outdated' },
  );
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** The `table` option (the prefix of the recall tables), checked. */
export function checkTableName(store: string, table: unknown): string {
  if (typeof table !== 'string' || !TABLE_NAME.test(table))
    throw new StoreError(
      `${store}: \`table\` must be an identifier of at most 40 characters (a letter or "_", then letters, digits or "_")`,
      { reason: 'invalid-options' },
    );
  return table;
}
