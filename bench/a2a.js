'use strict';
/**
 * What A2A adds to a call (issue 33): the same agent run in process, and through `golem/a2a` on
 * loopback — a golem client (`connectA2A`) calling a golem server (`createA2AServer` on node:http).
 *
 *   node --expose-gc bench/a2a.js [--calls=300] [--rounds=5] [--warmup=100]
 *
 * The agent answers at once (a `FunctionModel` from `golem/testing` returning one text); every
 * scenario runs `calls` sequential calls per round after `warmup` calls, in one process:
 *
 * - `agent.run`: the run in process;
 * - `SendMessage`: `connection.send(text)` (one HTTP request, the task completed in the answer);
 * - `SendStreamingMessage`: `connection.stream(text)` read to the end (SSE: the task, WORKING, the
 *   artifact, COMPLETED);
 * - `asTool in a run`: a calling agent whose model calls the remote agent's tool once, then answers
 *   (two model turns in process plus one streamed A2A call).
 *
 * Prints the median over rounds of µs per call, CPU µs per call (this process: client and server
 * share it), and the ratio to `agent.run`. Loads the built dist (run `npm run build` first).
 */
const http = require('node:http');
const path = require('node:path');
const { DIST, GOLEM } = require('./golem.js');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const CALLS = Number(args.calls ?? 300);
const ROUNDS = Number(args.rounds ?? 5);
const WARMUP = Number(args.warmup ?? 100);

const { Agent } = require(GOLEM);
const load = (...p) => require(path.join(DIST, 'src', ...p, 'index.js'));
const { FunctionModel, textResponse, toolCallResponse } = load('testing');
const { createA2AServer, connectA2A } = load('a2a');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toPrecision(3));

async function main() {
  const served = new Agent({
    name: 'echo',
    model: new FunctionModel(() => textResponse('pong')),
  });
  let server;
  const listener = http.createServer((req, res) => void server.handle(req, res));
  listener.keepAliveTimeout = 60_000;
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${listener.address().port}/a2a`;
  server = createA2AServer({ agents: served, url, maxTasks: 100 });
  const connection = await connectA2A(url);
  const tool = connection.asTool();
  const caller = new Agent({
    name: 'caller',
    tools: [tool],
    model: new FunctionModel((request) =>
      request.messages.some((m) => m.role === 'tool')
        ? textResponse('done')
        : toolCallResponse([{ id: 'c', name: 'echo', args: { message: 'ping' } }]),
    ),
  });

  const scenarios = {
    'agent.run (in process)': () => served.run('ping'),
    'SendMessage (loopback)': () => connection.send('ping'),
    'SendStreamingMessage (loopback)': async () => {
      for await (const _ of connection.stream('ping'));
    },
    'asTool in a run (2 turns + 1 call)': () => caller.run('go'),
  };
  const results = Object.fromEntries(Object.keys(scenarios).map((k) => [k, { wall: [], cpu: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(scenarios);
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const call = scenarios[name];
      for (let i = 0; i < WARMUP; i++) await call();
      global.gc?.();
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) await call();
      const wall = Number(process.hrtime.bigint() - t0) / 1000 / CALLS;
      const cpu = process.cpuUsage(cpu0);
      results[name].wall.push(wall);
      results[name].cpu.push((cpu.user + cpu.system) / CALLS);
    }
  }
  server.close();
  listener.closeAllConnections();
  listener.close();
  const base = median(results['agent.run (in process)'].wall);
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    fmt(median(r.wall)),
    fmt(median(r.cpu)),
    (median(r.wall) / base).toFixed(2),
  ]);
  const head = ['scenario', 'µs per call (median)', 'CPU µs per call', '× agent.run'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(
    `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
  );
  for (const row of rows) console.log(line(row));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
