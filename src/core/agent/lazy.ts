/* eslint-disable @typescript-eslint/no-require-imports -- subsystems an import of golem does not need are required by literal path on first use, so `require('golem')` stays cheap and bundlers still see them */
import type * as AgentResumeStream from './resume-stream';
import type * as AgentStream from './stream';
import type * as StoredRun from './stored-run';
import type * as Resume from '../engine/resume';
import type * as Run from '../engine/run';

/**
 * A module loaded on its first use. Where golem runs as CommonJS (its published build; Jest, tsx
 * or swc-node on the sources) `require` loads it at once. Where golem's TypeScript sources run as
 * ES modules (Vitest on this repository's sources) `require` cannot load them and `import()` does:
 * the result is then a promise. Either way the module is its loader's single instance, so classes
 * keep their identity.
 */
function onFirstUse<T>(required: () => T, imported: () => Promise<T>): () => T | Promise<T> {
  let loaded: T | Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      loaded = required();
    } catch (error) {
      if (!sourcesAsModules(error)) throw error;
      loaded = imported().then((module) => (loaded = module));
    }
    return loaded;
  };
}

/** Whether `require` failed because golem's sources run as ES modules (no `require`, no `.js`). */
function sourcesAsModules(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof ReferenceError || code === 'MODULE_NOT_FOUND';
}

/** `use(module)`, now when the module is loaded, else once it is. */
function withModule<T, R>(loaded: T | Promise<T>, use: (module: T) => Promise<R>): Promise<R> {
  return loaded instanceof Promise ? loaded.then(use) : use(loaded);
}

/** The run loop (turns, tool batches, decoding): loaded on an agent's first run. */
const runLoop = onFirstUse(
  () => require('../engine/run') as typeof Run,
  () => import('../engine/run.js'),
);

/** Stored runs (checkpointed to a store, the durable layer): loaded when a run first uses a store. */
const storedRuns = onFirstUse(
  () => require('./stored-run') as typeof StoredRun,
  () => import('./stored-run.js'),
);

/** `executeRun` of the run loop, which loads on the first run. Internal. */
export const executeRun: typeof Run.executeRun = (config, decoder, state, step) => {
  const loaded = runLoop();
  // Loaded (every run but an ES-module source's first): called at once, no closure per run.
  return loaded instanceof Promise
    ? loaded.then((m) => m.executeRun(config, decoder, state, step))
    : loaded.executeRun(config, decoder, state, step);
};

/** `runStored`, which loads the durable layer when a run first uses a store. Internal. */
export const runStored: typeof StoredRun.runStored = (agent, store, options, prepare) =>
  withModule(storedRuns(), (m) => m.runStored(agent, store, options, prepare));

/** `resumeStored` of the stored-run doors. Internal. */
export const resumeStored: typeof StoredRun.resumeStored = (agent, store, runId, owner, prepare) =>
  withModule(storedRuns(), (m) => m.resumeStored(agent, store, runId, owner, prepare));

/** `continueStored` of the stored-run doors. Internal. */
export const continueStored: typeof StoredRun.continueStored = (
  agent,
  store,
  runId,
  owner,
  settings,
) => withModule(storedRuns(), (m) => m.continueStored(agent, store, runId, owner, settings));

/** `continueState` of the stored-run doors (a held state continued without a store). Internal. */
export const continueState: typeof StoredRun.continueState = (agent, state, settings) =>
  withModule(storedRuns(), (m) => m.continueState(agent, state, settings));

/** Resolving deferred calls (`resume` with results): loaded on the first resume. Internal. */
export const resumeCalls: () => typeof Resume | Promise<typeof Resume> = onFirstUse(
  () => require('../engine/resume') as typeof Resume,
  () => import('../engine/resume.js'),
);

let streams: typeof AgentStream | undefined;
let resumeStreams: typeof AgentResumeStream | undefined;

/**
 * Streaming runs (typed events, text and partial-output feeds): loaded on the first stream.
 * `runStream` returns its stream at once, so this loads with `require` only. Internal.
 */
export function runStreams(): typeof AgentStream {
  return (streams ??= require('./stream') as typeof AgentStream);
}

/** `resumeStream`'s adapter: loaded on its first call, with `require` only. Internal. */
export function resumeStreaming(): typeof AgentResumeStream {
  return (resumeStreams ??= require('./resume-stream') as typeof AgentResumeStream);
}
