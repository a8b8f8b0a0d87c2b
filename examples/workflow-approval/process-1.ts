/**
 * Process 1 of the workflow-approval example: it starts run `order-1001` on the SQLite file and
 * is killed (SIGKILL) the moment step `approve` starts — after `reserve`, `price` and `notify`
 * were checkpointed. The kill comes from the runner's event observer, outside the workflow's
 * code, as abruptly as an out-of-memory kill or a pulled plug: nothing after it runs.
 */
import { join } from 'node:path';
import { workflowFromClass } from 'golem/decorators';
import { sqliteStore } from 'golem/stores/sqlite';
import { WorkflowRunner } from 'golem/workflows';
import { OrderApproval, Shop } from './order-workflow';

/** Process 1's lease on the runs it executes: one hour without renewal. */
export const LEASE_MS = 60 * 60 * 1000;

if (require.main === module) {
  const [dir = ''] = process.argv.slice(2);
  const store = sqliteStore({ path: join(dir, 'orders.db'), leaseMs: LEASE_MS });
  const workflow = workflowFromClass(
    OrderApproval,
    new OrderApproval(new Shop(join(dir, 'ledger.txt'))),
  );
  const runner = new WorkflowRunner({
    store,
    workflows: [workflow],
    owner: 'process-1',
    onEvent: (event) => {
      if (event.kind === 'step_started' && event.step === 'approve')
        process.kill(process.pid, 'SIGKILL');
    },
  });
  runner
    .start(workflow, { orderId: '1001', sku: 'LAMP-7', quantity: 4 }, { runId: 'order-1001' })
    .then(
      () => {
        console.error('the run ended before process 1 was killed');
        process.exitCode = 1;
      },
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
}
