/** Launching the official reference servers (devDependencies) for the MCP suites. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { McpStdioTransport } from 'golem/mcp';

/** The folder of a reference server package, e.g. `server-everything`. */
export function referenceDir(
  name: 'server-everything' | 'server-filesystem' | 'server-memory',
): string {
  return dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`));
}

/** A stdio transport running a reference server's `dist/index.js` with this Node binary. */
export function referenceStdio(
  name: 'server-everything' | 'server-filesystem' | 'server-memory',
  args: readonly string[] = [],
  env: Record<string, string> = {},
): McpStdioTransport {
  return {
    kind: 'stdio',
    command: process.execPath,
    args: [join(referenceDir(name), 'dist', 'index.js'), ...args],
    env,
  };
}

/** A reference server over Streamable HTTP on a loopback port; `stop()` it in afterAll. */
export interface ReferenceHttp {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts server-everything's `streamableHttp` mode with PORT=0 and learns the port from the
 * preloaded reporter (servers/report-port.js) — no fixed port, no polling.
 */
export function startEverythingHttp(): Promise<ReferenceHttp> {
  const child = spawn(
    process.execPath,
    [
      '--require',
      join(__dirname, 'servers', 'report-port.js'),
      join(referenceDir('server-everything'), 'dist', 'index.js'),
      'streamableHttp',
    ],
    { env: { PATH: process.env.PATH ?? '', PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const stop = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const port = /LISTENING (\d+)/.exec(seen)?.[1];
      if (port !== undefined) resolve({ url: `http://127.0.0.1:${port}/mcp`, child, stop });
    });
    child.once('exit', (code) => {
      reject(new Error(`server-everything exited (${String(code)}): ${seen}`));
    });
  });
}
