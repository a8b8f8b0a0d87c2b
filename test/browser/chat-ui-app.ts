/**
 * The chat UI example as the browser test needs it: its page built with vite, its server started
 * as `npm run serve` starts it (tsx server.ts, golem from the root build), on a free loopback port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The example folder. */
export const EXAMPLE = join(__dirname, '..', '..', 'examples', 'chat-ui');

/** Chromium from the OS packages (`apt-get install chromium`), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(
      `Chromium is missing: no executable at ${path}. Install it with ` +
        '`apt-get install -y chromium` (Debian), or set CHROMIUM_PATH to a Chromium binary.',
    );
  return path;
}

/** Throws a message naming the command to run when the example cannot be built or served. */
export function checkPrerequisites(): void {
  const root = join(EXAMPLE, '..', '..');
  if (!existsSync(join(root, 'dist', 'src', 'ui', 'index.js')))
    throw new Error('golem is not built: run `npm run build` at the repository root first.');
  for (const bin of ['vite', 'tsx'])
    if (!existsSync(join(EXAMPLE, 'node_modules', '.bin', bin)))
      throw new Error(
        `examples/chat-ui has no ${bin}: run \`npm ci --prefix examples/chat-ui\` first.`,
      );
}

/** Builds the page into examples/chat-ui/dist (vite build), bounded to two minutes. */
export function buildPage(): void {
  const built = spawnSync(join(EXAMPLE, 'node_modules', '.bin', 'vite'), ['build'], {
    cwd: EXAMPLE,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (built.status !== 0)
    throw new Error(
      `vite build failed (${built.error?.message ?? `exit ${built.status}`}):\n${built.stdout}${built.stderr}`,
    );
}

/** Provider settings are dropped: the server answers with its offline scripted model. */
const PROVIDER_ENV = /^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|AZURE_OPENAI|AWS|GOLEM)_/;

/** A running example server. */
export interface RunningServer {
  url: string;
  /** Stops the server; resolves when its process has exited. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
}

/** Starts `tsx server.ts` on port 0 and resolves with the address it prints. */
export async function startServer(timeoutMs = 30_000): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = { PORT: '0', HOST: '127.0.0.1' };
  for (const [key, value] of Object.entries(process.env))
    if (!PROVIDER_ENV.test(key) && key !== 'PORT' && key !== 'HOST') env[key] = value;
  const child = spawn(join(EXAMPLE, 'node_modules', '.bin', 'tsx'), ['server.ts'], {
    cwd: EXAMPLE,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async (): Promise<void> => {
    const gone = exited(child);
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
    }, 5_000);
    await gone;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the chat-ui server printed no address in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (data: Buffer): void => {
      output += data.toString('utf8');
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the chat-ui server exited (${code ?? signal ?? '?'}):\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, stop };
}
