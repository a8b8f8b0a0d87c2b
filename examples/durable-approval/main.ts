/**
 * Durable approval: a payment run pauses for a human's approval and its process exits; a second
 * process — it could be days later, on another machine sharing the database — lists the paused
 * runs, approves, and the run finishes from where it stopped. The run lives in a SQLite file
 * (`golem/stores/sqlite`), not in either process's memory. Offline: the model is a scripted
 * stand-in and the file is in a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Runs one step in its own Node process; resolves its output lines. */
function step(phase: 'request' | 'approve', dir: string): Promise<string[]> {
  const args = ['-r', '@swc-node/register', join(__dirname, 'step.ts'), phase, dir];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${phase} failed: ${stderr}`));
      else resolve(stdout.trim().split('\n'));
    });
  });
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-durable-approval-'));
  try {
    log('process 1: request the payment');
    for (const line of await step('request', dir)) log(`  ${line}`);
    log('process 2: approve and finish');
    for (const line of await step('approve', dir)) log(`  ${line}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
