/**
 * A durable order workflow with a parallel step, a human approval and a one-day timer, resumed
 * after a crash. Process 1 (`process-1.ts`, a real child process) starts the run on a SQLite file
 * and is SIGKILLed as step `approve` starts. This process opens the same file, recovers the run
 * once the dead process's lease expires (the completed steps are replayed from their checkpoints,
 * never re-run), gives the manager's decision with `resume`, lets a day pass on the store's clock
 * and wakes the timer with `wakeDue`. It prints the steps, the side effects, the output and the
 * run as a Mermaid chart. Offline: no model, a temporary folder.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowFromClass } from 'golem/decorators';
import { sqliteStore } from 'golem/stores/sqlite';
import { toMermaid, WorkflowError, WorkflowRunner } from 'golem/workflows';
import type { WaitingInfo } from 'golem/workflows';
import { COOL_OFF_MS, OrderApproval, Shop } from './order-workflow';
import { LEASE_MS } from './process-1';

const ROOT = join(__dirname, '..', '..');
const HOUR = 60 * 60 * 1000;

/** Runs process 1; resolves with the signal that ended it (rejects if it ended any other way). */
function processOne(dir: string): Promise<string> {
  const args = ['-r', '@swc-node/register', join(__dirname, 'process-1.ts'), dir];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error, _stdout, stderr) => {
      if (error?.signal) resolve(error.signal);
      else reject(new Error(`process 1 was not killed: ${stderr}`));
    });
  });
}

function describeWaiting(waiting: readonly WaitingInfo[], now: number): string {
  return waiting
    .map((w) =>
      w.kind === 'timer'
        ? `${w.step} (timer, due in ${String(Math.round(((w.wakeAt ?? now) - now) / HOUR))} h)`
        : `${w.step} (${w.kind}: ${w.reason ?? ''} ${JSON.stringify(w.payload)})`,
    )
    .join(', ');
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-workflow-approval-'));
  const ledger = join(dir, 'ledger.txt');
  const effects = (): string[] =>
    existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n') : [];
  try {
    log('process 1: start order-1001');
    log(`  killed by ${await processOne(dir)} as step approve started`);
    for (const line of effects()) log(`  ledger: ${line}`);

    // Process 2: this one. Its store clock can be moved, so hours pass in one line.
    let skew = 0;
    const store = sqliteStore({ path: join(dir, 'orders.db'), clock: () => Date.now() + skew });
    const workflow = workflowFromClass(OrderApproval, new OrderApproval(new Shop(ledger)));
    const runner = new WorkflowRunner({ store, workflows: [workflow], owner: 'process-2' });
    try {
      log('process 2: the same SQLite file');
      const stored = await runner.get('order-1001');
      log(`  stored run: ${stored.status}, lease held by ${stored.lease?.owner ?? 'nobody'}`);
      log(`  steps: ${stored.steps.map((s) => `${s.key} ${s.status}`).join(', ')}`);
      log(`  recover() now: ${JSON.stringify(await runner.recover())} (the lease has not expired)`);
      skew += LEASE_MS + 1;
      log(`  recover() an hour later: ${JSON.stringify(await runner.recover())}`);
      const recovered = await runner.get('order-1001');
      log(`  ${recovered.status}, waiting for ${describeWaiting(recovered.waiting, store.now())}`);

      log('the manager decides');
      const refused: unknown = await runner
        .resume('order-1001', { approved: 'yes' })
        .catch((error: unknown) => error);
      if (WorkflowError.is(refused))
        log(`  resume with { approved: 'yes' } refused: ${refused.kind}, nothing recorded`);
      const resumed = await runner.resume('order-1001', { approved: true, by: 'dana' });
      if (resumed.status === 'suspended')
        log(`  approved; waiting for ${describeWaiting(resumed.waiting, store.now())}`);

      log('the timer');
      log(`  wakeDue() now: ${JSON.stringify(await runner.wakeDue())}`);
      skew += COOL_OFF_MS;
      log(`  wakeDue() a day later: ${JSON.stringify(await runner.wakeDue())}`);

      const done = await runner.get('order-1001');
      log(`run ${done.id}: ${done.status}`);
      for (const step of done.steps)
        log(
          `  ${step.key.padEnd(8)} ${step.kind.padEnd(5)} ${step.status}, attempt ${String(step.attempt)}`,
        );
      log(`output: ${JSON.stringify(done.output)}`);
      log('ledger (each side effect once):');
      for (const line of effects()) log(`  ${line}`);
      log('the run as Mermaid:');
      log(toMermaid(done));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
