/**
 * With the real OpenTelemetry SDK: the `invoke_agent` span of every stored run carries
 * `golem.run.id` — the id the store generated too, on success, on failure, and on a resume by id —
 * so an operator goes from a trace to the stored run; after a fallback the `chat` span's name
 * names the member that answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  FallbackModel,
  ModelHTTPError,
  RunError,
  defineTool,
  loadRun,
  type RunStore,
} from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, type OtelHarness } from './harness';

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

function instrumentation() {
  return otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
  });
}

function runIds(agent: string): unknown[] {
  return named(otel.spans(), `invoke_agent ${agent}`).map((s) => s.attributes['golem.run.id']);
}

const stores: [string, () => { store: RunStore; cleanup: () => Promise<void> }][] = [
  ['memory', () => ({ store: memoryStore(), cleanup: () => Promise.resolve() })],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'golem-otel-run-id-'));
      const store = sqliteStore({ path: join(dir, 'runs.db') });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(stores)('golem.run.id on invoke_agent (%s store)', (_name, open) => {
  let store: RunStore;
  let cleanup: () => Promise<void>;
  beforeEach(() => {
    ({ store, cleanup } = open());
  });
  afterEach(() => cleanup());

  test('a completed run whose id the store generated', async () => {
    const agent = new Agent({
      name: 'stored',
      model: new ScriptedModel([textResponse('done')]),
      store,
      instrumentation: instrumentation(),
    });
    const result = await agent.run('go');
    expect(typeof result.runId).toBe('string');
    expect(runIds('stored')).toEqual([result.runId]);
    expect((await loadRun(store, result.runId ?? '')).status).toBe('completed');
  });

  test('a streamed run whose id the store generated', async () => {
    const agent = new Agent({
      name: 'streamed',
      model: new ScriptedModel([textResponse('done')]),
      store,
      instrumentation: instrumentation(),
    });
    const result = await agent.runStream('go').result;
    expect(runIds('streamed')).toEqual([result.runId]);
  });

  test('a failed run whose id the store generated', async () => {
    const agent = new Agent({
      name: 'failing',
      model: new FunctionModel(() => {
        throw new ModelHTTPError({ status: 400, provider: 'acme', message: 'bad request' });
      }),
      store,
      instrumentation: instrumentation(),
    });
    const error: unknown = await agent.run('go').catch((e: unknown) => e);
    expect(RunError.is(error)).toBe(true);
    const runId = (error as RunError).runId;
    expect(typeof runId).toBe('string');
    expect(runIds('failing')).toEqual([runId]);
    expect((await loadRun(store, runId ?? '')).status).toBe('failed');
  });

  test('a paused run resumed by its id: both spans carry it', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays',
      schema: { type: 'object', properties: {} },
      approval: true,
      execute: () => 'paid',
    });
    const agent = new Agent({
      name: 'payer',
      model: new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'pay' }]), textResponse('ok')]),
      tools: [pay],
      deferredTools: true,
      store,
      instrumentation: instrumentation(),
    });
    const paused = await agent.run('pay');
    expect(paused.pending).toBeDefined();
    const runId = paused.runId ?? '';
    const again = await agent.resumeRun(runId); // a paused run comes back as it is, untraced
    expect(again.pending).toBeDefined();
    const done = await agent.resume(runId, { approvals: { c1: { approved: true } } });
    expect(done.output).toBe('ok');
    expect(runIds('payer')).toEqual([runId, runId]);
  });
});

test('after a fallback the chat span is named after the member that answered', async () => {
  const primary = new ScriptedModel([new ModelHTTPError({ status: 503, provider: 'openai' })], {
    name: 'openai:gpt-4o',
  });
  const backup = new ScriptedModel([textResponse('from backup')], {
    name: 'anthropic:claude-haiku-4-5',
  });
  const agent = new Agent({
    name: 'resilient',
    model: new FallbackModel([primary, backup]),
    instrumentation: instrumentation(),
  });
  await agent.run('go');
  const spans = otel.spans();
  expect(named(spans, 'chat gpt-4o')).toHaveLength(0);
  const [chat] = named(spans, 'chat claude-haiku-4-5');
  expect(chat?.attributes).toMatchObject({
    'gen_ai.provider.name': 'anthropic',
    'gen_ai.request.model': 'claude-haiku-4-5',
  });
});
