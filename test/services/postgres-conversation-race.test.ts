/**
 * Concurrent run starts on one new conversation against a real PostgreSQL server (issue 25, item
 * 2): a locking read of a row that does not exist locks nothing, so the store must still let
 * exactly one run claim the conversation, and must not leave a deadlocked run holding it.
 */
import { randomUUID } from 'node:crypto';
import { Agent } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { FunctionModel, textResponse } from 'golem/testing';
import { conversationRaceContract } from '../stores/support/contract-conversation-race';
import { dropSchema, pg, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

conversationRaceContract('postgres', () => {
  const schema = schemaName();
  const store = postgresStore({ connectionString: POSTGRES_URL, schema });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      await dropSchema(admin, schema);
    },
  });
});

/** Resolves once a backend of `application` waits for a lock (the server's own view). */
async function blockedOnLock(application: string): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [application],
    );
    if (rows[0]?.n === 1) return;
  }
  throw new Error(`no backend of ${application} ever waited for a lock`);
}

test('a transaction the server aborts to break a deadlock runs again instead of failing', async () => {
  const schema = schemaName();
  const application = `golem_deadlock_${randomUUID().slice(0, 8)}`;
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    max: 2,
    application_name: application,
  });
  pool.on('error', () => undefined);
  const store = postgresStore({ pool, schema });
  const holder = await admin.connect();
  try {
    const agent = new Agent({ store, model: new FunctionModel(() => textResponse('ok')) });
    await agent.run('hi', { conversation: 'c', runId: 'r' });
    // Another session holds the run's row; golem's transaction locks the conversation, then waits
    // for the run. Only golem's backend detects deadlocks here (the holder waits a minute first),
    // so golem's transaction is the one the server aborts.
    await holder.query(`SET deadlock_timeout = '1min'`);
    await holder.query('BEGIN');
    await holder.query(`SELECT id FROM "${schema}".golem_runs WHERE id = 'r' FOR UPDATE`);
    let attempts = 0;
    const done = store.transaction(async (tx) => {
      attempts++;
      await tx.getConversation('c');
      return (await tx.getRun('r'))?.id;
    });
    await blockedOnLock(application);
    // The cycle: the holder now wants the conversation golem's transaction locked.
    await holder.query(`SELECT id FROM "${schema}".golem_conversations WHERE id = 'c' FOR UPDATE`);
    await holder.query('COMMIT');
    await expect(done).resolves.toBe('r');
    // Aborted at least once (again if its retry took the conversation before the holder did).
    expect(attempts).toBeGreaterThanOrEqual(2);
  } finally {
    holder.release();
    await store.close();
    await pool.end();
    await dropSchema(admin, schema);
  }
});
