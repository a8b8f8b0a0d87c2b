/** The run-store contract against a real PostgreSQL server, one fresh schema per test. */
import { postgresStore } from 'golem/stores/postgres';
import { cachePointsContract } from '../stores/support/contract-cache-points';
import { recoveryContract } from '../stores/support/contract-recovery';
import { runsContract } from '../stores/support/contract-runs';
import { writesContract } from '../stores/support/contract-writes';
import { ownersContract } from '../stores/support/contract-owners';
import { conversationOrderContract } from '../stores/support/contract-conversation-order';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
afterAll(() => admin.end());

const factory = (clock: { now: () => number }) => {
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

runsContract('postgres', factory);
recoveryContract('postgres', factory);
cachePointsContract('postgres', factory);
writesContract('postgres', factory);
ownersContract('postgres', factory);
conversationOrderContract('postgres', factory);
