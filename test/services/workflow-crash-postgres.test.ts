/** Workflow crash tests on PostgreSQL: real child processes, SIGKILL inside a step. */
import { postgresStore } from 'golem/stores/postgres';
import { workflowCrashCases } from '../src/workflows/crash-cases';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

jest.setTimeout(60_000); // a child process per case, loading the TypeScript sources

const admin = testPool();
afterAll(() => admin.end());

workflowCrashCases('postgres', () => {
  const schema = schemaName();
  return Promise.resolve({
    store: { kind: 'postgres', url: POSTGRES_URL, schema },
    open: (clock) => postgresStore({ connectionString: POSTGRES_URL, schema, clock }),
    cleanup: () => dropSchema(admin, schema),
  });
});
