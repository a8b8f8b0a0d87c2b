'use strict';
/**
 * golem/nestjs (issue 14): what a Nest-injected agent costs per run, beside the same decorated
 * class compiled with `agentFromClass`. Both run scenario (a) — the 3-turn, 2-tool loop with a
 * validated DTO — on the instant fake model, one run at a time, in alternating rounds (order
 * swapped every round), after a warm-up; medians per run and their ratio are printed. The
 * one-time costs are printed too: building the agent with `agentFromClass`, and creating and
 * initialising a Nest application context holding `GolemModule.forRoot` + `forFeature`.
 *
 *   node bench/nestjs.js [--runs=500] [--rounds=25]
 *
 * Loads the built dist (run `npm run build` first, or GOLEM_BENCH_DIST=…); @nestjs/* are the
 * repository's devDependencies, so no `npm ci` in bench/ is needed.
 */
const path = require('node:path');
const { DIST, GOLEM_DECORATORS, buildDecorated } = require('./golem.js');
const S = require('./scenario');
const { fakeModel } = require('./frameworks/golem-model');
const { cliArgs } = require('./cli-args');

const args = cliArgs();
const RUNS = Number(args.runs ?? 500);
const ROUNDS = Number(args.rounds ?? 25);

const { agentFromClass } = require(GOLEM_DECORATORS);
const nest = require(path.join(DIST, 'nestjs', 'index.js'));
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { defineAdderAgent } = require(buildDecorated());

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

async function runs(agent, count) {
  const started = now();
  for (let i = 0; i < count; i++) {
    const result = await agent.run(S.PROMPT_A);
    if (result.output !== S.FINAL_TEXT) throw new Error(`unexpected output ${result.output}`);
  }
  return ((now() - started) * 1000) / count; // µs per run
}

async function main() {
  const Adder = defineAdderAgent();

  let started = now();
  const plain = agentFromClass(new Adder(), { model: fakeModel });
  const buildMs = now() - started;

  class AdderModule {}
  Module({ imports: [nest.GolemModule.forFeature([Adder])] })(AdderModule);
  class AppModule {}
  Module({ imports: [nest.GolemModule.forRoot({ defaultModel: fakeModel }), AdderModule] })(
    AppModule,
  );
  started = now();
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  await app.init();
  const nestStartMs = now() - started;
  const injected = app.get(nest.getAgentToken(Adder), { strict: false });

  const same =
    JSON.stringify((await plain.run(S.PROMPT_A)).messages) ===
    JSON.stringify((await injected.run(S.PROMPT_A)).messages);
  if (!same) throw new Error('the two agents do not produce the same run');

  // Warm-up: both, until the JIT settles.
  await runs(plain, RUNS);
  await runs(injected, RUNS);
  const times = { plain: [], injected: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['plain', 'injected'] : ['injected', 'plain'];
    for (const which of order)
      times[which].push(await runs(which === 'plain' ? plain : injected, RUNS));
  }
  await app.close();

  const p = median(times.plain);
  const n = median(times.injected);
  console.log(`golem/nestjs per-run cost, scenario (a), ${ROUNDS} rounds × ${RUNS} runs (medians)`);
  console.table({
    'agentFromClass(new Adder(), { model })': { 'µs/run': +p.toFixed(1), ratio: 1 },
    'Nest: GolemModule.forFeature + getAgentToken': {
      'µs/run': +n.toFixed(1),
      ratio: +(n / p).toFixed(3),
    },
  });
  console.log(
    `one-time: agentFromClass ${buildMs.toFixed(2)} ms; Nest application context (forRoot + forFeature, create + init) ${nestStartMs.toFixed(1)} ms`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
