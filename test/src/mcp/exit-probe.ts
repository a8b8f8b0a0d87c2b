/**
 * Run as a child process by close-exit.test.ts (through @swc-node/register): performs one
 * scenario of calls, timeouts and failures, closes the client, and reports on stdout what could
 * still keep the process alive the moment `close()` resolves (see {@link lingering}). No clock is
 * read: the test also waits for the process to exit on its own.
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { connectMcp, type McpClient, type McpTransportConfig } from '../../../src/mcp/index';
import type { Tool, ToolContext } from '../../../src/core/index';

const [scenario = '', url = ''] = process.argv.slice(2);

function ctx(): ToolContext {
  return {
    deps: undefined,
    signal: new AbortController().signal,
    callId: 'c',
    toolName: 't',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

async function attempt(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch {
    // Failures are part of the scenario.
  }
}

function named(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

const everythingStdio: McpTransportConfig = {
  kind: 'stdio',
  command: process.execPath,
  args: [
    join(
      __dirname,
      '..',
      '..',
      '..',
      'node_modules',
      '@modelcontextprotocol',
      'server-everything',
      'dist',
      'index.js',
    ),
    'stdio',
  ],
};

let opened: McpClient | undefined;

async function run(): Promise<McpClient | undefined> {
  switch (scenario) {
    case 'http-timeout':
    case 'stdio-timeout': {
      const client = await connectMcp({
        transport: scenario === 'http-timeout' ? { kind: 'http', url } : everythingStdio,
        sampling: {
          model: {
            generate: () =>
              Promise.resolve({
                message: { role: 'assistant', content: 'x' },
                usage: { inputTokens: 0, outputTokens: 0 },
              }),
          },
        },
      });
      opened = client;
      const tools = await client.tools({ timeout: 100 });
      await named(await client.tools({ include: ['echo'] }), 'echo').execute(
        { message: 'hi' },
        ctx(),
      );
      await attempt(async () =>
        named(tools, 'trigger-long-running-operation').execute({ duration: 5, steps: 5 }, ctx()),
      );
      await attempt(async () =>
        named(tools, 'simulate-research-query').execute({ topic: 'x' }, ctx()),
      );
      await client.listResources();
      await attempt(() => client.readResource('demo://nope'));
      await client.getPrompt('simple-prompt');
      return client;
    }
    case 'http-refused':
      await attempt(() =>
        connectMcp({ transport: { kind: 'http', url: 'http://127.0.0.1:9/mcp' } }),
      );
      return undefined;
    case 'http-server-gone': {
      const client = await connectMcp({ transport: { kind: 'http', url } });
      opened = client;
      await client.tools();
      process.kill(Number(process.argv[4]), 'SIGKILL');
      await attempt(() => client.listPrompts());
      return client;
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

/** An active libuv handle as `process._getActiveHandles()` returns it (a Socket, a ChildProcess …). */
interface ActiveHandle {
  constructor?: { name?: string };
  fd?: number;
  destroyed?: boolean;
  writableEnded?: boolean;
  exitCode?: number | null;
  signalCode?: string | null;
}

/**
 * What keeps the event loop alive and is not already on its way out: ref'd timers (an unanswered
 * DELETE, a reconnect delay, a poll), sockets neither ended nor destroyed (an idle keep-alive
 * connection), child processes that have not exited, listening servers. Sockets being shut
 * down and children that already exited close by themselves, however slow the machine is.
 */
function lingering(): string[] {
  const left = process
    .getActiveResourcesInfo()
    .filter((type) => type === 'Timeout')
    .map(() => "a ref'd timer");
  // Documentation-only deprecated (DEP0161) but kept: the public getActiveResourcesInfo() names
  // handle types only, and cannot tell a socket being shut down from an idle one.
  const { _getActiveHandles } = process as { _getActiveHandles?: () => ActiveHandle[] };
  if (typeof _getActiveHandles !== 'function') return [...left, 'no process._getActiveHandles()'];
  for (const handle of _getActiveHandles.call(process)) {
    const kind = handle.constructor?.name ?? 'handle';
    if (kind === 'Socket' && (handle.fd ?? -1) >= 0 && (handle.fd ?? -1) <= 2) continue; // stdio
    if (kind === 'Socket' && (handle.destroyed === true || handle.writableEnded === true)) continue;
    if (kind === 'ChildProcess' && (handle.exitCode != null || handle.signalCode != null)) continue;
    left.push(`a ${kind}`);
  }
  return left;
}

run().then(
  async (client) => {
    await client?.close();
    const left = lingering();
    process.on('exit', () => {
      writeSync(1, `${JSON.stringify({ lingering: left })}\n`);
    });
  },
  async (error: unknown) => {
    writeSync(2, `exit-probe failed: ${String(error)}\n`);
    process.exitCode = 1;
    await opened?.close();
  },
);
