import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, type RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { RunDetail, RunPage, StudioInfo } from '../../src/studio/api-types';
import { createStudio } from '../../src/studio/server';
import { call, serve, type Served } from './studio-harness';

let dir: string;
let store: RunStore;
let served: Served | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-studio-'));
  let now = Date.now();
  // A clock that moves at every read, so every run has its own updatedAt.
  store = sqliteStore({ path: join(dir, 'runs.db'), clock: () => (now += 1) });
});

afterEach(async () => {
  await served?.stop();
  served = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function weatherAgent(name = 'weather') {
  const weather = defineTool({
    name: 'weather',
    description: 'The weather of a city',
    schema: { type: 'object', properties: { city: { type: 'string' } } },
    execute: (args) => `sunny in ${(args as { city: string }).city}`,
  });
  return new Agent({
    name,
    description: 'Answers about the weather',
    model: new ScriptedModel([
      toolCallResponse([{ id: 'w1', name: 'weather', args: { city: 'Paris' } }], {
        inputTokens: 10,
        outputTokens: 3,
      }),
      textResponse('It is sunny.', { inputTokens: 20, outputTokens: 5 }),
    ]),
    tools: [weather],
  });
}

async function seed(owner: string, runId: string, name = 'weather'): Promise<void> {
  await weatherAgent(name).run('weather in Paris?', { store, runId, owner });
}

describe('security', () => {
  test('API and SSE need the token: none or a wrong one is 401 without echoing it', async () => {
    served = await serve({ store, token: 'a-very-secret-token-123' });
    for (const path of ['/api/info', '/api/runs', '/api/runs/stream', '/api/runs/x/stream']) {
      const none = await call(served, path, { token: null });
      expect([path, none.status]).toEqual([path, 401]);
      expect(none.headers['www-authenticate']).toBe('Bearer');
      const wrong = await call(served, path, { token: 'a-very-secret-token-124' });
      expect(wrong.status).toBe(401);
      expect(wrong.text).not.toContain('a-very-secret-token');
    }
    expect(
      (await call(served, '/v1/traces', { method: 'POST', body: {}, token: null })).status,
    ).toBe(401);
    // ?token= is accepted only on SSE streams
    expect(
      (await call(served, '/api/info?token=a-very-secret-token-123', { token: null })).status,
    ).toBe(401);
    expect((await call(served, '/api/info')).status).toBe(200);
  });

  test('a generated token is 32 random bytes in base64url, different per studio', () => {
    const a = createStudio({ store }).token;
    const b = createStudio({ store }).token;
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  test('a non-loopback Host and a foreign Origin are 403; allowedHosts admits a host', async () => {
    served = await serve({ store, allowedHosts: ['studio.internal'] });
    const evil = await call(served, '/api/info', { headers: { host: 'evil.example:80' } });
    expect(evil.status).toBe(403);
    const page = await call(served, '/', { headers: { host: 'evil.example' }, token: null });
    expect(page.status).toBe(403);
    const allowed = await call(served, '/api/info', { headers: { host: 'studio.internal:8080' } });
    expect(allowed.status).toBe(200);
    const foreign = await call(served, '/api/info', {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const own = await call(served, '/api/info', {
      headers: { origin: `http://127.0.0.1:${served.port}` },
    });
    expect(own.status).toBe(200);
  });

  test('a body over 1 MiB is 413', async () => {
    served = await serve({ store, agents: [weatherAgent()] });
    const big = await call(served, '/api/runs/x/replay', {
      method: 'POST',
      raw: Buffer.alloc(1024 * 1024 + 1, 'a'),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
  });

  test('an internal error answers a ref only and reaches onError', async () => {
    const broken = {
      ...store,
      listRuns: () => Promise.reject(new Error('db password=hunter2 refused')),
    };
    served = await serve({ store: broken });
    const answer = await call(served, '/api/runs');
    expect(answer.status).toBe(500);
    expect(answer.json()).toEqual({
      error: expect.stringMatching(/^internal error \(ref [0-9a-f]{8}\)$/) as unknown,
    });
    expect(answer.text).not.toContain('hunter2');
    expect(served.errors).toHaveLength(1);
  });
});

describe('static files', () => {
  test('files with content types and caching, SPA fallback, traversal refused, no token needed', async () => {
    const app = join(dir, 'app');
    mkdirSync(join(app, 'assets'), { recursive: true });
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>studio</title>');
    writeFileSync(join(app, 'assets', 'main-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'top secret');
    served = await serve({ store, appDir: app });
    const index = await call(served, '/', { token: null });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-store');
    // The page may not be framed (clickjacking the approve buttons) nor run foreign scripts.
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['x-frame-options']).toBe('DENY');
    const asset = await call(served, '/assets/main-abc123.js', { token: null });
    expect(asset.text).toBe('console.log(1)');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
    const spa = await call(served, '/runs/some-id', { token: null });
    expect(spa.text).toContain('<title>studio</title>');
    expect((await call(served, '/assets/missing.js', { token: null })).status).toBe(404);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const answer = await call(served, path, { token: null });
      expect(answer.text).not.toContain('top secret');
    }
  });

  test('without a built app, / says how to build it', async () => {
    served = await serve({ store, appDir: join(dir, 'nothing') });
    const page = await call(served, '/', { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('npm run build:studio');
  });
});

describe('info and runs', () => {
  test('GET /api/info lists agents, models and features', async () => {
    served = await serve({
      store,
      agents: { w: weatherAgent() },
      models: { alt: new ScriptedModel() },
    });
    const info = (await call(served, '/api/info')).json<StudioInfo>();
    expect(info.agents).toEqual([
      {
        name: 'weather',
        description: 'Answers about the weather',
        tools: [{ name: 'weather', description: 'The weather of a city' }],
        handoffs: [],
        structuredOutput: false,
        streaming: true,
        deferredTools: false,
      },
    ]);
    expect(info.models).toEqual(['alt']);
    expect(info.features).toEqual({ traces: true, evals: false, playground: true, queue: false });
  });

  test('GET /api/runs filters, searches and pages, newest first', async () => {
    await seed('ann', 'run-a');
    await seed('bob', 'run-b');
    await seed('ann', 'run-c', 'other');
    served = await serve({ store });
    const all = (await call(served, '/api/runs')).json<RunPage>();
    expect(all.total).toBe(3);
    expect(all.runs.map((r) => r.id)).toEqual(['run-c', 'run-b', 'run-a']);
    const first = all.runs[2];
    expect(first).toMatchObject({
      agent: 'weather',
      status: 'completed',
      owner: 'ann',
      turns: 2,
      toolCalls: 1,
      usage: { inputTokens: 30, outputTokens: 8 },
      pending: 0,
      held: false,
    });
    const ann = (await call(served, '/api/runs?owner=ann&agent=weather')).json<RunPage>();
    expect(ann.runs.map((r) => r.id)).toEqual(['run-a']);
    expect((await call(served, '/api/runs?q=RUN-B')).json<RunPage>().runs.map((r) => r.id)).toEqual(
      ['run-b'],
    );
    expect((await call(served, '/api/runs?status=paused')).json<RunPage>().total).toBe(0);
    const page1 = (await call(served, '/api/runs?limit=2')).json<RunPage>();
    expect(page1.runs).toHaveLength(2);
    expect(page1.nextOffset).toBe(2);
    const page2 = (await call(served, '/api/runs?limit=2&offset=2')).json<RunPage>();
    expect(page2.runs.map((r) => r.id)).toEqual(['run-a']);
    expect(page2.nextOffset).toBeUndefined();
    const future = (await call(served, `/api/runs?since=${Date.now() + 60_000}`)).json<RunPage>();
    expect(future.total).toBe(0);
  });

  test('GET /api/runs/:id has the timeline, messages and actions; owner scoping hides others', async () => {
    await seed('ann', 'run-a');
    await seed('bob', 'run-b');
    served = await serve({ store, owner: 'ann', agents: [weatherAgent()] });
    const detail = (await call(served, '/api/runs/run-a')).json<RunDetail>();
    expect(detail.summary.id).toBe('run-a');
    expect(detail.timeline).toHaveLength(2);
    expect(detail.timeline[0]).toMatchObject({
      prompt: 'weather in Paris?',
      toolCalls: [{ id: 'w1', name: 'weather', result: 'sunny in Paris', isError: false }],
    });
    expect(detail.timeline[1]?.text).toBe('It is sunny.');
    expect(detail.messages[0]).toEqual({ role: 'user', content: 'weather in Paris?' });
    expect(detail.checkpoints).toEqual([0, 1, 2]);
    expect(detail.output).toBe('It is sunny.');
    expect(detail.actions).toEqual({ decide: false, resume: false, replay: true, cancel: false });
    expect((await call(served, '/api/runs/run-b')).status).toBe(404);
    expect((await call(served, '/api/runs/nope')).status).toBe(404);
    const list = (await call(served, '/api/runs')).json<RunPage>();
    expect(list.runs.map((r) => r.id)).toEqual(['run-a']);
    expect((await call(served, '/api/runs?owner=bob')).json<RunPage>().total).toBe(0);
  });
});
