/**
 * A process the crash tests kill. It runs the shared scenario on a real store: `start` begins
 * run "crash" on conversation "crash-chat" and, at the chosen point, tells the parent (IPC) it is
 * there and waits forever — the parent then SIGKILLs it; `resume` continues the run (approving
 * any call whose outcome is unknown) and reports the final messages. Tools and the model append
 * their side effects to files, synchronously, so what happened survives the kill.
 */
import { appendFileSync } from 'node:fs';
import { Agent } from 'golem';
import type { DeferredResults, RunStore, StoreTransaction } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { sqliteStore } from 'golem/stores/sqlite';
import { forever, scenarioModel, stepTool, turnOf } from './scenario';

/** Where the child stops: mid-model-call, mid-batch, inside a checkpoint write, inside the final write. */
export type KillPoint = 'model-2' | 'tool-a2' | 'write-c1' | 'finish';

/** The child's instructions, as JSON in GOLEM_CRASH. */
export interface CrashConfig {
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };
  mode: 'start' | 'resume';
  kill: KillPoint;
  effects: string;
  calls: string;
  /** Added to the clock, so a resuming process finds the dead one's lease expired. */
  clockOffset: number;
}

const config = JSON.parse(process.env.GOLEM_CRASH ?? '{}') as CrashConfig;
const dying = config.mode === 'start';

async function here(point: KillPoint): Promise<never> {
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

/** The store, with the kill points that sit inside its writes. */
function withKillPoints(store: RunStore): RunStore {
  if (!dying) return store;
  return {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (filter) => store.listRuns(filter),
    replaceRun: async (run, expected) => {
      // The write-ahead record of c1 never reaches the database.
      if (config.kill === 'write-c1' && (run.inFlight ?? '').includes('"c1"'))
        await here('write-c1');
      return store.replaceRun(run, expected);
    },
    transaction: (body) =>
      store.transaction((tx) => {
        if (config.kill !== 'finish') return body(tx);
        const inside: StoreTransaction = {
          ...tx,
          putRun: async (run) => {
            await tx.putRun(run);
            // Killed with the final transaction open: the run row is written, not committed.
            if (run.status === 'completed') await here('finish');
          },
        };
        return body(inside);
      }),
  };
}

async function main(): Promise<void> {
  const store = withKillPoints(openStore());
  const model = scenarioModel(async (request) => {
    appendFileSync(config.calls, `${turnOf(request)}\n`);
    if (dying && config.kill === 'model-2' && turnOf(request) === 2) await here('model-2');
  });
  const step = stepTool(async (id) => {
    if (dying && config.kill === 'tool-a2' && id === 'a2') await here('tool-a2');
    appendFileSync(config.effects, `${id}\n`);
  });
  const agent = new Agent({ model, tools: [step], store, deferredTools: true, name: 'crash' });
  if (dying) {
    await agent.run('go', { runId: 'crash', conversation: 'crash-chat' });
    process.send?.({ error: 'the run finished without reaching the kill point' });
    return;
  }
  let result = await agent.resumeRun('crash');
  const approvals: DeferredResults['approvals'] = {};
  for (const call of result.pending?.approvals ?? []) approvals[call.callId] = { approved: true };
  const paused = result.pending?.approvals.map((c) => c.callId) ?? [];
  if (result.pending !== undefined) result = await agent.resume('crash', { approvals });
  await store.close();
  await new Promise<void>((resolve) =>
    process.send?.({ done: { output: result.output, paused, messages: result.messages } }, () => {
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
