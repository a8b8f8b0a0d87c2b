/**
 * The workflow the crash test runs in a child process and continues in the parent: three steps
 * whose bodies append to a file synchronously (what ran survives a SIGKILL), and a hook each step
 * calls first (the child stops there to be killed).
 */
import { appendFileSync } from 'node:fs';
import { defineWorkflow } from 'golem/workflows';
import type { WorkflowDefinition } from 'golem/workflows';

/** Where the child stops: inside step b (a checkpointed), or inside step c (b checkpointed). */
export type CrashPoint = 'b' | 'c';

/** Where the child and the parent keep the run: a SQLite file, or a PostgreSQL schema. */
export type CrashStore =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };

/** What the child is told, as JSON in GOLEM_WF_CRASH. */
export interface CrashChildConfig {
  store: CrashStore;
  effects: string;
  kill: CrashPoint;
}

export function crashFlow(
  effects: string,
  reached: (step: string) => Promise<void> = () => Promise.resolve(),
): WorkflowDefinition<{ n: number }, number> {
  const body = (key: string, value: () => number) => async (): Promise<number> => {
    appendFileSync(effects, `start ${key}\n`);
    await reached(key);
    const result = value();
    appendFileSync(effects, `end ${key}\n`);
    return result;
  };
  return defineWorkflow({
    name: 'crashy',
    async run(input: { n: number }, wf) {
      const a = await wf.step(
        'a',
        body('a', () => input.n + 1),
      );
      const b = await wf.step(
        'b',
        body('b', () => a * 10),
      );
      return wf.step(
        'c',
        body('c', () => b + 5),
      );
    },
  });
}
