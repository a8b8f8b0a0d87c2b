/**
 * Run as a child process by lazy-subsystems.test.ts (through @swc-node/register): imports golem,
 * then uses one capability at a time, and after each step writes one JSON line naming golem's
 * `src` modules in the require cache (the modules loaded so far) and what the step observed.
 * Modules are required inside the steps, not imported, so nothing loads before the first report.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the probe controls what loads when */
import { writeSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type * as Golem from '../../../src/core/index';
import type * as Memory from '../../../src/stores/memory/index';
import type * as Testing from '../../../src/testing/index';

const SRC = join(__dirname, '..', '..', '..', 'src', 'core');

/** golem's src modules loaded so far, as paths without extension (`engine/run`). */
function loaded(): string[] {
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(SRC + sep))
    .map((file) => relative(SRC, file).split(sep).join('/').replace(/\.ts$/, ''))
    .sort();
}

function report(step: string, observed: Record<string, unknown> = {}): void {
  writeSync(1, `${JSON.stringify({ step, loaded: loaded(), ...observed })}\n`);
}

async function main(): Promise<void> {
  const golem = require('../../../src/core/index') as typeof Golem;
  report('import');

  const testing = require('../../../src/testing/index') as typeof Testing;
  const { memoryStore } = require('../../../src/stores/memory/index') as typeof Memory;
  const answer = () => testing.textResponse('done');
  const plain = new golem.Agent({ model: new testing.FunctionModel(answer) });
  report('construct');

  const result = await plain.run('hi');
  report('run', { output: result.output });

  const failing = new golem.Agent({
    model: new testing.FunctionModel(() => {
      throw new Error('down');
    }),
  });
  const failure = await failing.run('hi').catch((error: unknown) => error);
  report('failed run', { runError: failure instanceof golem.RunError });

  const streaming = new golem.Agent({
    model: new testing.StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'done' });
      return answer();
    }),
  });
  const streamed = await streaming.runStream('hi').result;
  report('stream', { output: streamed.output });

  const guarded = new golem.Agent({
    model: new testing.FunctionModel(answer),
    guardrails: { input: [{ name: 'no', check: () => golem.verdict.trip('blocked') }] },
  });
  const tripped = await guarded.run('hi').catch((error: unknown) => error);
  report('guardrails', {
    runError: tripped instanceof golem.RunError,
    guardrailError: golem.RunError.is(tripped) && tripped.cause instanceof golem.GuardrailError,
  });

  const stored = new golem.Agent({
    model: new testing.FunctionModel(answer),
    store: memoryStore(),
  });
  const durable = await stored.run('hi');
  report('store', { output: durable.output });
}

main().catch((error: unknown) => {
  writeSync(2, `${String(error)}\n`);
  process.exitCode = 1;
});
