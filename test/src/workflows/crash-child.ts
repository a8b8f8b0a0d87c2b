/**
 * A process the workflow crash test kills: it starts run "crash" of `crashFlow` on a real SQLite
 * file or PostgreSQL schema and, inside the chosen step, tells the parent (IPC) it is there and
 * waits forever; the parent then SIGKILLs it.
 */
import { postgresStore } from 'golem/stores/postgres';
import { sqliteStore } from 'golem/stores/sqlite';
import { WorkflowRunner } from 'golem/workflows';
import type { CrashChildConfig } from './crash-flow';
import { crashFlow } from './crash-flow';

const config = JSON.parse(process.env.GOLEM_WF_CRASH ?? '{}') as CrashChildConfig;
const store =
  config.store.kind === 'sqlite'
    ? sqliteStore({ path: config.store.path })
    : postgresStore({ connectionString: config.store.url, schema: config.store.schema });
const flow = crashFlow(config.effects, async (step) => {
  if (step !== config.kill) return;
  await new Promise<void>((resolve) =>
    process.send?.({ at: step }, () => {
      resolve();
    }),
  );
  await new Promise<never>(() => undefined);
});
new WorkflowRunner({ store, workflows: [flow], owner: 'child' })
  .start(flow, { n: 1 }, { runId: 'crash' })
  .then(
    () => process.send?.({ error: 'the run finished before it was killed' }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
