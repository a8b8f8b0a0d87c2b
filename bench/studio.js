'use strict';
/**
 * Golem Studio on a big store (issue 34): "the app loads in ≤ 1 s on a store of 10,000 runs".
 *
 *   node bench/studio.js [--runs=10000] [--loads=5] [--api=20]
 *
 * Seeds a SQLite store (temp folder) with `runs` runs: three real runs of golem agents (a support
 * agent with a tool call — 4 messages, a booking paused on an approval, a provider failure) are
 * the templates, copied row by row through `RunStore.transaction` (85 % completed, 10 % failed,
 * 5 % paused; 20 owners, 4 agents, conversation ids, `updatedAt` spread over 30 days). Then serves
 * `createStudio` on loopback with the built app (`npm run build:studio`) and opens it in headless
 * Chromium (/usr/bin/chromium or CHROMIUM_PATH) `loads` times, each in a fresh browser context
 * (empty cache): a MutationObserver installed before the page's scripts records, on the page's
 * clock (0 = navigation start), when the first run row is in the DOM and when the first page of
 * the list (50 rows) is. Also times `GET /api/runs?limit=50` (the list's own request), a filtered
 * one (`status=failed&q=`) and `GET /api/runs/:id` from Node, `api` times each. Prints medians.
 *
 * Loads the built dist when dist/src/studio exists; golem/studio is not an entry point yet, so
 * otherwise everything (core, stores, studio) is loaded from the TypeScript sources through
 * @swc-node/register (which one is printed). The temp folder is removed.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { ROOT, DIST } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const RUNS = Number(args.runs ?? 10_000);
const LOADS = Number(args.loads ?? 5);
const API_CALLS = Number(args.api ?? 20);
const PAGE_ROWS = 50;
const APP_DIR = path.join(ROOT, 'dist', 'studio', 'app');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** golem's modules, from the dist when the studio is built there, else from the sources. */
function loadGolem() {
  const builtStudio = path.join(DIST, 'src', 'studio', 'index.js');
  if (fs.existsSync(builtStudio)) {
    const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));
    return {
      from: 'dist',
      core: load('core'),
      sqlite: load('stores', 'sqlite'),
      testing: load('testing'),
      studio: load('studio'),
    };
  }
  require(require.resolve('@swc-node/register', { paths: [ROOT] }));
  const load = (...p) => require(path.join(ROOT, 'src', ...p, 'index.ts'));
  return {
    from: 'src via @swc-node/register (dist/src/studio is missing)',
    core: load('core'),
    sqlite: load('stores', 'sqlite'),
    testing: load('testing'),
    studio: load('studio'),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The three template rows: a completed tool run, a paused approval, a failed run. */
async function templates(golem, store) {
  const { Agent, defineTool } = golem.core;
  const { FunctionModel, textResponse, toolCallResponse } = golem.testing;
  const lookup = defineTool({
    name: 'lookup_order',
    description: 'Finds an order.',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    execute: ({ order }) =>
      JSON.stringify({ order, status: 'shipped on Monday, arriving Thursday' }),
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order.',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    approval: true,
    execute: () => 'refunded',
  });
  const model = new FunctionModel((request) => {
    const last = request.messages[request.messages.length - 1];
    if (last.role === 'tool')
      return textResponse(`Your order is on its way: ${last.content}. Anything else?`, {
        inputTokens: 640,
        outputTokens: 24,
      });
    const refunding = /refund/i.test(last.content ?? '');
    return toolCallResponse(
      [{ id: 'call_1', name: refunding ? 'refund' : 'lookup_order', args: { order: 'A-1042' } }],
      { inputTokens: 512, outputTokens: 38 },
      'Let me check that order for you.',
    );
  });
  const agent = new Agent({
    name: 'support',
    instructions: 'You are a concise support agent.',
    model,
    tools: [lookup, refund],
    deferredTools: true,
  });
  const failing = new Agent({
    name: 'triage',
    model: new FunctionModel(() => {
      throw new Error('provider error: HTTP 503 Service Unavailable');
    }),
  });
  await agent.run('Where is my order A-1042? It was due yesterday.', {
    store,
    runId: 't-completed',
  });
  await agent.run('Please refund order A-1042, the box was damaged.', { store, runId: 't-paused' });
  await failing.run('Invoice 8812 is wrong.', { store, runId: 't-failed' }).catch(() => undefined);
  const rows = {};
  for (const kind of ['completed', 'paused', 'failed']) {
    rows[kind] = await store.getRun(`t-${kind}`);
    if (rows[kind]?.status !== kind)
      throw new Error(`the ${kind} template run is ${rows[kind]?.status}`);
  }
  return rows;
}

/** Writes `count` runs copied from the templates, 1000 per transaction. */
async function seed(store, rows, count) {
  const agents = ['support', 'triage', 'billing', 'concierge'];
  const now = Date.now();
  const span = 30 * 24 * 3600_000;
  for (let start = 0; start < count; start += 1000) {
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(start + 1000, count); i++) {
        const roll = i % 20;
        const kind = roll < 17 ? 'completed' : roll < 19 ? 'failed' : 'paused';
        const template = rows[kind];
        const updatedAt = now - Math.floor((span * (count - i)) / count);
        await tx.putRun({
          ...template,
          id: `run-${String(i).padStart(6, '0')}-${(i * 2654435761) % 4294967296}`,
          agent: kind === 'failed' ? 'triage' : agents[i % agents.length],
          owner: `user-${i % 20}@shop.test`,
          conversationId: null,
          conversationLength: null,
          createdAt: updatedAt - 4000,
          updatedAt,
          leaseOwner: null,
          leaseExpiresAt: null,
        });
      }
    });
  }
}

