/** Handoff crash tests against PostgreSQL: real child processes, SIGKILL, a fresh process continues. */
import { handoffCrashCases } from '../stores/support/handoff-crash-cases';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

jest.setTimeout(60_000); // two child processes per case, each loading the TypeScript sources

const admin = testPool();
afterAll(() => admin.end());

handoffCrashCases('postgres', () => {
  const schema = schemaName();
  return Promise.resolve({
    store: { kind: 'postgres', url: POSTGRES_URL, schema },
    cleanup: () => dropSchema(admin, schema),
  });
});
