import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunStore } from '../../core/durable/port';
import type { WorkflowStore } from '../../workflows/index';
import { quote, StoreError } from '../../core/durable/store-error';
import type { StoreOptions } from '../../core/durable/store-options';
import { storeSettings } from '../../core/durable/store-options';
import { SqlRunStore } from '../sql/sql-run-store';
import type { SqliteDatabase, SqliteDriverLoader } from './driver';
import { loadSqliteDriver, sqliteError } from './driver';
import { SqliteClient } from './sqlite-client';

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions extends StoreOptions {
  /** The database file (created if missing; its folder must exist), or `':memory:'`. */
  path: string;
  /**
   * `'normal'` (default): with the write-ahead log, a committed checkpoint survives the process
   * being killed, but the newest ones may be lost if the machine loses power. `'full'` syncs
   * every commit to disk (slower; survives power loss).
   */
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another process's write lock, in ms; default 5 000. */
  busyTimeout?: number;
  /** Migrate the schema on first use (default `true`); `false` only checks it (run `migrate()`). */
  migrate?: boolean;
  /** Loads `better-sqlite3`; inject one to bundle it differently. */
  driver?: SqliteDriverLoader;
}

/**
 * A run store in a SQLite file — the embedded default: zero setup, one file, safe for several
 * processes on one machine (write-ahead log; writers queue for the file's write lock). Uses the
 * optional peer `better-sqlite3` (`npm install better-sqlite3`). The file is opened at once;
 * a damaged file is a `corrupt` StoreError and is never modified. It is a workflow store too
 * (`golem/workflows`): workflow runs live in the same file as the agent runs inside them.
 *
 * ```ts
 * const store = sqliteStore({ path: 'runs.db' });
 * const agent = new Agent({ model, tools, store });
 * ```
 */
export function sqliteStore(options: SqliteStoreOptions): RunStore & WorkflowStore {
  if (typeof options !== 'object' || (options as unknown) === null)
    throw invalid('options must be an object with a `path`');
  const { path, synchronous = 'normal', busyTimeout = 5_000, migrate = true } = options;
  if (typeof path !== 'string' || path === '')
    throw invalid("`path` must be a file name (or ':memory:')");
  if (!['normal', 'full'].includes(synchronous))
    throw invalid("`synchronous` must be 'normal' or 'full'");
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0)
    throw invalid('`busyTimeout` must be a non-negative integer of milliseconds');
  const settings = storeSettings('sqliteStore', options);
  const label = `sqlite store ${quote(path)}`;
  const Driver = loadSqliteDriver(options.driver);
  const folder = missingFolder(path);
  if (folder !== undefined)
    throw new StoreError(
      `sqlite store: cannot open ${quote(path)}: the folder ${quote(folder)} does not exist; create it first (mkdir -p, or fs.mkdirSync(folder, { recursive: true })) — the store creates the file, not its folder`,
      { reason: 'unavailable', retryable: false },
    );
  let db: SqliteDatabase | undefined;
  try {
    db = new Driver(path, { timeout: busyTimeout });
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // the handle may not have opened
    }
    throw sqliteError(label, error);
  }
  const runs = 'golem_runs';
  return new SqlRunStore({
    label,
    client: new SqliteClient(db, label),
    tables: {
      runs,
      conversations: 'golem_conversations',
      migrations: 'golem_migrations',
      workingMemory: 'golem_working_memory',
      workflowRuns: 'golem_workflow_runs',
      lockSuffix: '',
    },
    leaseMs: settings.leaseMs,
    clock: settings.clock,
    migrateOnOpen: migrate,
    prelude: [],
  });
}

/** The folder of a database file when it does not exist (`':memory:'` and `file:` URIs have none). */
function missingFolder(path: string): string | undefined {
  const file = path.trim();
  if (file === ':memory:' || file.startsWith('file:')) return undefined;
  const folder = dirname(resolve(file));
  return existsSync(folder) ? undefined : folder;
}

function invalid(problem: string): StoreError {
  return new StoreError(`sqliteStore: ${problem}`, { reason: 'invalid-options' });
}
