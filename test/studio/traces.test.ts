import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, type RunStore } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import type { RunDetail } from '../../src/studio/api-types';
import { otlpSpans } from '../../src/studio/otlp-json';
import { SpanStore } from '../../src/studio/span-store';
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

const TRACE = '5b8efff798038103d269b633813fc60c';
const T0 = 1_700_000_000_000n * 1_000_000n; // ns

type Attr = { key: string; value: Record<string, unknown> };
function span(
  id: string,
  name: string,
  startMs: number,
  durMs: number,
  attributes: Attr[],
  parent?: string,
) {
  return {
    traceId: TRACE,
    spanId: id,
    ...(parent !== undefined && { parentSpanId: parent }),
    name,
    kind: 3,
    startTimeUnixNano: String(T0 + BigInt(startMs) * 1_000_000n),
    endTimeUnixNano: String(T0 + BigInt(startMs + durMs) * 1_000_000n),
    attributes,
    status: { code: name === 'chat fail' ? 2 : 0 },
  };
}
const str = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
const int = (key: string, v: number): Attr => ({ key, value: { intValue: String(v) } });

function exportBody(runId: string) {
  const root = 'eee19b7ec3c1b174';
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'test')] },
        scopeSpans: [
          {
            scope: { name: 'golem' },
            spans: [
              span(root, 'invoke_agent tripper', 0, 100, [
                str('golem.run.id', runId),
                { key: 'golem.stream', value: { boolValue: false } },
              ]),
              span(
                'aaaaaaaaaaaaaaa1',
                'chat fail',
                1,
                10,
                [int('golem.turn', 0), int('golem.attempt', 1)],
                root,
              ),
              span(
                'aaaaaaaaaaaaaaa2',
                'chat scripted',
                12,
                8,
                [
                  int('golem.turn', 0),
                  int('golem.attempt', 2),
                  int('gen_ai.usage.input_tokens', 11),
                  int('gen_ai.usage.output_tokens', 4),
                ],
                root,
              ),
              span(
                'aaaaaaaaaaaaaaa3',
                'execute_tool weather',
                21,
                2,
                [str('gen_ai.tool.name', 'weather')],
                root,
              ),
              span(
                'aaaaaaaaaaaaaaa4',
                'chat scripted',
                30,
                5,
                [
                  int('golem.turn', 1),
                  int('golem.attempt', 1),
                  int('gen_ai.usage.input_tokens', 20),
                  int('gen_ai.usage.output_tokens', 2),
                  { key: 'x.ratio', value: { doubleValue: 0.5 } },
                ],
                root,
              ),
              { spanId: 'bad' },
            ],
          },
        ],
      },
    ],
  };
}

test('POST /v1/traces keeps spans; the run detail has them and per-turn usage and attempts', async () => {
  const weather = defineTool({
    name: 'weather',
    schema: { type: 'object' },
    execute: () => 'sunny',
  });
  const agent = new Agent({
    name: 'tripper',
    model: new ScriptedModel([
      toolCallResponse([{ id: 'w1', name: 'weather' }]),
      textResponse('Sunny.'),
    ]),
    tools: [weather],
  });
  await agent.run('weather?', { store, runId: 'run-t' });
  served = await serve({ store });
  const posted = await call(served, '/v1/traces', { method: 'POST', body: exportBody('run-t') });
  expect(posted.status).toBe(200);
  expect(posted.json()).toEqual({ partialSuccess: {} });
  // an exporter's retry of the same spans is kept once
  await call(served, '/v1/traces', { method: 'POST', body: exportBody('run-t') });
  const detail = (await call(served, '/api/runs/run-t')).json<RunDetail>();
  expect(detail.spans).toHaveLength(5);
  expect(detail.spans.map((s) => s.name)).toContain('invoke_agent tripper');
  const root = detail.spans.find((s) => s.name === 'invoke_agent tripper');
  expect(root).toMatchObject({
    traceId: TRACE,
    startMs: 1_700_000_000_000,
    durationMs: 100,
    status: 'unset',
  });
  expect(root?.attributes).toEqual({
    'golem.run.id': expect.any(String) as unknown,
    'golem.stream': false,
  });
  expect(detail.spans.find((s) => s.name === 'chat fail')?.status).toBe('error');
  expect(detail.spans.find((s) => s.spanId === 'aaaaaaaaaaaaaaa4')?.attributes['x.ratio']).toBe(
    0.5,
  );
  expect(detail.timeline[0]).toMatchObject({
    attempts: 2,
    usage: { inputTokens: 11, outputTokens: 4 },
    durationMs: 19,
  });
  expect(detail.timeline[1]).toMatchObject({
    attempts: 1,
    usage: { inputTokens: 20, outputTokens: 2 },
    durationMs: 5,
  });
  const none = (await call(served, '/api/runs')).json<{ runs: unknown[] }>();
  expect(none.runs).toHaveLength(1);
});

