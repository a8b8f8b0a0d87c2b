/**
 * A worker process for the multi-process tests. It runs the `calc` agent — turn k calls `step` k
 * for k = 1…steps (default 3), then it answers `<n> * <2^steps> = <n·2^steps>` — whose tool
 * appends `<deps.tag> <step>` to the effects file synchronously (so what happened survives a kill).
 * It talks to its parent over IPC: `ready` once taking jobs; with `hangAt`, `{ at: tag }` when a
 * run reaches that step (before its effect) and then freezes; with `gate`, `{ at: tag }` at step 1
 * then waits for `{ go: true }`; with `reportCompleted`, `{ completed: runId }` when the store
 * records a completed run. `{ close: true }` closes the worker and exits.
 */
import { appendFileSync } from 'node:fs';
import { Agent, defineTool } from 'golem';
import type { RunStore } from 'golem';
import { runWorker } from 'golem/queue';
import { postgresStore } from 'golem/stores/postgres';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** The child's instructions, as JSON in GOLEM_QUEUE_CHILD. */
export interface ChildConfig {
  redisUrl: string;
  prefix: string;
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };
  effects: string;
  concurrency: number;
  leaseMs: number;
  stalled: { lockDuration: number; interval: number; maxCount: number };
  hangAt?: number;
  gate?: boolean;
  reportCompleted?: boolean;
  /** Tool steps per run (default 3). */
  steps?: number;
}

const config = JSON.parse(process.env.GOLEM_QUEUE_CHILD ?? '{}') as ChildConfig;

function send(message: Record<string, unknown>): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, () => {
      resolve();
    });
  });
}

const waiting = new Set<() => void>();
process.on('message', (message: { go?: boolean; close?: boolean }) => {
  if (message.go === true) for (const release of waiting) release();
  if (message.close === true) void shutdown();
});

function openStore(): RunStore {
  const store =
    config.store.kind === 'sqlite'
      ? sqliteStore({ path: config.store.path, leaseMs: config.leaseMs })
      : postgresStore({
          connectionString: config.store.url,
          schema: config.store.schema,
          leaseMs: config.leaseMs,
          synchronousCommit: false,
          poolSize: 4,
        });
  if (config.reportCompleted !== true) return store;
  return {
    leaseMs: store.leaseMs,
    now: () => store.now(),
    migrate: () => store.migrate(),
    close: () => store.close(),
    getRun: (id) => store.getRun(id),
    getConversation: (id) => store.getConversation(id),
    listRuns: (f) => store.listRuns(f),
    transaction: (body) => store.transaction(body),
    replaceRun: async (run, expected) => {
      const ok = await store.replaceRun(run, expected);
      if (ok && run.status === 'completed') await send({ completed: run.id });
      return ok;
    },
  };
}

const store = openStore();

const step = defineTool({
  name: 'step',
  description: 'One step of the calculation',
  schema: { type: 'object', properties: { k: { type: 'number' } }, required: ['k'] },
  execute: async (args, ctx) => {
    const { k } = args as { k: number };
    const runId = (ctx.deps as { tag: string }).tag;
    if (config.hangAt === k) {
      await send({ at: runId });
      await new Promise(() => undefined); // frozen here until the parent kills the process
    }
    if (config.gate === true && k === 1) {
      const go = new Promise<void>((resolve) => waiting.add(resolve));
      await send({ at: runId });
      await go;
    }
    appendFileSync(config.effects, `${runId} ${k}\n`);
    return `step ${k} done`;
  },
});

const model = new FunctionModel((request) => {
  const done = request.messages.filter((m) => m.role === 'tool').length;
  if (done < (config.steps ?? 3))
    return toolCallResponse([{ id: `s${done + 1}`, name: 'step', args: { k: done + 1 } }]);
  const n = Number(request.messages.find((m) => m.role === 'user')?.content ?? 0);
  return textResponse(`${n} * ${2 ** (config.steps ?? 3)} = ${n * 2 ** (config.steps ?? 3)}`);
});

const calc = new Agent({ model, tools: [step], name: 'calc', deferredTools: true });
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
    agents: [calc],
    concurrency: config.concurrency,
    stalled: config.stalled,
  });
  close = () => worker.close();
  await send({ ready: worker.id });
}

main().catch(async (error: unknown) => {
  await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
