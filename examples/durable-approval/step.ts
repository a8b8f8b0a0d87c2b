/**
 * One process of the durable-approval example: `request` starts a payment run that pauses for
 * approval and exits; `approve` — another process, maybe days later — lists the paused runs in
 * the store, approves, and finishes the run. Both open the same SQLite file.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, defineTool, listRuns, loadRun } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const [phase = '', dir = ''] = process.argv.slice(2);
const ledger = join(dir, 'ledger.txt');

/** Transfers money; every call needs a human's approval, and the bank is not idempotent. */
const transfer = defineTool({
  name: 'transfer',
  description: 'Transfer EUR to a payee.',
  schema: {
    type: 'object',
    properties: { to: { type: 'string' }, eur: { type: 'number' } },
    required: ['to', 'eur'],
  },
  approval: true,
  execute: (args) => {
    const { to, eur } = args as { to: string; eur: number };
    appendFileSync(ledger, `${eur} EUR to ${to}\n`); // the side effect: must happen exactly once
    return `sent ${eur} EUR to ${to}`;
  },
});

// An offline stand-in for a provider: it asks for the transfer, then confirms it.
const model = new FunctionModel((request) =>
  request.messages.some((m) => m.role === 'tool')
    ? textResponse('Paid invoice 42: 2500 EUR to ACME.')
    : toolCallResponse([{ id: 'pay-1', name: 'transfer', args: { to: 'ACME', eur: 2500 } }]),
);

async function main(): Promise<void> {
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const agent = new Agent({
    model,
    tools: [transfer],
    deferredTools: true,
    store,
    name: 'payments',
  });
  try {
    if (phase === 'request') {
      const result = await agent.run('Pay invoice 42: 2500 EUR to ACME.', { runId: 'invoice-42' });
      for (const call of result.pending?.approvals ?? [])
        console.log(`paused: ${call.callId} ${call.toolName} ${call.args} awaits approval`);
      console.log(
        `run ${result.runId ?? ''} is ${(await loadRun(store, 'invoice-42')).status}; exiting`,
      );
      return;
    }
    // Another process: what is waiting for a decision?
    for (const run of await listRuns(store, { status: ['paused'] }))
      for (const call of run.pending?.approvals ?? [])
        console.log(`waiting: run ${run.id} (${run.agent}) ${call.toolName} ${call.args}`);
    const done = await agent.resume('invoice-42', { approvals: { 'pay-1': { approved: true } } });
    console.log(`output: ${done.output ?? ''}`);
    console.log(`run ${done.runId ?? ''} is ${(await loadRun(store, 'invoice-42')).status}`);
    console.log(`ledger: ${existsSync(ledger) ? readFileSync(ledger, 'utf8').trim() : '(empty)'}`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
