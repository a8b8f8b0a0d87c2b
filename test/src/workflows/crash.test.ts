/** Workflow crash tests on a SQLite file: real child processes, SIGKILL inside a step. */
import { join } from 'node:path';
import { sqliteStore } from 'golem/stores/sqlite';
import { workflowCrashCases } from './crash-cases';

jest.setTimeout(60_000); // a child process per case, loading the TypeScript sources

workflowCrashCases('sqlite', (dir) => {
  const path = join(dir, 'runs.db');
  return Promise.resolve({
    store: { kind: 'sqlite', path },
    open: (clock) => sqliteStore({ path, clock }),
    cleanup: () => Promise.resolve(),
  });
});
