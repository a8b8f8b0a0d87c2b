import type { SqlClient, SqlRow } from '../sql/sql-client';
import type { SqliteDatabase, SqliteStatement } from './driver';
import { sqliteError } from './driver';

/**
 * A {@link SqlClient} over one better-sqlite3 connection. The driver is synchronous, so every
 * operation runs alone: operations queue behind each other, and a transaction holds the queue
 * (and SQLite's write lock, `BEGIN IMMEDIATE`) until it ends. Internal.
 */
export class SqliteClient implements SqlClient {
  readonly dialect = 'sqlite';
  private readonly statements = new Map<string, SqliteStatement>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly label: string,
  ) {}

  all(sql: string, params: readonly unknown[] = []): Promise<SqlRow[]> {
    return this.exclusive(() => this.allNow(sql, params));
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.exclusive(() => this.runNow(sql, params));
  }

  transaction<T>(body: (client: SqlClient) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      this.execNow('BEGIN IMMEDIATE');
      const inside: SqlClient = {
        dialect: 'sqlite',
        all: (sql, params = []) => Promise.resolve(this.allNow(sql, params)),
        run: (sql, params = []) => Promise.resolve(this.runNow(sql, params)),
        transaction: () => Promise.reject(new Error('nested transactions are not supported')),
        close: () => Promise.resolve(),
      };
      try {
        const result = await body(inside);
        this.execNow('COMMIT');
        return result;
      } catch (error) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // SQLite may have rolled back already (e.g. after SQLITE_FULL).
        }
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.exclusive(() => {
      this.db.close();
    });
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private allNow(sql: string, params: readonly unknown[]): SqlRow[] {
    try {
      return this.statement(sql).all(...params) as SqlRow[];
    } catch (error) {
      throw sqliteError(this.label, error);
    }
  }

  private runNow(sql: string, params: readonly unknown[]): number {
    try {
      return this.statement(sql).run(...params).changes;
    } catch (error) {
      throw sqliteError(this.label, error);
    }
  }

  private execNow(sql: string): void {
    try {
      this.db.exec(sql);
    } catch (error) {
      throw sqliteError(this.label, error);
    }
  }

  private exclusive<T>(body: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(body);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
