import type { ChildProcess, StdioOptions } from 'node:child_process';
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Ending } from './output';
import { DRAIN_LIMIT, OutputBuffer } from './output';
import { openOutputChannel } from './output-channel';

/** How long output is awaited after the group was killed, for processes that escaped it. */
const KILL_GRACE = 1000;

/** What to run. Internal. */
export interface ProcessRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeout: number;
  maxBytes: number;
  signal: AbortSignal;
}

/** How a run ended. Internal. */
export type ProcessOutcome =
  | { kind: 'finished'; output: OutputBuffer; ending: Ending }
  | { kind: 'timeout' | 'aborted'; output: OutputBuffer }
  | { kind: 'start-failed'; error: Error };

/**
 * Sends SIGKILL to the child's whole process group (the child leads it: it was spawned
 * detached). Falls back to the child alone where groups are unavailable. Errors (the group is
 * already gone) are ignored.
 */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** stdio for the child: one shared socket for stdout and stderr, or two pipes if sockets fail. */
async function stdioFor(): Promise<{ stdio: StdioOptions; close: () => void; reader?: Readable }> {
  try {
    const { writer, reader } = await openOutputChannel();
    return {
      stdio: ['ignore', writer, writer],
      reader,
      close: () => {
        writer.destroy();
      },
    };
  } catch {
    return { stdio: ['ignore', 'pipe', 'pipe'], close: () => undefined };
  }
}

/**
 * Runs `file` with `args` — no shell — in its own process group with the given environment and
 * working directory, collecting stdout and stderr into one capped buffer. The timeout (always
 * set) and `signal` kill the whole group; so does a child that keeps writing far past the cap,
 * and so does the child's own exit (no stragglers outlive the call). Resolves once the child has
 * exited and its output stream has closed; never rejects.
 */
export async function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  const output = new OutputBuffer(request.maxBytes);
  const io = await stdioFor();
  let child: ChildProcess;
  try {
    child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: io.stdio,
      detached: true,
      shell: false,
      windowsHide: true,
    });
  } catch (error) {
    io.reader?.destroy();
    return { kind: 'start-failed', error: error as Error };
  } finally {
    io.close();
  }
  const readers: Readable[] = io.reader !== undefined ? [io.reader] : [];
  if (io.reader === undefined) {
    if (child.stdout !== null) readers.push(child.stdout);
    if (child.stderr !== null) readers.push(child.stderr);
  }
  return new Promise<ProcessOutcome>((resolve) => {
    let stopped: 'timeout' | 'aborted' | 'flood' | undefined;
    let ending: Ending | undefined;
    let openReaders = readers.length;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;

    const closeReaders = (): void => {
      for (const reader of readers) reader.destroy();
    };
    const finish = (outcome: ProcessOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      request.signal.removeEventListener('abort', onAbort);
      closeReaders();
      resolve(outcome);
    };
    const maybeDone = (): void => {
      if (ending === undefined || openReaders > 0) return;
      if (stopped === 'timeout' || stopped === 'aborted') finish({ kind: stopped, output });
      else finish({ kind: 'finished', output, ending });
    };
    const stop = (why: 'timeout' | 'aborted' | 'flood'): void => {
      // After the child's exit only its output is awaited (a process that left the group may
      // hold it open): stop waiting and report how the child ended.
      if (ending !== undefined) {
        closeReaders();
        return;
      }
      if (stopped !== undefined) return;
      stopped = why;
      killGroup(child);
      // The output closes once every killed process holding it is dead; wait for that, but not
      // for a process that escaped the group.
      grace = setTimeout(closeReaders, KILL_GRACE);
    };
    const onAbort = (): void => {
      stop('aborted');
    };
    const timer = setTimeout(() => {
      stop('timeout');
    }, request.timeout);
    request.signal.addEventListener('abort', onAbort, { once: true });

    for (const reader of readers) {
      reader.on('data', (chunk: Buffer) => {
        if (output.append(chunk) === 'flood') stop('flood');
      });
      reader.once('close', () => {
        openReaders--;
        maybeDone();
      });
      reader.on('error', () => undefined);
      reader.resume();
    }
    child.once('error', (error) => {
      if (child.pid === undefined) finish({ kind: 'start-failed', error });
    });
    child.once('exit', (code, signal) => {
      // Stragglers in the group (a grandchild still sleeping or writing) die with the call.
      killGroup(child);
      if (stopped === 'flood') ending = { kind: 'flood', bytes: request.maxBytes + DRAIN_LIMIT };
      else if (code !== null) ending = { kind: 'exit', code };
      else ending = { kind: 'signal', signal: signal ?? 'unknown' };
      maybeDone();
    });
    if (request.signal.aborted) stop('aborted');
  });
}
