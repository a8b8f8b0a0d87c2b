import type { RecallMigration } from '../sql/recall-schema';
import { newest } from '../sql/recall-schema';

/** The PostgreSQL recall objects of one schema and `table` prefix (qualified, quoted). Internal. */
export interface PostgresRecallTables {
  readonly meta: string;
  readonly entries: string;
  /** `<table>_dot(real[], float8[])`: the dot product of two vectors, in float8. */
  readonly dot: string;
  /** The prefix, unqualified (index names). */
  readonly prefix: string;
  readonly dimensions: number;
}

/**
 * The schema. Embeddings are `real[]` (unit vectors, 32-bit floats) of exactly `dimensions`
 * numbers (a CHECK constraint), so cosine similarity is their dot product, computed exactly by a
 * PL/pgSQL function over the owner's rows (the primary key `(owner, id)` finds them).
 *
 * A pgvector path needs no migration: pgvector casts `real[]` to `vector` with an immutable
 * function, so an expression index `USING hnsw ((embedding::vector(N)) vector_ip_ops)` can be
 * created on this table as it is, and a query ordering by `embedding::vector(N) <#> $1::vector`
 * uses it (approximate, filters applied after the index scan). Golem ships no such code: pgvector
 * is not installed where golem is tested.
 */
export const POSTGRES_RECALL_MIGRATIONS: readonly RecallMigration<PostgresRecallTables>[] = [
  {
    version: 1,
    description: 'recall entries and the dot-product function',
    statements: (t) => [
      `CREATE TABLE ${t.entries} (
        owner TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        conversation_id TEXT,
        position INTEGER,
        document_id TEXT,
        text TEXT NOT NULL,
        metadata TEXT,
        created_at BIGINT NOT NULL,
        embedding REAL[] NOT NULL CHECK (array_ndims(embedding) = 1 AND array_length(embedding, 1) = ${t.dimensions}),
        PRIMARY KEY (owner, id))`,
      `CREATE INDEX "${t.prefix}_conversation" ON ${t.entries} (owner, conversation_id)`,
      // PL/pgSQL measured faster than `SELECT sum(x * y) FROM unnest(a, b)` (≈130 vs ≈270 ms
      // for 10 000 rows of 256 dimensions on PostgreSQL 15).
      `CREATE FUNCTION ${t.dot}(a real[], b float8[]) RETURNS float8
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
        DECLARE s float8 := 0;
        BEGIN
          FOR i IN 1 .. array_length(a, 1) LOOP s := s + a[i] * b[i]; END LOOP;
          RETURN s;
        END $$`,
    ],
  },
];

/** The newest PostgreSQL recall schema version. */
export const POSTGRES_RECALL_VERSION = newest(POSTGRES_RECALL_MIGRATIONS);
