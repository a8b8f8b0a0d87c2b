/**
 * A private, restartable Redis for the fault tests: its own `redis-server` process on a free
 * loopback port, with its data in a temporary folder and AOF persistence (`appendfsync always`),
 * so `kill()` (SIGKILL: a crash) and `restart()` on the same port lose nothing Redis acknowledged.
 * The machine's shared Redis at 127.0.0.1:6379 is never touched. The binary is `redis-server` on
 * the PATH (GOLEM_TEST_REDIS_SERVER to use another); without it the test fails and says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = process.env.GOLEM_TEST_REDIS_SERVER ?? 'redis-server';
/** What redis-server prints once it takes connections. */
const READY = /Ready to accept connections/;

/** A port nothing listens on now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  /** Starts a server on a free port; resolves once it accepts connections. */
  static async start(): Promise<PrivateRedis> {
    const server = new PrivateRedis(await freePort(), mkdtempSync(join(tmpdir(), 'golem-redis-')));
    await server.launch();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Kills the server with SIGKILL (no shutdown, no final save) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    child.kill('SIGKILL');
    await gone;
  }

  /** Starts the server again on the same port and data folder (it reloads its AOF). */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  /** Kills the server and deletes its data. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private launch(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--logfile',
      '',
      '--daemonize',
      'no',
    ];
    const child = spawn(BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    let ready = false;
    return new Promise<void>((resolve, reject) => {
      // Both pipes are read to the end, so the server never blocks on its log.
      const onData = (chunk: Buffer): void => {
        if (ready) return;
        output += chunk.toString();
        if (READY.test(output)) {
          ready = true;
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          new Error(
            error.code === 'ENOENT'
              ? `this test needs the redis-server binary (Debian package redis-server), or GOLEM_TEST_REDIS_SERVER naming one: ${error.message}`
              : `redis-server did not start: ${error.message}`,
            { cause: error },
          ),
        );
      });
      child.once('exit', (code, signal) => {
        reject(
          new Error(`redis-server exited before it was ready (${code ?? signal}):\n${output}`),
        );
      });
    });
  }
}
