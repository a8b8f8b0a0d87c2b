/** Crash tests against a SQLite file: real child processes, SIGKILL, a fresh process resumes. */
import { join } from 'node:path';
import { sqliteStore } from 'golem/stores/sqlite';
import { crashCases } from './support/crash-cases';

jest.setTimeout(60_000); // two child processes per case, each loading the TypeScript sources

crashCases('sqlite', (dir) => {
  const path = join(dir, 'runs.db');
  return Promise.resolve({
    store: { kind: 'sqlite', path },
    open: () => sqliteStore({ path }),
    cleanup: () => Promise.resolve(),
  });
});
