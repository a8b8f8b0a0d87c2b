'use strict';
/**
 * The printed results of `run.js`: one table of every timed scenario (median, p90, CPU µs per
 * run, ratios to the hand-written loop and to each peer), the streaming per-delta figures, the
 * heap figures, and issue 21's targets marked met or not.
 */

const PEERS = ['golem', 'ai-sdk', 'openai-agents', 'langchain'];
const PEER_LABEL = {
  golem: 'golem',
  'ai-sdk': 'ai-sdk',
  'openai-agents': 'oai-agents',
  langchain: 'langchain',
};
/** Flat heap: post-GC growth and slope over the whole run within these bounds. */
const FLAT = { growthKB: 1024, slopeBytesPerRun: 5 };

const median = (values) => quantile(values, 0.5);
function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Pools the processes of one variant: median and p90 of all batch samples, median CPU. */
function summarise(processes) {
  const ok = processes.filter((p) => p.samples !== undefined);
  if (ok.length === 0) {
    const why = processes.find((p) => p.unavailable !== undefined || p.error !== undefined);
    return { unavailable: why?.unavailable ?? `failed: ${why?.error ?? 'no process ran'}` };
  }
  const samples = ok.flatMap((p) => p.samples);
  return {
    median: median(samples),
    p90: quantile(samples, 0.9),
    cpu: median(ok.map((p) => p.cpuUsPerRun)),
    processMedians: ok.map((p) => median(p.samples)),
    runs: ok.reduce((sum, p) => sum + p.runs, 0),
    processes: ok.length,
  };
}

