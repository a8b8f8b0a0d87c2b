/**
 * Runs the crash scenario in real child processes: one killed with SIGKILL at a chosen point,
 * then a fresh one that resumes. No sleeps: the child says (IPC) when it reached the point.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from 'golem';
import type { CrashConfig, KillPoint } from './crash-child';

const CHILD = join(__dirname, 'crash-child.ts');
const ROOT = join(__dirname, '..', '..', '..');

/** What the resuming process reported. */
export interface Resumed {
  output: string;
  /** Calls the resumed run paused on (outcome unknown), approved by the child. */
  paused: string[];
  messages: Message[];
}

function launch(config: CrashConfig): ChildProcess {
  return fork(CHILD, [], {
    cwd: ROOT,
    execArgv: ['-r', '@swc-node/register'],
    env: { ...process.env, GOLEM_CRASH: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** Waits for the child's first message; rejects with its stderr if it exits first or reports an error. */
export function firstMessage(child: ChildProcess): Promise<Record<string, unknown>> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('message', (message: Record<string, unknown>) => {
      if (typeof message.error === 'string') reject(new Error(`child failed: ${message.error}`));
      else resolve(message);
    });
    child.once('exit', (code, signal) => {
      reject(new Error(`child exited (${String(code ?? signal)}) before reporting: ${stderr}`));
    });
  });
}

/** Resolves once `child` has exited. */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

/** Kills a child at `kill`, resumes in a fresh child, and returns what the second one reported. */
export async function crashAndResume(
  base: Pick<CrashConfig, 'store' | 'effects' | 'calls'>,
  kill: KillPoint,
): Promise<{ resumed: Resumed; effects: string[]; calls: { start: number[]; resume: number[] } }> {
  const dying = launch({ ...base, mode: 'start', kill, clockOffset: 0 });
  const at = await firstMessage(dying);
  if (at.at !== kill) throw new Error(`child stopped at ${String(at.at)}, not ${kill}`);
  dying.kill('SIGKILL');
  await exited(dying);
  const before = lines(base.calls).map(Number);
  // An hour later: the dead process's lease has expired.
  const resuming = launch({ ...base, mode: 'resume', kill, clockOffset: 3_600_000 });
  const report = await firstMessage(resuming);
  await exited(resuming);
  return {
    resumed: report.done as Resumed,
    effects: lines(base.effects),
    calls: { start: before, resume: lines(base.calls).map(Number).slice(before.length) },
  };
}

/** The non-empty lines of `file` (none when it does not exist). */
export function lines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}
