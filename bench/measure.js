'use strict';
/**
 * One variant of one scenario in its own fresh process (its own heap and JIT state): build the
 * framework's column, check one run's result, warm up, then time runs in batches. Prints one JSON
 * line. Only the timed phase is measured; nothing else runs in the process meanwhile.
 *
 *   node --expose-gc measure.js '{"framework":"golem","method":"runA","concurrent":0,
 *     "warmupRuns":5000,"warmupMs":5000,"timedRuns":50000,"timedMs":15000,"batchUs":200}'
 *
 * A run is one call of the column's `method` (`concurrent: N` makes it N calls started together,
 * counted as N runs). Runs are timed in batches of ~`batchUs` (sized from the warm-up), so the
 * clock's own cost stays below 1 % even for a 1-µs run; each batch gives one µs-per-run sample.
 * The timed phase stops at `timedRuns` runs or `timedMs`, whichever comes first (slow peers hit the
 * time cap; the run count is reported). CPU time is `process.cpuUsage()` over the timed phase
 * (user + system, all threads: GC and compiler threads included), divided by the runs.
 */
const S = require('./scenario');
const frameworks = require('./frameworks');

const spec = JSON.parse(process.argv[2]);
const now = () => process.hrtime.bigint();

function runner(framework, instance) {
  if (spec.method === 'runDefine' && instance.runDefine === undefined) {
    if (framework.define === undefined) return undefined;
    const definition = framework.define();
    return typeof definition === 'function'
      ? definition
      : () => definition.compile(definition.declare());
  }
  const method = instance[spec.method];
  if (typeof method !== 'function') return undefined;
  if (!(spec.concurrent > 0)) return method;
  return () => Promise.all(Array.from({ length: spec.concurrent }, () => method()));
}

async function main() {
  const framework = frameworks.find((f) => f.id === spec.framework);
  if (framework === undefined) throw new Error(`unknown framework ${spec.framework}`);
  const instance = framework.create();
  const run = runner(framework, instance);
  if (run === undefined) return { unavailable: `${framework.label} has no ${spec.method}` };
  const perCall = spec.concurrent > 0 ? spec.concurrent : 1;

  // Check: one call's result must be what the scenario expects (every call, when concurrent).
  let first;
  const checkStart = now();
  try {
    first = await run();
  } catch (error) {
    if (error && error.unavailable) return { unavailable: error.message };
    throw error;
  }
  if (spec.method !== 'runDefine')
    for (const r of perCall > 1 ? first : [first]) S.check(spec.method, framework.id, r);

  // A clean heap before the warm-up, not after it: a full collection drops the optimized code
  // of functions whose object shapes no live object holds (V8's weak maps), and the timed phase
  // must measure the steady state, not the re-optimisation (issue 35).
  if (typeof global.gc === 'function') global.gc();

  // Warm-up (the check's call counts): until warmupRuns runs or warmupMs, whichever first;
  // estimates ns per call.
  let warmRuns = perCall;
  const warmLimit = BigInt(spec.warmupMs) * 1_000_000n;
  while (warmRuns < spec.warmupRuns && now() - checkStart < warmLimit) {
    await run();
    warmRuns += perCall;
  }
  const warmNs = Number(now() - checkStart);
  const nsPerCall = (warmNs / warmRuns) * perCall;
  const batch = perCall > 1 ? 1 : Math.max(1, Math.round((spec.batchUs * 1000) / nsPerCall));

  const samples = [];
  let runs = 0;
  const limit = BigInt(spec.timedMs) * 1_000_000n;
  const cpu0 = process.cpuUsage();
  const heap0 = process.memoryUsage().heapUsed;
  const start = now();
  let elapsed = 0n;
  while (runs < spec.timedRuns && elapsed < limit) {
    const t0 = now();
    for (let i = 0; i < batch; i++) await run();
    const t1 = now();
    samples.push(Number(t1 - t0) / 1000 / (batch * perCall));
    runs += batch * perCall;
    elapsed = t1 - start;
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    runs,
    warmupRuns: warmRuns,
    batch: batch * perCall,
    wallUsPerRun: Number(elapsed) / 1000 / runs,
    cpuUsPerRun: (cpu.user + cpu.system) / runs,
    heapDeltaKB: (process.memoryUsage().heapUsed - heap0) / 1024,
    samples,
  };
}

main().then(
  (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
  (error) => {
    process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
    process.exit(1);
  },
);
