/** Crash tests against PostgreSQL: real child processes, SIGKILL, a fresh process resumes. */
import { postgresStore } from 'golem/stores/postgres';
import { crashCases } from '../stores/support/crash-cases';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

jest.setTimeout(60_000); // two child processes per case, each loading the TypeScript sources

const admin = testPool();
afterAll(() => admin.end());

crashCases('postgres', () => {
  const schema = schemaName();
  return Promise.resolve({
    store: { kind: 'postgres', url: POSTGRES_URL, schema },
    open: () => postgresStore({ connectionString: POSTGRES_URL, schema }),
    cleanup: () => dropSchema(admin, schema),
  });
});
