/**
 * A process the decision crash test kills (see crash-decisions.test.ts). On a SQLite file it
 * either starts run "d" — the scenario's parallel batch a1 ‖ a2 — and reports (IPC) once both
 * calls run, or resumes the paused run with the given decisions and reports once the approved
 * re-run of a1 is executing. Either way it then waits forever: the parent SIGKILLs it. Tools
 * append their side effects to a file, synchronously (`a1+` for an approved execution).
 */
import { appendFileSync } from 'node:fs';
import { Agent } from 'golem';
import type { DeferredResults } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { forever, scenarioModel, stepTool } from './scenario';

/** The child's instructions, as JSON in GOLEM_DECISION. */
export interface DecisionChildConfig {
  path: string;
  effects: string;
  /** `start`: die with a1 and a2 running; `decide`: resume with `results`, die in a1's re-run. */
  mode: 'start' | 'decide';
  results?: DeferredResults;
  /** Added to the clock, so this process finds an earlier one's lease expired. */
  clockOffset: number;
}

const config = JSON.parse(process.env.GOLEM_DECISION ?? '{}') as DecisionChildConfig;

function report(message: Record<string, unknown>): Promise<void> {
  return new Promise<void>((resolve) =>
    process.send?.(message, () => {
      resolve();
    }),
  );
}

async function main(): Promise<void> {
  const store = sqliteStore({ path: config.path, clock: () => Date.now() + config.clockOffset });
  let running = 0;
  const step = stepTool(async (id, _name, approved) => {
    if (config.mode === 'start' && ++running === 2) {
      await report({ at: 'batch' });
      await forever();
    }
    if (config.mode === 'start') await forever();
    if (id === 'a1') {
      await report({ at: 'rerun' });
      await forever();
    }
    appendFileSync(config.effects, `${id}${approved ? '+' : ''}\n`);
  });
  const agent = new Agent({
    model: scenarioModel(),
    tools: [step],
    store,
    parallelToolCalls: true,
    deferredTools: true,
  });
  if (config.mode === 'start') await agent.run('go', { runId: 'd' });
  else await agent.resume('d', config.results ?? {});
  await report({ error: 'the run finished without reaching the kill point' });
}

main().catch(async (error: unknown) => {
  await report({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
});
