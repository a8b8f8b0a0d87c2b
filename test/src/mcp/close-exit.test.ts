/**
 * `close()` leaves nothing that keeps the process alive: after calls, call timeouts (streams the
 * server keeps open, task polling), failures and a server that vanished, a child process exits
 * within 100 ms of `close()` resolving — measured with the `exit` event's timestamp.
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
): Promise<{ exitAfterClose: number; code: number | null; stderr: string }> {
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
      const report = JSON.parse(line) as { exitAfterClose?: number };
      resolve({ exitAfterClose: report.exitAfterClose ?? Number.NaN, code, stderr });
    });
  });
}

test.each([
  ['HTTP: calls, a call timeout on an open stream, a task timeout, a failed read', 'http-timeout'],
  ['stdio: the same sequence', 'stdio-timeout'],
  ['HTTP: the server refuses the connection (no client to close)', 'http-refused'],
])(
  '%s: exits within 100 ms of close()',
  async (_label, scenario) => {
    const result = await probe(scenario, everything.url);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.exitAfterClose).toBeLessThan(100);
  },
  30_000,
);

test('HTTP: the server process dies mid-session: close() still leaves nothing behind', async () => {
  const doomed = await startEverythingHttp();
  try {
    const result = await probe('http-server-gone', doomed.url, String(doomed.child.pid));
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.exitAfterClose).toBeLessThan(100);
  } finally {
    await doomed.stop();
  }
}, 30_000);
