/**
 * A worker process for the queue door matrix: it runs every door scenario's agent (registered
 * under the scenario's name, one agent per job) on the shared SQLite store. What the scenario's
 * tools and model do is appended synchronously to the log file as JSON lines — `{ runId, effect }`
 * and `{ runId, asked }` — so it survives a kill. It talks to its parent over IPC: `ready` once
 * taking jobs; with `hangAt`, `{ at: runId, op }` when a run reaches one of those operations
 * (`tool a2`, `model 1`), and then that run freezes there until the parent kills the process; with
 * `reportWrites`, `{ wrote: { runId, status, messages, inFlight } }` after each stored write.
 * `{ close: true }` closes the worker and exits.
 */
import { appendFileSync } from 'node:fs';
import type { RunStore } from 'golem';
import { runWorker } from 'golem/queue';
import type { AgentFactory } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { scenarioAgent, SCENARIOS } from '../../stores/support/door-scenarios';
import type { ScenarioProcess } from '../../stores/support/door-scenarios';

/** The child's instructions, as JSON in GOLEM_QUEUE_CHILD. */
export interface DoorChildConfig {
  redisUrl: string;
  prefix: string;
  dbPath: string;
  /** The JSON-lines log of effects and model requests. */
  log: string;
  leaseMs: number;
  stalled: { lockDuration: number; interval: number; maxCount: number };
  /** Operations at which a run freezes (after telling the parent). */
  hangAt?: string[];
  /** Tell the parent about every stored write. */
  reportWrites?: boolean;
}

/** A line of the log. */
export type DoorLogLine = { runId: string; effect: string } | { runId: string; asked: string[] };

/** What the parent hears about a stored write. */
export interface DoorWrite {
  runId: string;
  status: string;
  messages: number;
  inFlight: string[];
}

const config = JSON.parse(process.env.GOLEM_QUEUE_CHILD ?? '{}') as DoorChildConfig;

function send(message: Record<string, unknown>): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, () => {
      resolve();
    });
  });
}

process.on('message', (message: { close?: boolean }) => {
  if (message.close === true) void shutdown();
});

/** The shared store; with `reportWrites`, every write it accepted is told to the parent. */
function openStore(): RunStore {
  const store = sqliteStore({ path: config.dbPath, leaseMs: config.leaseMs });
  if (config.reportWrites !== true) return store;
  const reported: RunStore = {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (filter) => store.listRuns(filter),
    transaction: (body) => store.transaction(body),
    replaceRun: async (run, expected, options) => {
      const ok = await store.replaceRun(run, expected, options);
      if (ok) {
        const write: DoorWrite = {
          runId: run.id,
          status: run.status,
          messages: (JSON.parse(run.messages) as unknown[]).length,
          inFlight: run.inFlight === null ? [] : (JSON.parse(run.inFlight) as string[]),
        };
        await send({ wrote: write });
      }
      return ok;
    },
  };
  const insert = store.insertRun?.bind(store);
  if (insert !== undefined) reported.insertRun = (run, options) => insert(run, options);
  return reported;
}

const store = openStore();

/** The process one run's tools and model report to. */
function processOf(runId: string): ScenarioProcess {
  const log = (line: DoorLogLine): void => {
    appendFileSync(config.log, `${JSON.stringify(line)}\n`);
  };
  return {
    async reach(op) {
      if (config.hangAt?.includes(op) !== true) return;
      await send({ at: runId, op });
      await new Promise(() => undefined); // frozen here until the parent kills the process
    },
    effect: (effect) => {
      log({ runId, effect });
    },
    asked: (request) => {
      log({ runId, asked: request });
    },
  };
}

const agents: Record<string, AgentFactory> = Object.fromEntries(
  SCENARIOS.map((scenario) => [
    scenario.name,
    (job: { runId: string }) =>
      scenarioAgent(scenario, processOf(job.runId), { name: scenario.name }),
  ]),
);

let close: (() => Promise<void>) | undefined;

async function shutdown(): Promise<void> {
  await close?.();
  await store.close();
  process.exit(0);
}

async function main(): Promise<void> {
  const worker = await runWorker({
    connection: config.redisUrl,
    prefix: config.prefix,
    store,
    agents,
    concurrency: 4,
    stalled: config.stalled,
  });
  close = () => worker.close();
  await send({ ready: worker.id });
}

main().catch(async (error: unknown) => {
  await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
