import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, loadRun, type RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { RunDetail, StartedRun } from '../../src/studio/api-types';
import { call, serve, type Served } from './studio-harness';

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

/** A booking agent whose `book` tool needs approval; `booked` records what actually ran. */
function bookingAgent(booked: string[]) {
  const book = defineTool({
    name: 'book',
    schema: { type: 'object', properties: { night: { type: 'string' } }, required: ['night'] },
    approval: true,
    execute: (args) => {
      booked.push((args as { night: string }).night);
      return 'booked';
    },
  });
  return new Agent({
    name: 'booking',
    model: new FunctionModel((request) => {
      const last = request.messages[request.messages.length - 1];
      return last?.role === 'tool'
        ? textResponse(`done: ${last.content ?? ''}`)
        : toolCallResponse([{ id: 'b1', name: 'book', args: { night: 'Friday' } }]);
    }),
    tools: [book],
    deferredTools: true,
  });
}

async function pausedRun(agent: ReturnType<typeof bookingAgent>, runId: string, owner?: string) {
  const result = await agent.run('book Friday', {
    store,
    runId,
    ...(owner !== undefined && { owner }),
  });
  expect(result.pending).toBeDefined();
}

/** Waits for the runs the studio started (close() settles them). */
async function settle(): Promise<void> {
  await served?.studio.close();
}

test('an approval through the API completes the run and the tool ran once', async () => {
  const booked: string[] = [];
  const agent = bookingAgent(booked);
  await pausedRun(agent, 'r1');
  served = await serve({ store, agents: [agent] });
  const detail = (await call(served, '/api/runs/r1')).json<RunDetail>();
  expect(detail.actions.decide).toBe(true);
  expect(detail.pending).toEqual([
    {
      callId: 'b1',
      toolName: 'book',
      args: '{"night":"Friday"}',
      reason: expect.any(String) as unknown,
      kind: 'approval',
    },
  ]);
  expect(detail.timeline[0]?.toolCalls[0]?.pending).toBe(true);
  const answer = await call(served, '/api/runs/r1/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: true } } },
  });
  expect(answer.status).toBe(202);
  expect(answer.json<StartedRun>()).toEqual({ runId: 'r1' });
  await settle();
  const record = await loadRun(store, 'r1');
  expect(record.status).toBe('completed');
  expect(record.output).toBe('done: booked');
  expect(booked).toEqual(['Friday']);
  expect(served.errors).toEqual([]);
});

test('a denial completes without running the tool; a second decision is 409', async () => {
  const booked: string[] = [];
  const agent = bookingAgent(booked);
  await pausedRun(agent, 'r1');
  served = await serve({ store, agents: [agent] });
  const answer = await call(served, '/api/runs/r1/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: false, reason: 'too dear' } } },
  });
  expect(answer.status).toBe(202);
  await served.studio.close();
  await served.stop();
  served = await serve({ store, agents: [agent] });
  const record = await loadRun(store, 'r1');
  expect(record.status).toBe('completed');
  expect(String(record.output)).toContain('too dear');
  expect(booked).toEqual([]);
  const again = await call(served, '/api/runs/r1/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: true } } },
  });
  expect(again.status).toBe(409);
});

test('bad bodies are 400; an unknown run or an unregistered agent is 404', async () => {
  const agent = bookingAgent([]);
  await pausedRun(agent, 'r1');
  served = await serve({ store });
  const unregistered = await call(served, '/api/runs/r1/decisions', { method: 'POST', body: {} });
  expect(unregistered.status).toBe(404);
  expect(unregistered.json<{ error: string }>().error).toContain('"booking" is not registered');
  await served.stop();
  served = await serve({ store, agents: [agent] });
  expect(
    (await call(served, '/api/runs/nope/decisions', { method: 'POST', body: {} })).status,
  ).toBe(404);
  const bad = await call(served, '/api/runs/r1/decisions', {
    method: 'POST',
    body: { approvals: { b1: 'yes' } },
  });
  expect(bad.status).toBe(400);
  expect(
    (
      await call(served, '/api/runs/r1/decisions', {
        method: 'POST',
        raw: '{',
        headers: { 'content-type': 'application/json' },
      })
    ).status,
  ).toBe(400);
  expect(
    (await call(served, '/api/runs/r1/replay', { method: 'POST', body: { fromTurn: 9 } })).status,
  ).toBe(400);
  expect(
    (
      await call(served, '/api/runs/r1/replay', {
        method: 'POST',
        body: { fromTurn: 0, model: 'nope' },
      })
    ).status,
  ).toBe(400);
});

