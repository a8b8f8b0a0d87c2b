/** Handoff crash tests against a SQLite file: real child processes, SIGKILL, a fresh process continues. */
import { join } from 'node:path';
import { handoffCrashCases } from './support/handoff-crash-cases';

jest.setTimeout(60_000); // two child processes per case, each loading the TypeScript sources

handoffCrashCases('sqlite', (dir) =>
  Promise.resolve({
    store: { kind: 'sqlite', path: join(dir, 'runs.db') },
    cleanup: () => Promise.resolve(),
  }),
);
