'use strict';
/**
 * One framework in its own process (its own heap and JIT state), driven by run.js over IPC so the
 * rounds of a scenario can alternate between frameworks. Only the work inside a command is timed.
 *
 *   node --expose-gc worker.js <framework-id>
 */
const S = require('./scenario');
const frameworks = require('./frameworks');

const id = process.argv[2];
const framework = frameworks.find((f) => f.id === id);
if (framework === undefined) throw new Error(`unknown framework ${id}`);

let instance;

async function check() {
  instance = framework.create();
  const a = await instance.runA();
  S.checkA(id, a.output, a.toolResults);
  const b = await instance.runB();
  S.checkB(id, b.output);
  return {};
}

/** `n` runs one after another; returns the elapsed nanoseconds. */
async function sequential(run, n) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await run();
  return { ns: Number(process.hrtime.bigint() - start) };
}

/** `n` runs of (a) started together; returns the elapsed nanoseconds (outputs checked after). */
async function concurrent(n) {
  const start = process.hrtime.bigint();
  const results = await Promise.all(Array.from({ length: n }, () => instance.runA()));
  const ns = Number(process.hrtime.bigint() - start);
  for (const r of results) S.checkA(id, r.output, r.toolResults);
  return { ns };
}

/** Scenario (g): `n` agent definitions, each timed alone; returns per-definition nanoseconds. */
function define(n) {
  if (framework.define === undefined) return { unsupported: true };
  const definition = framework.define();
  const total = [];
  const compile = [];
  const declare = [];
  for (let i = 0; i < n; i++) {
    if (typeof definition === 'function') {
      const start = process.hrtime.bigint();
      definition();
      total.push(Number(process.hrtime.bigint() - start));
    } else {
      const t0 = process.hrtime.bigint();
      const Class = definition.declare();
      const t1 = process.hrtime.bigint();
      definition.compile(Class);
      const t2 = process.hrtime.bigint();
      declare.push(Number(t1 - t0));
      compile.push(Number(t2 - t1));
      total.push(Number(t2 - t0));
    }
  }
  return { total, compile, declare };
}

async function handle(message) {
  switch (message.cmd) {
    case 'check':
      return check();
    case 'a':
      return sequential(instance.runA, message.n);
    case 'b':
      return sequential(instance.runB, message.n);
    case 'c':
      return concurrent(message.n);
    case 'g':
      return define(message.n);
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
}

process.on('message', (message) => {
  if (message.cmd === 'exit') {
    process.disconnect();
    return;
  }
  handle(message).then(
    (reply) => process.send({ seq: message.seq, ok: true, ...reply }),
    (error) =>
      process.send({
        seq: message.seq,
        ok: false,
        error: String(error && error.stack ? error.stack : error),
      }),
  );
});
process.send({ ready: true });