test('protobuf is 415 naming http/json; traces: false turns the endpoint off', async () => {
  served = await serve({ store });
  const proto = await call(served, '/v1/traces', {
    method: 'POST',
    raw: Buffer.from([1, 2, 3]),
    headers: { 'content-type': 'application/x-protobuf' },
  });
  expect(proto.status).toBe(415);
  expect(proto.text).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=http/json');
  expect((await call(served, '/v1/traces', { method: 'POST', body: [1] })).status).toBe(400);
  await served.stop();
  served = await serve({ store, traces: false });
  expect((await call(served, '/v1/traces', { method: 'POST', body: exportBody('x') })).status).toBe(
    404,
  );
});

test('the span ring keeps at most maxSpans, dropping the oldest and their run index', () => {
  const spans = otlpSpans(exportBody('r'));
  expect(spans).toHaveLength(5);
  const ring = new SpanStore(3);
  ring.add(spans ?? []);
  expect(ring.size).toBe(3);
  // the root span went first; the run keeps the spans of its trace still held
  expect(ring.ofRun('r').map((s) => s.spanId)).toEqual([
    'aaaaaaaaaaaaaaa2',
    'aaaaaaaaaaaaaaa3',
    'aaaaaaaaaaaaaaa4',
  ]);
  ring.add(
    (spans ?? [])
      .slice(0, 3)
      .map((s) => ({ ...s, traceId: 'ffffffffffffffffffffffffffffffff', attributes: {} })),
  );
  expect(ring.size).toBe(3);
  expect(ring.ofRun('r')).toEqual([]); // the trace is gone, and the run's index with it
  const kept = new SpanStore(10);
  kept.add(spans ?? []);
  expect(kept.ofRun('r').map((s) => s.spanId)).toEqual([
    'eee19b7ec3c1b174',
    'aaaaaaaaaaaaaaa1',
    'aaaaaaaaaaaaaaa2',
    'aaaaaaaaaaaaaaa3',
    'aaaaaaaaaaaaaaa4',
  ]);
  expect(otlpSpans('nope')).toBeUndefined();
  expect(otlpSpans({})).toEqual([]);
});

/** A priced trace of `runId`: two chat spans with a `golem.cost.*` price each, and the run span's. */
function pricedBody(runId: string) {
  const root = 'ccc19b7ec3c1b174';
  const price = (total: number): Attr[] => [
    { key: 'golem.cost.total', value: { doubleValue: total } },
    str('golem.cost.currency', 'USD'),
  ];
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              span(root, 'invoke_agent tripper', 0, 50, [
                str('golem.run.id', runId),
                ...price(0.5), // the chat spans' sum wins over the run span's
              ]),
              span(
                'bbbbbbbbbbbbbbb1',
                'chat scripted',
                1,
                10,
                [int('golem.attempt', 1), ...price(0.004)],
                root,
              ),
              span(
                'bbbbbbbbbbbbbbb2',
                'chat scripted',
                20,
                10,
                [int('golem.attempt', 1), ...price(0.002)],
                root,
              ),
            ],
          },
        ],
      },
    ],
  };
}

