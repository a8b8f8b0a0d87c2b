/**
 * `close()` leaves nothing that keeps the process alive: after calls, call timeouts (streams the
 * server keeps open, task polling), failures and a server that vanished, a child process has no
 * ref'd timer, open socket or live child left when `close()` resolves, and exits on its own.
 * No wall-clock bound: a busy machine only makes the exit slower, never the answer different.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startEverythingHttp, type ReferenceHttp } from './reference';

let everything: ReferenceHttp;
beforeAll(async () => {
  everything = await startEverythingHttp();
}, 30_000);
afterAll(() => everything.stop());

/** Runs the probe with `args`; resolves with its report. */
function probe(
  ...args: string[]
): Promise<{ lingering: string[] | undefined; code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'exit-probe.ts'), ...args],
    {
      cwd: join(__dirname, '..', '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '{}';
      const report = JSON.parse(line) as { lingering?: string[] };
      resolve({ lingering: report.lingering, code, stderr });
    });
  });
}

test.each([
  ['HTTP: calls, a call timeout on an open stream, a task timeout, a failed read', 'http-timeout'],
  ['stdio: the same sequence', 'stdio-timeout'],
  ['HTTP: the server refuses the connection (no client to close)', 'http-refused'],
])(
  '%s: nothing is left to keep the process alive after close()',
  async (_label, scenario) => {
    const result = await probe(scenario, everything.url);
    expect(result).toEqual({ lingering: [], code: 0, stderr: '' });
  },
  30_000,
);

test('HTTP: the server process dies mid-session: close() still leaves nothing behind', async () => {
  const doomed = await startEverythingHttp();
  try {
    const result = await probe('http-server-gone', doomed.url, String(doomed.child.pid));
    expect(result).toEqual({ lingering: [], code: 0, stderr: '' });
  } finally {
    await doomed.stop();
  }
}, 30_000);
