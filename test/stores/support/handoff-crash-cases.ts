/**
 * Handoff crash cases, for any store: a child process is SIGKILLed inside the checkpoint that
 * commits a handoff, or in the target's first model call after it; a fresh process continues the
 * run with `resumeRun`. The run ends in the target, its tool ran once, and the handing-off agent
 * is asked again only when its transfer never reached the database.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, firstMessage, lines } from './crash-harness';
import type { HandoffCrashConfig, HandoffKillPoint } from './handoff-crash-child';

const CHILD = join(__dirname, 'handoff-crash-child.ts');
const ROOT = join(__dirname, '..', '..', '..');

/** A fresh store location for the children, and its cleanup. */
export type HandoffStoreFactory = (
  dir: string,
) => Promise<{ store: HandoffCrashConfig['store']; cleanup: () => Promise<void> }>;

function launch(config: HandoffCrashConfig): ChildProcess {
  return fork(CHILD, [], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_HANDOFF_CRASH: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

const CASES: [HandoffKillPoint, string, { start: string[]; resume: string[] }][] = [
  [
    'handoff-write',
    'inside the handoff checkpoint: the transfer never committed, triage is asked again',
    { start: ['triage'], resume: ['triage', 'billing', 'refund', 'billing'] },
  ],
  [
    'target-model',
    "in the target's first model call: the run continues in billing, triage is not asked again",
    { start: ['triage', 'billing'], resume: ['billing', 'refund', 'billing'] },
  ],
];

export function handoffCrashCases(name: string, factory: HandoffStoreFactory): void {
  describe(`${name}: a run killed around a handoff continues in the right agent`, () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'golem-handoff-crash-'));
    });
    afterEach(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    test.each(CASES)('SIGKILL %s — %s', async (kill, _what, expected) => {
      const { store, cleanup } = await factory(dir);
      try {
        const log = join(dir, 'log.txt');
        const dying = launch({ store, mode: 'start', kill, log, clockOffset: 0 });
        const at = await firstMessage(dying);
        expect(at.at).toBe(kill);
        dying.kill('SIGKILL');
        await exited(dying);
        const before = lines(log);
        // An hour later: the dead process's lease has expired.
        const resuming = launch({ store, mode: 'resume', kill, log, clockOffset: 3_600_000 });
        const report = (await firstMessage(resuming)).done as Record<string, unknown>;
        await exited(resuming);
        expect({ start: before, resume: lines(log).slice(before.length) }).toEqual(expected);
        expect(report).toEqual({
          output: 'Refunded.',
          agent: 'billing',
          handoffs: [{ from: 'triage', to: 'billing', callId: 't1' }],
          system: 'You are billing.',
        });
      } finally {
        await cleanup();
      }
    });
  });
}
