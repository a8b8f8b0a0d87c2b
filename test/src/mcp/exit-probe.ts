/**
 * Run as a child process by close-exit.test.ts (through @swc-node/register): performs one
 * scenario of calls, timeouts and failures, closes the client, and reports on stdout how many ms
 * passed between `close()` resolving and the process's `exit` event. Nothing else keeps it alive.
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { connectMcp, type McpClient, type McpTransportConfig } from '../../../src/mcp/index';
import type { Tool, ToolContext } from '../../../src/index';

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

run().then(
  async (client) => {
    await client?.close();
    const closed = performance.now();
    process.on('exit', () => {
      writeSync(1, `${JSON.stringify({ exitAfterClose: performance.now() - closed })}\n`);
    });
  },
  async (error: unknown) => {
    writeSync(2, `exit-probe failed: ${String(error)}\n`);
    process.exitCode = 1;
    await opened?.close();
  },
);
