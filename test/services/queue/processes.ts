/**
 * Worker processes for the multi-process tests: each is a real Node process running
 * worker-child.ts on the TypeScript sources; the parent learns where it is over IPC (never by
 * waiting a while).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DoorChildConfig } from './door-child';
import type { ChildConfig } from './worker-child';

const CHILD = join(__dirname, 'worker-child.ts');
/** The door matrix's worker script (door-child.ts): pass it as `WorkerProcess`'s `script`. */
export const DOOR_CHILD = join(__dirname, 'door-child.ts');
const ROOT = join(__dirname, '..', '..', '..');

type Message = Record<string, unknown>;

/** A worker process and the messages it sent. */
export class WorkerProcess {
  readonly child: ChildProcess;
  private readonly inbox: Message[] = [];
  private readonly waiters = new Set<() => void>();
  private stderr = '';
  private exited = false;

  /** A worker running `script` (default worker-child.ts) with `config`. */
  constructor(config: ChildConfig | DoorChildConfig, script: string = CHILD) {
    this.child = fork(script, [], {
      cwd: ROOT,
      execArgv: ['-r', '@swc-node/register'],
      env: { ...process.env, GOLEM_QUEUE_CHILD: JSON.stringify(config) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on('message', (message: Message) => {
      this.inbox.push(message);
      this.wake();
    });
    this.child.on('exit', () => {
      this.exited = true;
      this.wake();
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves with the first message (received or to come) matching `match`, removing it. */
  async next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const index = this.inbox.findIndex(match);
      if (index >= 0) return this.inbox.splice(index, 1)[0]!;
      const error = this.inbox.find((m) => typeof m.error === 'string');
      if (error !== undefined) throw new Error(`worker failed: ${String(error.error)}`);
      if (this.exited) throw new Error(`worker exited before the message: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.waiters.delete(done);
          resolve();
        };
        this.waiters.add(done);
      });
    }
  }

  /** Resolves at the next message or exit (consuming nothing); rejects if the worker failed. */
  async changed(): Promise<void> {
    const error = this.inbox.find((m) => typeof m.error === 'string');
    if (error !== undefined) throw new Error(`worker failed: ${String(error.error)}`);
    if (this.exited) throw new Error(`worker exited: ${this.stderr}`);
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
    });
  }

  /** All received messages with a `key`, removed from the inbox. */
  take(key: string): unknown[] {
    const taken = this.inbox.filter((m) => key in m);
    for (const m of taken) this.inbox.splice(this.inbox.indexOf(m), 1);
    return taken.map((m) => m[key]);
  }

  send(message: Message): void {
    this.child.send(message);
  }

  /** Waits until the process has exited. */
  async exit(): Promise<void> {
    if (this.exited || this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => {
        resolve();
      });
    });
  }

  /** Asks the worker to close (finishing its runs) and waits for it to exit. */
  async close(): Promise<void> {
    if (!this.exited && this.child.connected) this.send({ close: true });
    await this.exit();
  }

  kill(): Promise<void> {
    this.child.kill('SIGKILL');
    return this.exit();
  }
}

/** Starts `count` workers and waits until each takes jobs. */
export async function startWorkers(count: number, config: ChildConfig): Promise<WorkerProcess[]> {
  const workers = Array.from({ length: count }, () => new WorkerProcess(config));
  await Promise.all(workers.map((w) => w.next((m) => typeof m.ready === 'string')));
  return workers;
}

/** The effects file as `runId step` lines, counted. */
export function effectCounts(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (!existsSync(file)) return counts;
  for (const line of readFileSync(file, 'utf8').split('\n'))
    if (line !== '') counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

/** Waits until `workers` together sent `count` messages carrying `key`; returns those values. */
export async function gather(
  workers: readonly WorkerProcess[],
  key: string,
  count: number,
): Promise<unknown[]> {
  const values: unknown[] = [];
  for (;;) {
    for (const w of workers) values.push(...w.take(key));
    if (values.length >= count) return values;
    await Promise.race(workers.map((w) => w.changed()));
  }
}
