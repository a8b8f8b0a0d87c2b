'use strict';
/**
 * Tracing overhead (issue 17): scenario (a) — the 3-turn tool loop — on the built Golem, with
 * `golem/otel` off, installed but with no SDK registered, and tracing into the real SDK with an
 * in-memory exporter (spans only, then spans and metrics). Targets: no SDK ≈ 0, in-memory
 * tracing ≤ +20 % over no instrumentation. Variants are interleaved round by round so machine
 * noise hits them alike; medians of per-run microseconds are printed with ratios. The SDK's own
 * floor is measured through the same port (`otel-floor.js`: the same 6 spans, bare), so what a
 * traced run costs above it is golem/otel's own share.
 *
 *   node --expose-gc otel.js [--runs=2000] [--rounds=15]
 */
const path = require('node:path');
const S = require('./scenario');
const { DIST, ROOT } = require('./golem');
const { fakeModel } = require('./frameworks/golem-model');
const { floorInstrumentation } = require('./otel-floor');

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const RUNS = Number(args.runs ?? 2000);
const ROUNDS = Number(args.rounds ?? 15);

/** A package as the root (and so the built golem/otel) resolves it: one @opentelemetry/api. */
const fromRoot = (name) => require(require.resolve(name, { paths: [ROOT] }));
const { Agent, defineTool } = require(path.join(DIST, 'src', 'core', 'index.js'));
const { otelInstrumentation } = require(path.join(DIST, 'src', 'otel', 'index.js'));
const api = fromRoot('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = fromRoot('@opentelemetry/context-async-hooks');
const traceBase = fromRoot('@opentelemetry/sdk-trace-base');
const sdkMetrics = fromRoot('@opentelemetry/sdk-metrics');

function agentWith(instrumentation) {
  const addTool = defineTool({
    name: 'add',
    description: S.ADD_DESCRIPTION,
    schema: S.ADD_SCHEMA,
    parse: S.parseAddArgs,
    execute: S.add,
  });
  return new Agent({
    model: fakeModel,
    instructions: S.SYSTEM,
    tools: [addTool],
    ...(instrumentation !== undefined && { instrumentation }),
  });
}

/** Microseconds per run of `runs` sequential runs. */
async function sample(agent, runs) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) {
    const result = await agent.run(S.PROMPT_A);
    if (result.output !== S.FINAL_TEXT) throw new Error(`unexpected output ${result.output}`);
  }
  return Number(process.hrtime.bigint() - start) / 1000 / runs;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Interleaved rounds of every variant; `between` runs after each round (exporter reset). */
async function measure(variants, between = () => undefined) {
  const times = new Map(variants.map((v) => [v.label, []]));
  for (const v of variants) await sample(v.agent, Math.max(200, RUNS / 5)); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of variants) {
      if (global.gc) global.gc();
      times.get(v.label).push(await sample(v.agent, RUNS));
      await between();
    }
  }
  return variants.map((v) => ({ label: v.label, median: median(times.get(v.label)) }));
}

function print(title, rows) {
  const base = rows[0].median;
  console.log(title);
  for (const row of rows) {
    const ratio = row.median / base;
    const delta = ((ratio - 1) * 100).toFixed(1);
    console.log(
      `  ${row.label.padEnd(44)} ${row.median.toFixed(1).padStart(8)} µs/run   ×${ratio.toFixed(3)} (${ratio >= 1 ? '+' : ''}${delta} %)`,
    );
  }
}

