/** Threads and working-memory rows against a real PostgreSQL server, one fresh schema per test. */
import { postgresStore } from 'golem/stores/postgres';
import type { StoreFactory } from '../stores/support/contract-runs';
import { threadsContract } from '../stores/support/contract-threads';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

const factory: StoreFactory = (clock) => {
  const schema = schemaName();
  const store = postgresStore({ connectionString: POSTGRES_URL, schema, clock: clock.now });
  return Promise.resolve({
    store,
    cleanup: async () => {
      await store.close();
      await dropSchema(admin, schema);
    },
  });
};

threadsContract('postgres', factory);
