/**
 * A refused `runQueue` (or `runWorker`) configuration opens nothing: every option is checked before the first
 * Redis connection, so a process whose configuration is refused exits by itself (no ioredis
 * client left reconnecting).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REDIS_URL } from '../redis';

jest.setTimeout(20_000);

const ROOT = join(__dirname, '..', '..', '..');
let child: ChildProcess | undefined;

afterEach(() => {
  // Only when the assertion failed: the child that did not exit is not left behind.
  if (child !== undefined && child.exitCode === null && child.signalCode === null)
    child.kill('SIGKILL');
});

test('a refused runQueue or runWorker configuration throws invalid-options and leaves nothing open', async () => {
  const proc = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'options-child.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, GOLEM_TEST_REDIS_URL: REDIS_URL },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child = proc;
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Exits by itself: before the fix two ioredis clients kept it alive (this test then timed out).
  const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
  expect([code, stderr]).toEqual([0, '']);
  const lines = stdout.trim().split('\n');
  expect(lines).toEqual([
    'invalid-options limits.promptBytes must be a positive integer of bytes',
    'invalid-options attempts must be an integer ≥ 1, got 0',
    'invalid-options backoffMs must be an integer ≥ 0, got 1.5',
    'invalid-options infoTtlMs must be an integer ≥ 1, got -1',
    'invalid-options defaults.timeout must be a finite number of ms >= 0, got null',
    'invalid-options feed.maxLength must be an integer ≥ 1, got 0',
    'invalid-options route must be a function, got string',
    'invalid-options prefix must be 1–100 letters, digits, "_", "." or "-", got "has:colon"',
    'invalid-options store must be a run store (sqliteStore, postgresStore, memoryStore): the one the workers checkpoint in',
    'invalid-options connection must be a redis:// or rediss:// URL, or ioredis options ({ host, port })',
    'invalid-options store must be a run store (sqliteStore, postgresStore, memoryStore): the one the workers checkpoint in',
    'invalid-options timeout must be a finite number of ms >= 0, got -1',
    'invalid-options stalled.lockDuration must be an integer ≥ 1, got 0',
    'invalid-options feed.ttlMs must be an integer ≥ 1, got "a day"',
  ]);
});
