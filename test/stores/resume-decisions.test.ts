/**
 * Decisions survive crashes: a call a person denied, or answered with an external result, never
 * executes — wherever the process dies while the resume (or a continuation) runs. A real SQLite
 * file; "the process died" is a tool or a store write that never returns, and a fresh agent on
 * the same store continues once the dead one's lease expired.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, deferExternal, INTERRUPTED_CALL_REASON, loadRun } from 'golem';
import type { RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import {
  FakeClock,
  forever,
  gate,
  resultsPerCall,
  scenarioModel,
  stepTool,
  transcript,
} from './support/scenario';

let dir: string;
let clock: FakeClock;
let store: RunStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-decisions-'));
  clock = new FakeClock();
  store = sqliteStore({ path: join(dir, 'runs.db'), clock: clock.now });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A "process": an agent on `on` whose step tool records `id` (`+` when approved) in `effects`, or dies in `dieAt`. */
function agentOn(
  on: RunStore,
  effects: string[],
  dieAt?: { id: string; reached: () => void },
): Agent<unknown, string, true> {
  const step = stepTool(async (id, _name, approved) => {
    if (id === dieAt?.id) {
      dieAt.reached();
      await forever();
    }
    effects.push(`${id}${approved ? '+' : ''}`);
  });
  return new Agent({
    model: scenarioModel(),
    tools: [step],
    store: on,
    parallelToolCalls: true,
    deferredTools: true,
  });
}

/** The scenario's parallel batch (a1, a2) cut by a crash, then paused on both calls by `resumeRun`. */
async function pausedOnBoth(effects: string[]): Promise<void> {
  const stuck = gate();
  let started = 0;
  const step = stepTool(async () => {
    if (++started === 2) stuck.open();
    await forever();
  });
  const dying = new Agent({
    model: scenarioModel(),
    tools: [step],
    store,
    parallelToolCalls: true,
  });
  void dying.run('go', { runId: 'r' });
  await stuck.promise;
  clock.advance(store.leaseMs + 1);
  const paused = await agentOn(store, effects).resumeRun('r');
  expect(paused.pending?.approvals.map((c) => [c.callId, c.reason])).toEqual([
    ['a1', INTERRUPTED_CALL_REASON],
    ['a2', INTERRUPTED_CALL_REASON],
  ]);
}

/** A store whose writes never return once `frozen(row)` says so ("the process died in this write"). */
function freezing(
  inner: RunStore,
  frozen: (status: string) => boolean,
): { store: RunStore; reached: Promise<void> } {
  const hit = gate();
  return {
    reached: hit.promise,
    store: {
      leaseMs: inner.leaseMs,
      now: () => inner.now(),
      migrate: () => inner.migrate(),
      close: () => Promise.resolve(),
      getRun: (id) => inner.getRun(id),
      getConversation: (id) => inner.getConversation(id),
      listRuns: (filter) => inner.listRuns(filter),
      replaceRun: async (run, expected, options) => {
        if (frozen(run.status)) {
          hit.open();
          await forever();
        }
        return inner.replaceRun(run, expected, options);
      },
      transaction: (body) => inner.transaction(body),
    },
  };
}

test('a denied call never runs when the process dies during the approved re-run of its batch', async () => {
  const effects: string[] = [];
  await pausedOnBoth(effects);
  const dies = gate();
  void agentOn(store, effects, { id: 'a1', reached: dies.open }).resume('r', {
    approvals: { a1: { approved: true }, a2: { approved: false, reason: 'not this one' } },
  });
  await dies.promise;
  clock.advance(store.leaseMs + 1);
  const again = await agentOn(store, effects).resumeRun('r');
  // a1's outcome is unknown again; a2 stays denied: its denial was stored before a1 ran.
  expect(again.pending?.approvals.map((c) => c.callId)).toEqual(['a1']);
  expect(transcript((await loadRun(store, 'r')).messages)).toContain(
    'tool(a2): Your tool call was denied: not this one. Do not call it again; continue without its result.',
  );
  expect(effects).toEqual([]);
  const done = await agentOn(store, effects).resume('r', { approvals: { a1: { approved: true } } });
  expect(done.output).toBe('done');
  expect(effects).toEqual(['a1+', 'c1']); // a2 never executed, approved or not
  expect(resultsPerCall(done.messages)).toEqual({ a1: 1, a2: 1, c1: 1 });
});