test('a priced trace gives the run and its turns a cost; minCost filters the runs list', async () => {
  const agent = (name: string) =>
    new Agent({
      name,
      model: new ScriptedModel([
        toolCallResponse([{ id: 'w1', name: 'noop' }]),
        textResponse('ok'),
      ]),
      tools: [defineTool({ name: 'noop', schema: { type: 'object' }, execute: () => 'done' })],
    });
  await agent('tripper').run('go', { store, runId: 'run-priced' });
  await agent('tripper').run('go', { store, runId: 'run-unpriced' });
  served = await serve({ store });
  await call(served, '/v1/traces', { method: 'POST', body: pricedBody('run-priced') });
  const page = (await call(served, '/api/runs')).json<{
    runs: { id: string; cost?: { total: number; currency: string } }[];
  }>();
  const priced = page.runs.find((r) => r.id === 'run-priced');
  expect(priced?.cost?.currency).toBe('USD');
  expect(priced?.cost?.total).toBeCloseTo(0.006, 10);
  expect(page.runs.find((r) => r.id === 'run-unpriced')?.cost).toBeUndefined();
  const atLeast = async (amount: string) =>
    (await call(served as Served, `/api/runs?minCost=${amount}`))
      .json<{ runs: { id: string }[] }>()
      .runs.map((r) => r.id);
  expect(await atLeast('0.005')).toEqual(['run-priced']);
  expect(await atLeast('0.01')).toEqual([]);
  expect(await atLeast('not-a-number')).toHaveLength(2); // ignored
  const detail = (await call(served, '/api/runs/run-priced')).json<RunDetail>();
  expect(detail.timeline[0]?.cost).toEqual({ total: 0.004, currency: 'USD' });
  expect(detail.timeline[1]?.cost).toEqual({ total: 0.002, currency: 'USD' });
});

test("a run's guardrail decisions come from its spans' golem.guardrail events, in time order", async () => {
  const agent = new Agent({ name: 'tripper', model: new ScriptedModel([textResponse('ok')]) });
  await agent.run('go', { store, runId: 'run-guarded' });
  served = await serve({ store });
  const event = (ms: number, attributes: Attr[]) => ({
    name: 'golem.guardrail',
    timeUnixNano: String(T0 + BigInt(ms) * 1_000_000n),
    attributes,
  });
  const root = 'ddd19b7ec3c1b174';
  const body = {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                ...span(root, 'invoke_agent tripper', 0, 50, [str('golem.run.id', 'run-guarded')]),
                events: [
                  event(40, [
                    str('golem.guardrail.name', 'no-pii'),
                    str('golem.guardrail.phase', 'output'),
                    str('golem.guardrail.outcome', 'rewrite'),
                  ]),
                  event(1, [
                    str('golem.guardrail.name', 'topic'),
                    str('golem.guardrail.phase', 'input'),
                    str('golem.guardrail.outcome', 'pass'),
                  ]),
                  { name: 'golem.guardrail' }, // no time: skipped
                ],
              },
              {
                ...span('ddddddddddddddd1', 'execute_tool refund', 10, 5, [], root),
                events: [
                  event(12, [
                    str('golem.guardrail.name', 'refund-limit'),
                    str('golem.guardrail.phase', 'tool-input'),
                    str('golem.guardrail.outcome', 'trip'),
                    str('golem.guardrail.reason', 'over 100 EUR'),
                    str('gen_ai.tool.name', 'refund'),
                    str('gen_ai.tool.call.id', 'c9'),
                  ]),
                  event(13, [str('other.event', 'x')]), // no name nor outcome: not a decision
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  await call(served, '/v1/traces', { method: 'POST', body });
  const detail = (await call(served, '/api/runs/run-guarded')).json<RunDetail>();
  expect(detail.guardrails).toEqual([
    { name: 'topic', phase: 'input', outcome: 'pass', timeMs: 1_700_000_000_001 },
    {
      name: 'refund-limit',
      phase: 'tool-input',
      outcome: 'trip',
      reason: 'over 100 EUR',
      toolName: 'refund',
      callId: 'c9',
      timeMs: 1_700_000_000_012,
    },
    { name: 'no-pii', phase: 'output', outcome: 'rewrite', timeMs: 1_700_000_000_040 },
  ]);
  expect(detail.spans.find((s) => s.name === 'execute_tool refund')?.events).toHaveLength(2);
});
