/**
 * A process the handoff crash tests kill: run "handoff" starts in `triage`, which hands off to
 * `billing`; at the chosen point the child tells the parent (IPC) it is there and waits forever —
 * the parent SIGKILLs it; `resume` continues the run with `resumeRun` in a fresh process and
 * reports the result. Models and the refund tool append to files, synchronously, so what
 * happened survives the kill.
 */
import { appendFileSync } from 'node:fs';
import { Agent, defineTool, type RunStore } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { forever } from './scenario';

/** Where the child stops: inside the handoff's checkpoint write, or in the target's model call. */
export type HandoffKillPoint = 'handoff-write' | 'target-model';

/** The child's instructions, as JSON in GOLEM_HANDOFF_CRASH. */
export interface HandoffCrashConfig {
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };
  mode: 'start' | 'resume';
  kill: HandoffKillPoint;
  /** One line per model call ("triage" or "billing") and per refund ("refund"). */
  log: string;
  /** Added to the clock, so a resuming process finds the dead one's lease expired. */
  clockOffset: number;
}

const config = JSON.parse(process.env.GOLEM_HANDOFF_CRASH ?? '{}') as HandoffCrashConfig;
const dying = config.mode === 'start';

async function here(point: HandoffKillPoint): Promise<never> {
  await new Promise<void>((resolve) =>
    process.send?.({ at: point }, () => {
      resolve();
    }),
  );
  return forever();
}

function openStore(): RunStore {
  const clock = () => Date.now() + config.clockOffset;
  return config.store.kind === 'sqlite'
    ? sqliteStore({ path: config.store.path, clock })
    : postgresStore({ connectionString: config.store.url, schema: config.store.schema, clock });
}

/** The store, stopping inside the write that commits the handoff (it never reaches the database). */
function withKillPoint(store: RunStore): RunStore {
  if (!dying || config.kill !== 'handoff-write') return store;
  return {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (filter) => store.listRuns(filter),
    replaceRun: async (run, expected) => {
      if (run.messages.includes('Transferred to billing')) await here('handoff-write');
      return store.replaceRun(run, expected);
    },
    transaction: (body) => store.transaction(body),
  };
}

async function main(): Promise<void> {
  const store = withKillPoint(openStore());
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds the order.',
    schema: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => {
      appendFileSync(config.log, 'refund\n');
      return 'refunded';
    },
  });
  const billing = new Agent({
    name: 'billing',
    instructions: 'You are billing.',
    tools: [refund],
    model: new FunctionModel(async (request) => {
      appendFileSync(config.log, 'billing\n');
      if (dying && config.kill === 'target-model') await here('target-model');
      const refunded = request.messages.some((m) => m.role === 'tool' && m.toolName === 'refund');
      return refunded
        ? textResponse('Refunded.')
        : toolCallResponse([{ id: 'r1', name: 'refund' }]);
    }),
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'You route.',
    store,
    handoffs: [billing],
    model: new FunctionModel(() => {
      appendFileSync(config.log, 'triage\n');
      return toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }]);
    }),
  });
  if (dying) {
    await triage.run('refund my order', { runId: 'handoff' });
    process.send?.({ error: 'the run finished without reaching the kill point' });
    return;
  }
  const result = await triage.resumeRun('handoff');
  await store.close();
  const report = {
    output: result.output,
    agent: result.agent,
    handoffs: result.handoffs,
    system: result.messages[0]?.content,
  };
  await new Promise<void>((resolve) =>
    process.send?.({ done: report }, () => {
      resolve();
    }),
  );
}

main().catch(async (error: unknown) => {
  await new Promise<void>((resolve) =>
    process.send?.(
      { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      () => {
        resolve();
      },
    ),
  );
  process.exitCode = 1;
});
