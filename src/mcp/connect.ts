import { stat } from 'node:fs/promises';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { throwIfCancelled } from '../model/cancellation';
import type { Tool } from '../tool/tool';
import { McpClient } from './client';
import { childEnvironment } from './env';
import { McpConfigError } from './errors';
import { FailureRegistry } from './failures';
import { guardedFetch } from './http-guard';
import { sameOriginFetch } from './redirects';
import { transportSecrets } from './secrets';
import { resolveConnectOptions, type ConnectMcpOptions, type McpToolsOptions } from './options';
import { loadMcpSdk, type McpSdk } from './sdk';

/**
 * Connects to an MCP server with the official SDK — a stdio child process (allow-listed
 * environment, no shell) or a Streamable HTTP endpoint — and runs the handshake. Option mistakes
 * throw `McpConfigError`; a missing SDK `McpSdkMissingError`; a server that cannot be reached or
 * fails the handshake `McpTransportError` / `McpProtocolError`.
 *
 * @example
 * const docs = await connectMcp({ name: 'docs', transport: { kind: 'stdio', command: 'docs-mcp' } });
 * const agent = new Agent({ model, tools: mergeTools(localTools, await docs.tools({ prefix: 'docs' })) });
 * try { await agent.run('…'); } finally { await docs.close(); }
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpClient> {
  const resolved = resolveConnectOptions(options);
  const sdk = loadMcpSdk();
  const signal = options.signal;
  throwIfCancelled(signal);
  const failures = new FailureRegistry();
  const transport = await createTransport(sdk, resolved, failures);
  const client = new McpClient({
    sdk,
    name: resolved.name,
    timeout: resolved.timeout,
    maxMessageBytes: resolved.maxMessageBytes,
    failures,
    secrets:
      resolved.transport.kind === 'http'
        ? transportSecrets(resolved.transport.headers, resolved.transport.url)
        : [],
    onToolsChanged: options.onToolsChanged,
  });
  await client.connect(transport, signal);
  return client;
}

/** The tools of a connected server; the same as `client.tools(options)`. */
export function mcpTools(client: McpClient, options?: McpToolsOptions): Promise<Tool[]> {
  return client.tools(options);
}

async function createTransport(
  sdk: McpSdk,
  resolved: ReturnType<typeof resolveConnectOptions>,
  failures: FailureRegistry,
): Promise<Transport> {
  const { transport } = resolved;
  if (transport.kind === 'http') {
    return new sdk.StreamableHTTPClientTransport(transport.url, {
      requestInit: { headers: { ...transport.headers } },
      fetch: guardedFetch({
        server: resolved.name,
        maxMessageBytes: resolved.maxMessageBytes,
        failures,
        fetch: sameOriginFetch(resolved.name),
      }),
    });
  }
  if (transport.cwd !== '') await checkDirectory(transport.cwd);
  return new sdk.StdioClientTransport({
    command: transport.command,
    args: [...transport.args],
    env: childEnvironment(process.env, transport.inheritEnv, transport.env),
    ...(transport.cwd !== '' && { cwd: transport.cwd }),
    stderr: transport.stderr,
    maxBufferSize: resolved.maxMessageBytes,
  });
}

async function checkDirectory(cwd: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(cwd)).isDirectory();
  } catch {
    throw new McpConfigError('transport.cwd', `${JSON.stringify(cwd)} does not exist`);
  }
  if (!isDirectory) {
    throw new McpConfigError('transport.cwd', `${JSON.stringify(cwd)} is not a directory`);
  }
}