async function main() {
  console.log(
    `scenario (a), ${RUNS} runs × ${ROUNDS} rounds per variant, medians (Node ${process.version})`,
  );
  // Phase 1: nothing registered, as in an app that has golem/otel wired but no SDK started.
  const phase1 = await measure([
    { label: 'no instrumentation', agent: agentWith(undefined) },
    { label: 'otelInstrumentation(), no SDK registered', agent: agentWith(otelInstrumentation()) },
    { label: 'no instrumentation (again: the noise floor)', agent: agentWith(undefined) },
  ]);
  print('(1) OTel installed, no SDK:', phase1);
  if (args.phase === '1') return;

  // Phase 2: the SDK's async context manager, as any traced Node app has it.
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new traceBase.InMemorySpanExporter();
  const tracerProvider = new traceBase.BasicTracerProvider({
    spanProcessors: [new traceBase.SimpleSpanProcessor(exporter)],
  });
  // What production uses: spans exported in batches (here flushed between samples).
  const batchExporter = new traceBase.InMemorySpanExporter();
  const batch = new traceBase.BatchSpanProcessor(batchExporter, {
    maxQueueSize: RUNS * 8,
    maxExportBatchSize: RUNS * 8,
    scheduledDelayMillis: 60_000,
  });
  const batchProvider = new traceBase.BasicTracerProvider({ spanProcessors: [batch] });
  // The SDK's floor through golem's port: the same 6 spans, batched the same way, no golem/otel.
  const portExporter = new traceBase.InMemorySpanExporter();
  const portBatch = new traceBase.BatchSpanProcessor(portExporter, {
    maxQueueSize: RUNS * 8,
    maxExportBatchSize: RUNS * 8,
    scheduledDelayMillis: 60_000,
  });
  const portProvider = new traceBase.BasicTracerProvider({ spanProcessors: [portBatch] });
  class Reader extends sdkMetrics.MetricReader {
    onShutdown() {
      return Promise.resolve();
    }
    onForceFlush() {
      return Promise.resolve();
    }
  }
  const meterProvider = new sdkMetrics.MeterProvider({ readers: [new Reader()] });
  const phase2 = await measure(
    [
      { label: 'no instrumentation', agent: agentWith(undefined) },
      {
        label: 'spans → BatchSpanProcessor → in-memory',
        agent: agentWith(otelInstrumentation({ tracerProvider: batchProvider, metrics: false })),
      },
      {
        label: 'SDK floor: same spans, bare, via the port',
        agent: agentWith(floorInstrumentation(api, portProvider.getTracer('floor'))),
      },
      {
        label: 'spans → SimpleSpanProcessor → in-memory',
        agent: agentWith(otelInstrumentation({ tracerProvider, metrics: false })),
      },
      {
        label: 'spans + metrics (in-memory)',
        agent: agentWith(otelInstrumentation({ tracerProvider, meterProvider })),
      },
    ],
    async () => {
      exporter.reset();
      await batch.forceFlush();
      batchExporter.reset();
      await portBatch.forceFlush();
      portExporter.reset();
    },
  );
  print('(2) tracing on, SDK in memory (6 spans per run):', phase2);
  const traced = phase2[1].median / phase2[0].median;
  const idle = phase1[1].median / phase1[0].median;
  // The bare SDK alone: the 6 spans of a run (same attribute counts), synchronously, no agent.
  const floorExporter = new traceBase.InMemorySpanExporter();
  const floorProvider = new traceBase.BasicTracerProvider({
    spanProcessors: [
      new traceBase.BatchSpanProcessor(floorExporter, {
        maxQueueSize: RUNS * 8,
        maxExportBatchSize: RUNS * 8,
        scheduledDelayMillis: 60_000,
      }),
    ],
  });
  const tracer = floorProvider.getTracer('floor');
  const attrs = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, i]));
  const floor = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (global.gc) global.gc();
    const start = process.hrtime.bigint();
    for (let i = 0; i < RUNS; i++) {
      const run = tracer.startSpan('invoke_agent a', { attributes: attrs(5) });
      const ctx = api.trace.setSpan(api.context.active(), run);
      for (const [name, n] of [
        ['chat m', 8],
        ['execute_tool t', 6],
        ['chat m', 8],
        ['execute_tool t', 6],
        ['chat m', 8],
      ])
        api.context.with(ctx, () => tracer.startSpan(name, { attributes: attrs(n) }, ctx).end());
      run.setAttributes(attrs(4));
      run.end();
    }
    floor.push(Number(process.hrtime.bigint() - start) / 1000 / RUNS);
    await floorProvider.forceFlush();
    floorExporter.reset();
  }
  console.log(
    `  ${'bare SDK: 6 spans, no agent (sync loop)'.padEnd(44)} ${median(floor).toFixed(1).padStart(8)} µs/run`,
  );
  await floorProvider.shutdown();
  const portFloor = phase2[2].median / phase2[0].median;
  const simple = phase2[3].median / phase2[0].median;
  console.log(
    `targets: no SDK ≈ 0 → ${((idle - 1) * 100).toFixed(1)} %; in-memory spans ≤ +20 % → ${((traced - 1) * 100).toFixed(1)} % batched, ${((simple - 1) * 100).toFixed(1)} % simple`,
  );
  const own = phase2[1].median - phase2[2].median;
  console.log(
    `split (batched): SDK floor via the port +${((portFloor - 1) * 100).toFixed(1)} %, golem/otel's own share ${own.toFixed(1)} µs/run (${((own / phase2[0].median) * 100).toFixed(1)} % of an untraced run)`,
  );
  await tracerProvider.shutdown();
  await batchProvider.shutdown();
  await portProvider.shutdown();
  await meterProvider.shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
