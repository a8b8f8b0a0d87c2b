/**
 * Real crashes, for any store: a child process runs a workflow and is SIGKILLed inside a step
 * (it says so over IPC first: no sleeps); the parent, an hour later on its clock, recovers the
 * run from the same store. Completed steps are replayed from their checkpoints (their bodies ran
 * once), the interrupted step runs again, the rest runs once.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowRunner, type WorkflowStore } from 'golem/workflows';
import type { CrashChildConfig, CrashPoint, CrashStore } from './crash-flow';
import { crashFlow } from './crash-flow';

/** A fresh store for one case: what the child opens, the parent's store on it (clock an hour on). */
export type CrashStoreFactory = (dir: string) => Promise<{
  store: CrashStore;
  open: (clock: () => number) => WorkflowStore & { close(): Promise<void> };
  cleanup: () => Promise<void>;
}>;

const ROOT = join(__dirname, '..', '..', '..');

/** Starts the child and resolves once it reports it reached `kill` (rejects if it fails or exits). */
async function killInside(config: CrashChildConfig): Promise<void> {
  const child = fork(join(__dirname, 'crash-child.ts'), [], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_WF_CRASH: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('message', (message: { at?: string; error?: string }) => {
      if (message.at === config.kill) resolve();
      else reject(new Error(`child failed: ${String(message.error)}`));
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`child exited (${String(code ?? signal)}) early: ${stderr}`));
    });
  });
  child.kill('SIGKILL');
  await exited;
}

const cases: [CrashPoint, string[]][] = [
  ['b', ['start a', 'end a', 'start b', 'start b', 'end b', 'start c', 'end c']],
  ['c', ['start a', 'end a', 'start b', 'end b', 'start c', 'start c', 'end c']],
];

/** Registers the crash cases on the stores `factory` makes. */
export function workflowCrashCases(name: string, factory: CrashStoreFactory): void {
  describe(`${name}: a workflow killed inside a step continues in another process`, () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'golem-wf-crash-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    test.each(cases)(
      'killed inside step %s: the parent continues, completed steps are not re-run',
      async (kill, expected) => {
        const made = await factory(dir);
        const effects = join(dir, 'effects.txt');
        await killInside({ store: made.store, effects, kill });

        const store = made.open(() => Date.now() + 3_600_000);
        try {
          const runner = new WorkflowRunner({
            store,
            workflows: [crashFlow(effects)],
            owner: 'parent',
          });
          const before = await runner.get('crash');
          expect(before.status).toBe('running');
          expect(before.steps.find((s) => s.key === kill)?.status).toBe('running');
          expect(await runner.recover()).toEqual(['crash']);
          const after = await runner.get('crash');
          expect(after).toMatchObject({ status: 'completed', output: 25 });
          expect(after.steps.map((s) => [s.key, s.status])).toEqual([
            ['a', 'completed'],
            ['b', 'completed'],
            ['c', 'completed'],
          ]);
          expect(after.steps.find((s) => s.key === kill)?.attempt).toBe(2);
          expect(readFileSync(effects, 'utf8').trim().split('\n')).toEqual(expected);
        } finally {
          await store.close();
          await made.cleanup();
        }
      },
    );
  });
}