const fmt = (value) => {
  if (value === undefined || Number.isNaN(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 10) return value.toFixed(2);
  return value.toFixed(3);
};
const fmtRatio = (r) =>
  r === undefined || !Number.isFinite(r) ? '' : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
const ratio = (a, b) => (a === undefined || b === undefined || !(b > 0) ? undefined : a / b);

/** One row per variant per scenario; ratios are of medians. */
function mainTable(results) {
  const header = [
    'scenario',
    'variant',
    'median',
    'p90',
    'CPU µs',
    'runs',
    '× loop',
    ...PEERS.map((p) => `× ${PEER_LABEL[p]}`),
  ];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|---|---|${header
      .slice(2)
      .map(() => '--:')
      .join('|')}|`,
  ];
  for (const scenario of results.scenarios) {
    const byKey = scenario.variants;
    const ref = (key) => byKey[key]?.median;
    for (const [key, v] of Object.entries(byKey)) {
      if (v.unavailable !== undefined) {
        lines.push(
          `| ${scenario.id} | ${v.label} | n/a: ${v.unavailable.split('\n')[0]} |${' |'.repeat(header.length - 3)}`,
        );
        continue;
      }
      const peers = PEERS.map((p) => (key === p ? '1×' : fmtRatio(ratio(v.median, ref(p)))));
      const loop = key === 'loop' ? '1×' : fmtRatio(ratio(v.median, ref('loop')));
      lines.push(
        `| ${scenario.id} | ${v.label} | ${fmt(v.median)} | ${fmt(v.p90)} | ${fmt(v.cpu)} | ${v.runs} | ${loop} | ${peers.join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Per-delta cost of the streaming scenarios, and the overhead over the callback loop. */
function streamTable(results) {
  const lines = [
    '| scenario | variant | µs/run | µs per delta | overhead per delta over the loop, µs |',
    '|---|---|--:|--:|--:|',
  ];
  for (const scenario of results.scenarios.filter((s) => s.deltas !== undefined)) {
    const loop = scenario.variants.loop?.median;
    for (const v of Object.values(scenario.variants)) {
      if (v.median === undefined) continue;
      const over = loop === undefined ? undefined : (v.median - loop) / scenario.deltas;
      lines.push(
        `| ${scenario.id} | ${v.label} | ${fmt(v.median)} | ${fmt(v.median / scenario.deltas)} | ${fmt(over)} |`,
      );
    }
  }
  return lines.length > 2 ? lines.join('\n') : '';
}

function memoryTable(memory) {
  const lines = [
    '| variant | runs | heap before → after (post-GC), KB | growth, KB | slope, bytes/run | flat |',
    '|---|--:|--:|--:|--:|:-:|',
  ];
  for (const [id, m] of Object.entries(memory)) {
    if (m.error !== undefined) {
      lines.push(`| ${id} | — | failed: ${m.error} | | | |`);
      continue;
    }
    const growth = (m.after.heapUsed - m.before.heapUsed) / 1024;
    lines.push(
      `| ${id} | ${m.runs} | ${fmt(m.before.heapUsed / 1024)} → ${fmt(m.after.heapUsed / 1024)} | ${fmt(growth)} | ${fmt(m.slopePer1k / 1000)} | ${isFlat(m) ? 'yes' : 'no'} |`,
    );
  }
  return lines.join('\n');
}

function isFlat(m) {
  const growth = (m.after.heapUsed - m.before.heapUsed) / 1024;
  return growth <= FLAT.growthKB && m.slopePer1k / 1000 <= FLAT.slopeBytesPerRun;
}

/** Issues 21 and 35's targets, each measured, met or not (n/a when a figure is missing). */
function targets(results) {
  const get = (id, key) => results.scenarios.find((s) => s.id === id)?.variants[key]?.median;
  const rows = [];
  const add = (name, target, value, text, met) =>
    rows.push([
      name,
      target,
      value === undefined || Number.isNaN(value) ? 'n/a' : text,
      value === undefined || Number.isNaN(value) ? 'n/a' : met ? 'met' : '**not met**',
    ]);
  for (const id of ['s1', 's2', 's3']) {
    const r = ratio(get(id, 'golem'), get(id, 'loop'));
    add(
      `${id}: golem (zod) vs the hand-written loop`,
      '≤ 3×',
      r,
      `${fmtRatio(r)} (${fmt(get(id, 'golem'))} vs ${fmt(get(id, 'loop'))} µs)`,
      r <= 3,
    );
  }
  const dec = ratio(get('s1', 'golem-decorated'), get('s1', 'golem'));
  add(
    's1: decorated vs plain golem',
    '≤ 1.2×',
    dec,
    `${fmtRatio(dec)} (${fmt(get('s1', 'golem-decorated'))} vs ${fmt(get('s1', 'golem'))} µs)`,
    dec <= 1.2,
  );
  // Issue 35: what carrying the 200-message history adds to the same run without one.
  const h = get('history', 'golem');
  const empty = get('history', 'golem:empty');
  const carried = h === undefined || empty === undefined ? undefined : h - empty;
  add(
    'history: 200 messages carried (Agent.history) over none',
    '≤ 3 µs',
    carried,
    `${fmt(carried)} µs (${fmt(h)} vs ${fmt(empty)} µs)`,
    carried <= 3,
  );
  const plainArray = get('history', 'golem:plain');
  const plainCarried =
    plainArray === undefined || empty === undefined ? undefined : plainArray - empty;
  if (plainCarried !== undefined)
    rows.push([
      'history: the same as a plain array (checked every run)',
      'reported',
      `${fmt(plainCarried)} µs (${fmt(plainArray)} µs)`,
      'reported',
    ]);
  const hr = ratio(h, get('history', 'ai-sdk'));
  add(
    'history: golem vs ai-sdk',
    '≤ 0.2×',
    hr,
    `${fmtRatio(hr)} (ai-sdk ${fmt(get('history', 'ai-sdk'))} µs)`,
    hr <= 0.2,
  );
  for (const scenario of results.scenarios.filter((s) => s.deltas !== undefined)) {
    const loop = scenario.variants.loop?.median;
    for (const key of ['golem:onDelta', 'golem', 'golem:events']) {
      const v = scenario.variants[key];
      if (v === undefined) continue;
      const over =
        v.median === undefined || loop === undefined
          ? undefined
          : (v.median - loop) / scenario.deltas;
      add(
        `${scenario.id}: ${v.label}, overhead per delta`,
        '≤ 0.1 µs',
        over,
        `${fmt(over)} µs`,
        over <= 0.1,
      );
    }
  }
  // Issue 30: what a chain of three pass-through middleware adds to one s1 run (3 model calls).
  const mw = get('middleware', 'golem:mw3');
  const plain = get('middleware', 'golem');
  const added = mw === undefined || plain === undefined ? undefined : mw - plain;
  add(
    'middleware: 3 pass-through middleware added to s1',
    '≤ 0.5 µs',
    added,
    `${fmt(added)} µs (${fmt(mw)} vs ${fmt(plain)} µs)`,
    added <= 0.5,
  );
  for (const id of ['golem', 'golem-decorated']) {
    const m = results.memory?.[id];
    const ok = m !== undefined && m.error === undefined;
    const growth = ok ? (m.after.heapUsed - m.before.heapUsed) / 1024 : undefined;
    add(
      `heap over ${ok ? m.runs.toLocaleString('en-US') : '—'} s1 runs: ${id}`,
      `flat (≤ ${FLAT.growthKB} KB, ≤ ${FLAT.slopeBytesPerRun} B/run)`,
      growth,
      ok ? `${fmt(growth)} KB, ${fmt(m.slopePer1k / 1000)} B/run` : '',
      ok && isFlat(m),
    );
  }
  const alloc = results.alloc?.rows;
  if (alloc?.loop !== undefined)
    for (const id of ['golem', 'golem-decorated']) {
      const bytes = alloc[id]?.bytesPerRun;
      if (bytes === undefined) continue;
      rows.push([
        `allocation per s1 run: ${id}`,
        'reported',
        `${Math.round(bytes).toLocaleString('en-US')} bytes (loop ${Math.round(alloc.loop.bytesPerRun).toLocaleString('en-US')}, ${fmtRatio(bytes / alloc.loop.bytesPerRun)})`,
        'reported',
      ]);
    }
  return [
    '| target | wanted | measured | verdict |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** A phase's bound as the settings give it: runs or milliseconds, whichever comes first. */
function runsOrMs(runs, ms) {
  return runs >= Number.MAX_SAFE_INTEGER ? `for ${ms} ms` : `${runs} runs (or ${ms} ms)`;
}

function print(results, out = process.stdout) {
  const m = results.machine;
  const s = results.settings;
  out.write(
    `\nnode ${m.node} · ${m.cpu} · ${m.cores} cores · ${m.memoryGiB} GiB · ${m.platform} · ${m.date}\n` +
      `peers: ${Object.entries(results.peers)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n` +
      `${s.preset}: ${s.processes} processes per variant, interleaved; each warms up ${runsOrMs(s.warmupRuns, s.warmupMs)}, ` +
      `then times ${runsOrMs(s.timedRuns, s.timedMs)} in ~${s.batchUs}-µs batches; ` +
      `median and p90 over the pooled batches (wall µs per run), CPU = process.cpuUsage per run (median of processes); ` +
      `ratios of medians; bench took ${results.seconds.toFixed(0)} s\n`,
  );
  if (results.scenarios.length > 0) out.write(`\n${mainTable(results)}\n`);
  const stream = streamTable(results);
  if (stream !== '') out.write(`\n${stream}\n`);
  if (results.memory !== undefined) out.write(`\n${memoryTable(results.memory)}\n`);
  out.write(`\n${targets(results)}\n`);
}

module.exports = { summarise, print, median, quantile };
