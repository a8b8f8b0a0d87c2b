/**
 * Runs stored before the run's state value existed (fixtures/runs-v4.db, written by golem at
 * 46f4cee with fixtures/make-runs-v4.ts) read as states and continue: through the store by id,
 * from the state a store hands out, and from that state's JSON in a process with no store.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, INTERRUPTED_CALL_REASON, loadRun, requireApproval } from 'golem';
import type { RunState, RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse } from 'golem/testing';

const FIXTURE = join(__dirname, 'fixtures', 'runs-v4.db');
/** After the fixture's leases expired. */
const LATER = 1_700_000_000_000 + 60 * 60 * 1000;

let dir: string;
let store: RunStore & { close(): Promise<void> };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-state-migration-'));
  copyFileSync(FIXTURE, join(dir, 'runs.db'));
  store = sqliteStore({ path: join(dir, 'runs.db'), clock: () => LATER });
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const schema = { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] };

/** The fixture's agent, recording each tool execution as `name(item)`. */
function shop(effects: string[], options: { store?: RunStore; idempotentShip?: boolean } = {}) {
  const tool = (name: string, idempotent = false) =>
    defineTool({
      name,
      description: name,
      schema,
      idempotent,
      execute: (args, ctx) => {
        if (name === 'charge' && !ctx.approved) throw requireApproval('charges need a human');
        const { item } = args as { item: string };
        effects.push(`${name}(${item})`);
        return `${name} ${item} ok`;
      },
    });
  return new Agent({
    name: 'shop',
    model: new FunctionModel(() => textResponse('all done')),
    instructions: 'You run a shop.',
    tools: [tool('lookup'), tool('charge'), tool('ship', options.idempotentShip)],
    deferredTools: true,
    ...(options.store !== undefined && { store: options.store }),
  });
}

test('a paused run stored before states existed reads as a version-1 paused state', async () => {
  const { state } = await loadRun(store, 'paused-1');
  expect(state).toMatchObject({
    format: 'golem.run-state',
    version: 1,
    agent: 'shop',
    runId: 'paused-1',
    owner: 'alice',
    status: 'paused',
    step: { kind: 'decisions' },
    requests: 1,
    toolCalls: 1,
    turns: 1,
    startedAt: 1_700_000_000_000,
    pending: { approvals: [{ callId: 'c1', toolName: 'charge' }], external: [] },
  });
  // The image's bytes travel as the codec's base64, so the state is plain JSON.
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  expect(JSON.stringify(state.messages)).toContain('"data":"iVBORwD/AQI="');
});

test('its state resumed through the store completes it there; the approved call runs once', async () => {
  const effects: string[] = [];
  const { state } = await loadRun(store, 'paused-1');
  const held = JSON.parse(JSON.stringify(state)) as RunState;
  const result = await shop(effects, { store }).resume(
    held,
    { approvals: { c1: { approved: true } } },
    { owner: 'alice' },
  );
  expect(result.output).toBe('all done');
  expect(result.runId).toBe('paused-1');
  expect(effects).toEqual(['charge(book)']);
  const stored = await loadRun(store, 'paused-1');
  expect(stored.status).toBe('completed');
  expect(stored.state.step).toEqual({ kind: 'end' });
  expect(result.state).toEqual(stored.state);
});

/** A stored run's state as a caller keeps it, detached from its store (no `runId`). */
async function detached(runId: string): Promise<RunState> {
  const held = JSON.parse(JSON.stringify((await loadRun(store, runId)).state)) as RunState;
  delete held.runId;
  return held;
}

test("a stored run's state is refused where no store is at hand: continuing it would fork the run", async () => {
  const held = JSON.parse(JSON.stringify((await loadRun(store, 'paused-1')).state)) as RunState;
  const agent = shop([]);
  await expect(agent.resume(held, { approvals: { c1: { approved: true } } })).rejects.toThrow(
    /stored run "paused-1"'s; continue it through its store/,
  );
  await expect(agent.resumeRun(held)).rejects.toMatchObject({ name: 'RunInputError' });
});

test('detached from its store, the same state continues in memory, every segment counted', async () => {
  const effects: string[] = [];
  const held = await detached('paused-1');
  const result = await shop(effects).resume(held, { approvals: { c1: { approved: true } } });
  expect(result.output).toBe('all done');
  expect(effects).toEqual(['charge(book)']);
  // The image part came back from base64 to its bytes.
  const user = result.messages.find((m) => m.role === 'user');
  expect([...(user?.parts?.[0]?.data ?? [])]).toEqual([137, 80, 78, 71, 0, 255, 1, 2]);
  expect(result.state.runId).toBeUndefined();
  expect(result.state).toMatchObject({
    owner: 'alice',
    status: 'completed',
    requests: 2,
    toolCalls: 2,
    turns: 2,
  });
});

test('a run that died with a call in flight reads as a state whose step names its open calls', async () => {
  const { state } = await loadRun(store, 'crashed-1');
  expect(state).toMatchObject({
    status: 'running',
    step: { kind: 'tools', calls: ['s2'] },
    inFlight: ['s2'],
  });
  expect(state.pending).toBeUndefined();
});

test('detached and continued without a store, the in-flight call pauses the run for a decision', async () => {
  const effects: string[] = [];
  const result = await shop(effects).resumeRun(await detached('crashed-1'));
  expect(effects).toEqual([]); // lookup is never run again; ship's outcome is unknown
  expect(result.pending?.approvals).toEqual([
    expect.objectContaining({ callId: 's2', toolName: 'ship', reason: INTERRUPTED_CALL_REASON }),
  ]);
  expect(result.state.status).toBe('paused');
});

test('continued by id through the store, an idempotent in-flight call re-runs once', async () => {
  const effects: string[] = [];
  const { state } = await loadRun(store, 'crashed-1');
  const result = await shop(effects, { store, idempotentShip: true }).resumeRun(state);
  expect(result.output).toBe('all done');
  expect(effects).toEqual(['ship(lamp)']);
  const stored = await loadRun(store, 'crashed-1');
  expect(stored.status).toBe('completed');
  expect(stored.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual([
    'l2',
    's2',
  ]);
});
