/**
 * A worker process: it takes runs from the queue, runs them with its agents, checkpoints them in
 * the shared store and publishes their progress. Start as many as you like, on any machine.
 *
 *   node -r @swc-node/register examples/queue-workers/worker.ts <dir>
 */
import { join } from 'node:path';
import { runWorker } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { REDIS_URL, PREFIX } from './settings';
import { supportAgent } from './support-agent';

const [dir = '.'] = process.argv.slice(2);

async function main(): Promise<void> {
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const worker = await runWorker({
    connection: REDIS_URL,
    prefix: PREFIX,
    store,
    agents: [supportAgent(join(dir, 'ledger.txt'))],
    concurrency: 4,
  });
  process.send?.({ ready: true });
  // Graceful shutdown: stop taking jobs, finish the runs in progress, close.
  process.once('SIGTERM', () => {
    void worker
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
}

void main();