test('owner scoping: another owner run is 404; decisions pass the run owner', async () => {
  const booked: string[] = [];
  const agent = bookingAgent(booked);
  await pausedRun(agent, 'mine', 'ann');
  await pausedRun(agent, 'theirs', 'bob');
  const owners: (string | undefined)[] = [];
  const spy = Object.assign(Object.create(agent) as typeof agent, {
    resume: (id: string, results: never, options?: { owner?: string }) => {
      owners.push(options?.owner);
      return agent.resume(id, results, options);
    },
  });
  served = await serve({ store, agents: [spy], owner: 'ann' });
  const theirs = await call(served, '/api/runs/theirs/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: true } } },
  });
  expect(theirs.status).toBe(404);
  expect((await call(served, '/api/runs/theirs')).status).toBe(404);
  const mine = await call(served, '/api/runs/mine/decisions', {
    method: 'POST',
    body: { approvals: { b1: { approved: true } } },
  });
  expect(mine.status).toBe(202);
  await settle();
  expect(owners).toEqual(['ann']);
  expect((await loadRun(store, 'mine')).status).toBe('completed');
  expect((await loadRun(store, 'theirs')).status).toBe('paused');
  expect(booked).toEqual(['Friday']);
});

test('resume: a completed or paused run is 409', async () => {
  const agent = bookingAgent([]);
  await pausedRun(agent, 'r1');
  served = await serve({ store, agents: [agent] });
  expect((await call(served, '/api/runs/r1/resume', { method: 'POST' })).status).toBe(409);
  expect((await call(served, '/api/runs/none/resume', { method: 'POST' })).status).toBe(404);
});

test('resume: a failed run at the model stage continues from its checkpoint', async () => {
  let fail = true;
  const agent = new Agent({
    name: 'flaky',
    model: new FunctionModel(() => {
      if (fail) throw new Error('provider down');
      return textResponse('recovered');
    }),
    retries: 0,
  } as never);
  await expect(agent.run('hi', { store, runId: 'f1' })).rejects.toThrow();
  expect((await loadRun(store, 'f1')).status).toBe('failed');
  fail = false;
  served = await serve({ store, agents: [agent] });
  expect((await call(served, '/api/runs/f1')).json<RunDetail>().actions.resume).toBe(true);
  expect((await call(served, '/api/runs/f1/resume', { method: 'POST' })).status).toBe(202);
  await settle();
  const record = await loadRun(store, 'f1');
  expect(record.status).toBe('completed');
  expect(record.output).toBe('recovered');
});

test('replay from turn 1 with a changed tool result: a new run, the original byte-identical', async () => {
  const booked: string[] = [];
  const agent = bookingAgent(booked);
  await pausedRun(agent, 'r1');
  await agent.resume('r1', { approvals: { b1: { approved: true } } }, { store });
  const before = await store.getRun('r1');
  served = await serve({ store, agents: [agent] });
  const answer = await call(served, '/api/runs/r1/replay', {
    method: 'POST',
    body: { fromTurn: 1, toolResults: { b1: 'fully booked' } },
  });
  expect(answer.status).toBe(202);
  const { runId } = answer.json<StartedRun>();
  expect(runId).toMatch(/^replay-[0-9a-f-]{36}$/);
  await settle();
  const replayed = await loadRun(store, runId);
  expect(replayed.status).toBe('completed');
  expect(replayed.output).toBe('done: fully booked');
  expect(replayed.messages.find((m) => m.role === 'tool')?.content).toBe('fully booked');
  expect(await store.getRun('r1')).toEqual(before);
  expect(booked).toEqual(['Friday']); // the replay did not run the tool again
  expect(served.errors).toEqual([]);
});

test('replay with a model uses that model; a changed prompt starts from turn 0', async () => {
  const agent = new Agent({ name: 'echo', model: new ScriptedModel([textResponse('original')]) });
  await agent.run('hello', { store, runId: 'e1', owner: 'ann' });
  const other = new FunctionModel((request) => {
    const last = request.messages[request.messages.length - 1];
    return textResponse(`other saw: ${last?.content ?? ''}`);
  });
  served = await serve({ store, agents: [agent], models: { other } });
  const answer = await call(served, '/api/runs/e1/replay', {
    method: 'POST',
    body: { fromTurn: 0, prompt: 'bonjour', model: 'other' },
  });
  expect(answer.status).toBe(202);
  await settle();
  const replayed = await loadRun(store, answer.json<StartedRun>().runId);
  expect(replayed.output).toBe('other saw: bonjour');
  expect(replayed.owner).toBe('ann');
  expect(replayed.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    'bonjour',
  ]);
});
