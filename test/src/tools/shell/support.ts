import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelRetry } from 'golem';
import type { Tool, ToolContext } from 'golem';

/** A tool context for direct `execute` calls. */
export function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'run_command',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

/** Runs the tool and returns what it threw (failing when it did not throw). */
export async function rejection(tool: Tool, args: unknown, ctx = context()): Promise<Error> {
  try {
    await tool.execute(args, ctx);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
}

/** A fresh, canonical temporary directory. */
export async function tempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** argv running this Node with an inline script. */
export function nodeArgv(script: string, ...args: string[]): string[] {
  return [process.execPath, '-e', script, ...args];
}

/** `PF_EXITING` in /proc/<pid>/stat flags: the process is in the kernel's exit path. */
const PF_EXITING = 0x4;

/**
 * Whether process `pid` is dead or irrevocably dying: `kill(pid, 0)` fails; or /proc/<pid>/stat
 * says it is a zombie (`Z`/`X` — exited, but its new parent, PID 1 here, has not reaped it) or
 * has `PF_EXITING` set (SIGKILL was delivered; it will never run user code again, and the kernel
 * is tearing it down).
 */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const flags = Number(fields[6]);
    return state === 'Z' || state === 'X' || (flags & PF_EXITING) !== 0;
  } catch {
    return true;
  }
}

/** The reason of a ModelRetry (failing for anything else). */
export function reasonOf(error: unknown): string {
  if (!ModelRetry.is(error)) throw new Error(`expected a ModelRetry, got ${String(error)}`);
  return error.reason;
}

/** Resolves once `file` in `dir` holds something (a command wrote a pid there): no polling. */
export function untilWritten(dir: string, file: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(file) && readFileSync(file, 'utf8') !== '') {
        watcher.close();
        resolve();
      }
    });
  });
}

/**
 * Jest's fake clock for setTimeout and clearTimeout only (the shell tool's timeout); child
 * processes, sockets and fs.watch keep real time. Undo with `jest.useRealTimers()`.
 */
export function fakeTimeoutsOnly(): void {
  jest.useFakeTimers({
    doNotFake: [
      'nextTick',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'Date',
      'hrtime',
    ],
  });
}