test('an external result is kept, and its call never runs, when the process dies during the approved re-run', async () => {
  const effects: string[] = [];
  await pausedOnBoth(effects);
  const dies = gate();
  void agentOn(store, effects, { id: 'a1', reached: dies.open }).resume('r', {
    approvals: { a1: { approved: true } },
    external: { a2: 'B was done by hand' },
  });
  await dies.promise;
  clock.advance(store.leaseMs + 1);
  const again = await agentOn(store, effects).resumeRun('r');
  expect(again.pending?.approvals.map((c) => c.callId)).toEqual(['a1']);
  const done = await agentOn(store, effects).resume('r', { external: { a1: 'A was done too' } });
  expect(done.output).toBe('done');
  expect(effects).toEqual(['c1']);
  expect(transcript(done.messages)).toEqual([
    'user: go',
    'assistant[a1,a2]',
    'tool(a1): A was done too',
    'tool(a2): B was done by hand',
    'assistant[c1]',
    'tool(c1): did C',
    'assistant: done',
  ]);
});

test('a process that dies after taking a paused run, before recording its decisions, leaves every call waiting', async () => {
  const effects: string[] = [];
  await pausedOnBoth(effects);
  const frozen = freezing(store, () => true); // the resume's first write never lands
  void agentOn(frozen.store, effects).resume('r', {
    approvals: { a1: { approved: true }, a2: { approved: false } },
  });
  await frozen.reached;
  clock.advance(store.leaseMs + 1);
  const again = await agentOn(store, effects).resumeRun('r');
  // Neither call runs without a decision: the run pauses again on both, with their reasons.
  expect(effects).toEqual([]);
  expect(again.pending?.approvals.map((c) => [c.callId, c.reason])).toEqual([
    ['a1', INTERRUPTED_CALL_REASON],
    ['a2', INTERRUPTED_CALL_REASON],
  ]);
  expect((await loadRun(store, 'r')).status).toBe('paused');
});

test('a process that dies while pausing a continued run leaves the interrupted calls waiting', async () => {
  const effects: string[] = [];
  const stuck = gate();
  let started = 0;
  const step = stepTool(async () => {
    if (++started === 2) stuck.open();
    await forever();
  });
  void new Agent({ model: scenarioModel(), tools: [step], store, parallelToolCalls: true }).run(
    'go',
    { runId: 'r' },
  );
  await stuck.promise;
  clock.advance(store.leaseMs + 1);
  // resumeRun dies in its last write, the one that stores the run as paused.
  const frozen = freezing(store, (status) => status === 'paused');
  void agentOn(frozen.store, effects).resumeRun('r');
  await frozen.reached;
  clock.advance(store.leaseMs + 1);
  const again = await agentOn(store, effects).resumeRun('r');
  expect(effects).toEqual([]); // calls of unknown outcome are never re-run unasked
  expect(again.pending?.approvals.map((c) => [c.callId, c.reason])).toEqual([
    ['a1', INTERRUPTED_CALL_REASON],
    ['a2', INTERRUPTED_CALL_REASON],
  ]);
});

test('a resume whose decisions are all denials or external results survives a death before its commit', async () => {
  const effects: string[] = [];
  await pausedOnBoth(effects);
  // Nothing runs during this resume; it dies in its first write (the committed resolutions).
  const frozen = freezing(store, () => true);
  void agentOn(frozen.store, effects).resume('r', {
    approvals: { a1: { approved: false } },
    external: { a2: 'B by hand' },
  });
  await frozen.reached;
  clock.advance(store.leaseMs + 1);
  const again = await agentOn(store, effects).resumeRun('r');
  expect(effects).toEqual([]);
  expect(again.pending?.approvals.map((c) => c.callId)).toEqual(['a1', 'a2']);
  const done = await agentOn(store, effects).resume('r', {
    approvals: { a1: { approved: false } },
    external: { a2: 'B by hand' },
  });
  expect(done.output).toBe('done');
  expect(effects).toEqual(['c1']);
});

test('a process that dies while pausing a fresh run leaves the deferred calls waiting: no tool body runs twice', async () => {
  const effects: string[] = [];
  // Each call does its work, then hands the rest to a person.
  const handOff = stepTool((id) => {
    effects.push(id);
    throw deferExternal('finish by hand');
  });
  const agent = (on: RunStore) =>
    new Agent({
      model: scenarioModel(),
      tools: [handOff],
      store: on,
      parallelToolCalls: true,
      deferredTools: true,
    });
  // The run dies in its last write, the one that stores it as paused.
  const frozen = freezing(store, (status) => status === 'paused');
  void agent(frozen.store).run('go', { runId: 'r' });
  await frozen.reached;
  expect(effects).toEqual(['a1', 'a2']);
  clock.advance(store.leaseMs + 1);
  const again = await agent(store).resumeRun('r');
  // The batch's commit stored the pause's calls as waiting: they are not run again.
  expect(effects).toEqual(['a1', 'a2']);
  expect(again.pending?.external.map((c) => [c.callId, c.reason])).toEqual([
    ['a1', 'finish by hand'],
    ['a2', 'finish by hand'],
  ]);
  const done = await agent(store).resume('r', { external: { a1: 'A by hand', a2: 'B by hand' } });
  expect(effects).toEqual(['a1', 'a2', 'c1']);
  expect(done.pending?.external.map((c) => c.callId)).toEqual(['c1']);
});
