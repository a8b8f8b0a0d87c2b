import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, type RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { RunDetail, RunSummary } from '../../src/studio/api-types';
import { openSse, serve, type Served } from './studio-harness';

let dir: string;
let store: RunStore;
let served: Served | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-studio-'));
  store = sqliteStore({ path: join(dir, 'runs.db') });
});

afterEach(async () => {
  await served?.stop();
  served = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function echo() {
  return new Agent({
    name: 'echo',
    model: new ScriptedModel([textResponse('hi'), textResponse('again')]),
  });
}

test('the runs stream sends the runs, then the ones a checkpoint changed', async () => {
  const agent = echo();
  await agent.run('one', { store, runId: 'r1' });
  served = await serve({ store, pollMs: 5 });
  const stream = await openSse(served, `/api/runs/stream?token=${served.studio.token}`);
  expect(stream.status).toBe(200);
  const first = await stream.next((f) => f.event === 'runs');
  expect((first.data as RunSummary[]).map((r) => r.id)).toEqual(['r1']);
  await agent.run('two', { store, runId: 'r2' });
  const changed = await stream.next((f) => (f.data as RunSummary[]).some((r) => r.id === 'r2'));
  // only what changed: r1 was sent before and did not change
  expect((changed.data as RunSummary[]).map((r) => r.id)).toEqual(['r2']);
  expect((changed.data as RunSummary[])[0]?.status).toBe('completed');
  stream.close();
});

test('the run stream sends the detail, then again when its version changes', async () => {
  const book = defineTool({
    name: 'book',
    schema: { type: 'object' },
    approval: true,
    execute: () => 'booked',
  });
  const agent = new Agent({
    name: 'booking',
    model: new ScriptedModel([
      toolCallResponse([{ id: 'b1', name: 'book' }]),
      textResponse('done'),
    ]),
    tools: [book],
    deferredTools: true,
  });
  await agent.run('book', { store, runId: 'p1' });
  served = await serve({ store, pollMs: 5, agents: [agent] });
  const stream = await openSse(served, '/api/runs/p1/stream', {
    authorization: `Bearer ${served.studio.token}`,
  });
  const first = await stream.next();
  expect(first.event).toBe('run');
  expect((first.data as RunDetail).summary.status).toBe('paused');
  await agent.resume('p1', { approvals: { b1: { approved: true } } }, { store });
  const done = await stream.next((f) => (f.data as RunDetail).summary.status === 'completed');
  expect((done.data as RunDetail).timeline.map((t) => t.text)).toEqual([undefined, 'done']);
  stream.close();
});

test('an unknown run stream is 404; a wrong ?token= is 401', async () => {
  served = await serve({ store, pollMs: 5 });
  const unknown = await openSse(served, `/api/runs/nope/stream?token=${served.studio.token}`);
  expect(unknown.status).toBe(404);
  unknown.close();
  const wrong = await openSse(served, '/api/runs/stream?token=wrong');
  expect(wrong.status).toBe(401);
  wrong.close();
});