function getJson(base, token, url) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(
      `${base}${url}`,
      { headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let size = 0;
        res.on('data', (chunk) => (size += chunk.length));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
          else resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, size });
        });
      },
    );
    req.on('error', reject);
  });
}

/** Before the app's scripts: marks when the first row and the first full page of rows appear. */
function observeRows(pageRows) {
  const marks = {};
  window.__studioMarks = marks;
  const check = () => {
    const count = document.querySelectorAll('[data-testid="run-row"]').length;
    if (count > 0 && marks.firstRow === undefined) marks.firstRow = performance.now();
    if (count >= pageRows && marks.filled === undefined) marks.filled = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

async function main() {
  if (!fs.existsSync(path.join(APP_DIR, 'index.html')))
    throw new Error('the studio app is not built: run `npm run build:studio` first');
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`,
    );
  const golem = loadGolem();
  const { chromium } = require(require.resolve('playwright-core', { paths: [ROOT] }));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golem-bench-studio-'));
  const store = golem.sqlite.sqliteStore({ path: path.join(dir, 'runs.db') });
  let server;
  let studio;
  let browser;
  try {
    const rows = await templates(golem, store);
    const t0 = process.hrtime.bigint();
    await seed(store, rows, RUNS);
    const seedMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const dbBytes = fs.statSync(path.join(dir, 'runs.db')).size;

    studio = golem.studio.createStudio({ store, appDir: APP_DIR });
    server = http.createServer((req, res) => void studio.handle(req, res));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    const token = studio.token;

    const api = { list: [], filtered: [], detail: [] };
    let listBytes = 0;
    for (let i = 0; i < API_CALLS; i++) {
      const list = await getJson(base, token, `/api/runs?limit=${PAGE_ROWS}&offset=0`);
      api.list.push(list.ms);
      listBytes = list.size;
      api.filtered.push(
        (await getJson(base, token, '/api/runs?status=failed&q=run-00&limit=50')).ms,
      );
      api.detail.push(
        (await getJson(base, token, '/api/runs/run-000123-' + ((123 * 2654435761) % 4294967296)))
          .ms,
      );
    }

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    const loads = { firstRow: [], filled: [], wall: [] };
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(observeRows, PAGE_ROWS);
      const w0 = process.hrtime.bigint();
      await page.goto(`${base}/?token=${encodeURIComponent(token)}#/runs`);
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="run-row"]').length >= n,
        PAGE_ROWS,
        {
          timeout: 30_000,
        },
      );
      loads.wall.push(Number(process.hrtime.bigint() - w0) / 1e6);
      const marks = await page.evaluate(() => window.__studioMarks);
      loads.firstRow.push(marks.firstRow);
      loads.filled.push(marks.filled);
      await context.close();
    }

    console.log(
      `Golem Studio on a SQLite store of ${RUNS} runs (${(dbBytes / 1e6).toFixed(1)} MB, seeded in ${fmt(seedMs)} ms); ` +
        `golem from ${golem.from}; node ${process.version}; median of ${LOADS} loads (fresh context) / ${API_CALLS} API calls`,
    );
    console.table([
      {
        measure: 'navigation start → first run row',
        'median ms': fmt(median(loads.firstRow)),
        min: fmt(Math.min(...loads.firstRow)),
        max: fmt(Math.max(...loads.firstRow)),
      },
      {
        measure: `navigation start → runs list filled (${PAGE_ROWS} rows)`,
        'median ms': fmt(median(loads.filled)),
        min: fmt(Math.min(...loads.filled)),
        max: fmt(Math.max(...loads.filled)),
      },
      {
        measure: 'goto → list filled, seen from node',
        'median ms': fmt(median(loads.wall)),
        min: fmt(Math.min(...loads.wall)),
        max: fmt(Math.max(...loads.wall)),
      },
      {
        measure: `GET /api/runs?limit=${PAGE_ROWS} (${(listBytes / 1024).toFixed(0)} kB)`,
        'median ms': fmt(median(api.list)),
        min: fmt(Math.min(...api.list)),
        max: fmt(Math.max(...api.list)),
      },
      {
        measure: 'GET /api/runs?status=failed&q=…',
        'median ms': fmt(median(api.filtered)),
        min: fmt(Math.min(...api.filtered)),
        max: fmt(Math.max(...api.filtered)),
      },
      {
        measure: 'GET /api/runs/:id',
        'median ms': fmt(median(api.detail)),
        min: fmt(Math.min(...api.detail)),
        max: fmt(Math.max(...api.detail)),
      },
    ]);
    const verdict = median(loads.filled) <= 1000 ? 'met' : 'NOT met';
    console.log(
      `target "the app loads in ≤ 1 s on ${RUNS} runs" (list filled, median): ${verdict}`,
    );
  } finally {
    await browser?.close();
    await studio?.close();
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
