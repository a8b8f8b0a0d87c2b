/**
 * ListTasks of our A2A server (filters, pages, owner and endpoint scoping, stored runs) and the
 * recovery of a stored run left `running` by a server that stopped (a real SQLite store).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, loadRun } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import type { ListTasksResult } from '../../src/a2a/wire-types';
import {
  call,
  callError,
  closeAll,
  gate,
  getTask,
  message,
  post,
  send,
  serve,
  SseReader,
} from './server-harness';

afterEach(closeAll);

function textAgent(count: number, name = 'lister'): Agent {
  const texts = Array.from({ length: count }, (_, i) => `answer ${String(i)}`);
  return new Agent({ model: new ScriptedModel(texts.map((t) => textResponse(t))), name });
}

async function list(
  url: string,
  params: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Promise<ListTasksResult> {
  return (await call(url, 'ListTasks', params, headers)) as ListTasksResult;
}

describe('ListTasks', () => {
  test('lists newest first with filters, history and artifacts only on request', async () => {
    const { url } = await serve({ agents: textAgent(3) });
    const a = await send(url, message('one', { contextId: 'ctx-a' }));
    const b = await send(url, message('two', { contextId: 'ctx-b' }));
    const c = await send(url, message('three', { contextId: 'ctx-a' }));
    const all = await list(url);
    expect(all.totalSize).toBe(3);
    expect(all.pageSize).toBe(50);
    expect(all.nextPageToken).toBe('');
    const order = all.tasks.map((t) => t.id);
    expect(new Set(order)).toEqual(new Set([a.id, b.id, c.id]));
    const stamps = all.tasks.map((t) => t.status.timestamp ?? '');
    expect([...stamps].sort().reverse()).toEqual(stamps);
    expect(all.tasks.every((t) => t.artifacts === undefined)).toBe(true);
    expect(all.tasks[0]?.history?.[0]?.role).toBe('ROLE_USER');
    const inA = await list(url, { contextId: 'ctx-a', includeArtifacts: true, historyLength: 0 });
    expect(inA.tasks.map((t) => t.id).sort()).toEqual([a.id, c.id].sort());
    expect(inA.tasks.every((t) => t.history === undefined)).toBe(true);
    expect(inA.tasks.map((t) => t.artifacts?.[0]?.parts[0])).toEqual(
      expect.arrayContaining([{ text: 'answer 0' }, { text: 'answer 2' }]),
    );
    expect((await list(url, { status: 'TASK_STATE_COMPLETED' })).totalSize).toBe(3);
    expect((await list(url, { status: 'TASK_STATE_WORKING' })).tasks).toEqual([]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(url, { statusTimestampAfter: future })).tasks).toEqual([]);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await list(url, { statusTimestampAfter: past })).totalSize).toBe(3);
  });

  test('pages are stable and cover every task once; bad params are invalid (-32602)', async () => {
    const { url } = await serve({ agents: textAgent(5) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await send(url, message(`t${String(i)}`))).id);
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await list(url, { pageSize: 2, ...(token !== '' && { pageToken: token }) });
      expect(page.pageSize).toBe(2);
      expect(page.totalSize).toBe(5);
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...page.tasks.map((t) => t.id));
      token = page.nextPageToken;
      pages += 1;
    } while (token !== '' && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual([...ids].sort());
    expect((await list(url)).tasks.map((t) => t.id)).toEqual(
      (await list(url, { pageSize: 5 })).tasks.map((t) => t.id),
    );
    expect((await list(url, { pageSize: 500 })).pageSize).toBe(100);
    for (const bad of [
      { pageSize: 0 },
      { pageSize: 1.5 },
      { pageToken: 'not a token!' },
      { pageToken: Buffer.from('["x"]').toString('base64url') },
      { status: 'DONE' },
      { statusTimestampAfter: 'yesterday' },
      { historyLength: -1 },
    ]) {
      expect(await callError(url, 'ListTasks', bad)).toMatchObject({ code: -32602 });
    }
  });

  test("never shows another owner's or another endpoint's tasks", async () => {
    const { url } = await serve({
      agents: { one: textAgent(3), two: textAgent(1) },
      authenticate: (req) =>
        typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : false,
    });
    const alice = { 'x-user': 'alice' };
    const bob = { 'x-user': 'bob' };
    const mine = await send(`${url}/one`, message('a'), alice);
    await send(`${url}/one`, message('b'), bob);
    await send(`${url}/two`, message('c'), alice);
    const listed = await list(`${url}/one`, {}, alice);
    expect(listed.tasks.map((t) => t.id)).toEqual([mine.id]);
    expect(listed.totalSize).toBe(1);
  });

  test('with a store, a new server lists the stored runs of its agent and owner', async () => {
    const store = memoryStore();
    const headers = { 'x-user': 'alice' };
    const authenticate = (req: { headers: Record<string, unknown> }) =>
      typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : false;
    const first = await serve({ agents: textAgent(2), store, authenticate });
    const one = await send(first.url, message('one', { contextId: 'c-1' }), headers);
    await send(first.url, message('two', { contextId: 'c-2' }), { 'x-user': 'bob' });
    const other = await serve({ agents: textAgent(1, 'someone-else'), store, authenticate });
    await send(other.url, message('x'), headers);
    const again = await serve({ agents: textAgent(0), store, authenticate });
    const listed = await list(again.url, { includeArtifacts: true }, headers);
    expect(listed.tasks).toEqual([
      expect.objectContaining({
        id: one.id,
        contextId: 'c-1',
        status: expect.objectContaining({ state: 'TASK_STATE_COMPLETED' }) as unknown,
        artifacts: [expect.objectContaining({ parts: [{ text: 'answer 0' }] })],
      }),
    ]);
    expect((await list(again.url, { contextId: 'c-2' }, headers)).tasks).toEqual([]);
    expect((await list(again.url, { status: 'TASK_STATE_FAILED' }, headers)).tasks).toEqual([]);
  });
});

describe('a stored run left running by a stopped server', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A SQLite store in a temp dir with a clock the test moves. */
  function sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'golem-a2a-'));
    dirs.push(dir);
    const clock = { now: Date.now() };
    const store = sqliteStore({ path: join(dir, 'runs.db'), clock: () => clock.now });
    return { store, clock };
  }

  /** Starts a run on a first server whose model never answers (its process "dies" mid-run). */
  async function stranded(store: ReturnType<typeof sqlite>['store']) {
    const started = gate();
    const model = new FunctionModel(
      (_request, options) =>
        new Promise((_resolve, reject) => {
          options.signal?.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
          started.open();
        }),
    );
    const first = await serve({ agents: new Agent({ model, name: 'worker' }), store });
    const task = await send(first.url, {
      ...message('long job', { contextId: 'job-1' }),
      configuration: { returnImmediately: true },
    });
    await started.promise;
    expect((await loadRun(store, task.id)).status).toBe('running');
    return task;
  }

  test('reads WORKING while its lease is live, then is continued from its checkpoint once it expired', async () => {
    const { store, clock } = sqlite();
    const task = await stranded(store);
    const called = gate();
    const release = gate<string>();
    const model = new FunctionModel(async () => {
      called.open();
      return textResponse(await release.promise);
    });
    const restarted = await serve({ agents: new Agent({ model, name: 'worker' }), store });
    const live = await getTask(restarted.url, task.id);
    expect(live.status.state).toBe('TASK_STATE_WORKING');
    expect(model.requests).toHaveLength(0);
    // Forget it here, so the next read goes to the store again (as on another instance).
    const third = await serve({ agents: new Agent({ model, name: 'worker' }), store });
    clock.now += store.leaseMs + 1;
    const touched = await getTask(third.url, task.id);
    expect(touched.status.state).toBe('TASK_STATE_WORKING');
    await called.promise;
    expect(model.requests[0]?.messages.map((m) => m.content)).toContain('long job');
    const res = await post(third.url, {
      jsonrpc: '2.0',
      id: 'sub',
      method: 'SubscribeToTask',
      params: { id: task.id },
    });
    const reader = new SseReader(res);
    release.open('recovered answer');
    const states = (await reader.rest())
      .filter((r) => 'statusUpdate' in r)
      .map((r) => (r.statusUpdate as { status: { state: string } }).status.state);
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    const done = await getTask(third.url, task.id);
    expect(done.artifacts?.[0]?.parts).toEqual([{ text: 'recovered answer' }]);
    expect((await loadRun(store, task.id)).status).toBe('completed');
    await closeAll();
    await store.close();
  });

  test('with recover: false it stays WORKING and nothing runs', async () => {
    const { store, clock } = sqlite();
    const task = await stranded(store);
    const model = new ScriptedModel([textResponse('must not run')]);
    const restarted = await serve({
      agents: new Agent({ model, name: 'worker' }),
      store,
      recover: false,
    });
    clock.now += store.leaseMs + 1;
    expect((await getTask(restarted.url, task.id)).status.state).toBe('TASK_STATE_WORKING');
    const listed = await list(restarted.url);
    expect(listed.tasks.map((t) => [t.id, t.status.state])).toEqual([
      [task.id, 'TASK_STATE_WORKING'],
    ]);
    expect(model.requests).toHaveLength(0);
    expect((await loadRun(store, task.id)).status).toBe('running');
    await closeAll();
    await store.close();
  });

  test('ListTasks continues an abandoned run it lists', async () => {
    const { store, clock } = sqlite();
    const task = await stranded(store);
    const called = gate();
    const model = new FunctionModel(() => {
      called.open();
      return textResponse('listed and recovered');
    });
    const restarted = await serve({ agents: new Agent({ model, name: 'worker' }), store });
    clock.now += store.leaseMs + 1;
    const listed = await list(restarted.url);
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    await called.promise;
    await closeAll();
    await store.close();
  });
});
