import { stat } from 'node:fs/promises';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { throwIfCancelled } from '../core/errors/cancellation';
import type { Tool } from '../core/tool/tool';
import type { ResolvedCapabilities } from './capability-options';
import { McpClient } from './client';
import { installElicitation } from './elicitation';
import { attachPause, ElicitationPause } from './elicitation-pause';
import { childEnvironment } from './env';
import { mcpConfigError } from './errors';
import { FailureRegistry } from './failures';
import {
  clearReconnections,
  endHttpSession,
  httpTransport,
  type CloseState,
} from './http-transport';
import { resolveConnectOptions, type ConnectMcpOptions, type McpToolsOptions } from './options';
import { RootsState } from './roots';
import { installSampling } from './sampling';
import { loadMcpSdk, type McpSdk } from './sdk';
import { transportSecrets } from './secrets';
import { McpSession } from './session';
import type { ResolvedTransport } from './transport-options';

/**
 * Connects to an MCP server with the official SDK — a stdio child process (allow-listed
 * environment, no shell) or a Streamable HTTP endpoint (custom headers, OAuth) — declares the
 * client capabilities you opted into (sampling, elicitation, roots) and runs the handshake. Option
 * mistakes throw an `mcp` `ConfigError`; a missing SDK a `missing-peer` `ConfigError`; a server
 * that cannot be reached or fails the handshake `McpTransportError` / `McpProtocolError` (kinds);
 * an HTTP server that needs an OAuth authorization first `McpAuthorizationRequiredError`.
 *
 * @example
 * const docs = await connectMcp({ name: 'docs', transport: { kind: 'stdio', command: 'docs-mcp' }
 * }); const agent = new Agent({ model, tools: mergeTools(localTools, await docs.tools({ prefix:
 * 'docs' })) }); try { await agent.run('…'); } finally { await docs.close(); }
 */
export async function connectMcp(options: ConnectMcpOptions): Promise<McpClient> {
  const resolved = resolveConnectOptions(options);
  const sdk = loadMcpSdk();
  const signal = options.signal;
  throwIfCancelled(signal);
  const failures = new FailureRegistry();
  const { transport, close: closeState } = await createTransport(sdk, resolved, failures);
  const caps = resolved.capabilities;
  const client = new sdk.Client(
    { name: 'golem', version: '0' },
    { capabilities: declaredCapabilities(caps) },
  );
  if (caps.sampling !== undefined) installSampling(sdk, client, resolved.name, caps.sampling);
  if (caps.elicitation !== undefined) {
    const pause = caps.elicitation.pauseRun ? new ElicitationPause() : undefined;
    if (pause !== undefined) attachPause(client, pause);
    installElicitation(sdk, client, resolved.name, caps.elicitation, pause);
  }
  const roots = caps.roots === undefined ? undefined : new RootsState(sdk, client, caps.roots);
  const http = resolved.transport.kind === 'http' ? resolved.transport : undefined;
  const session = new McpSession({
    sdk,
    client,
    name: resolved.name,
    timeout: resolved.timeout,
    maxMessageBytes: resolved.maxMessageBytes,
    failures,
    secrets: http === undefined ? [] : transportSecrets(http.headers, http.url),
    onToolsChanged: options.onToolsChanged,
    onToolRejected: options.onToolRejected,
    onListChanged: options.onListChanged,
    onResourceUpdated: options.onResourceUpdated,
    onLog: options.onLog,
    onClosing: () => {
      closeState.closed = true;
    },
    onClosed: () => {
      clearReconnections(closeState);
    },
    endSession: http === undefined ? undefined : () => endHttpSession(transport, http),
  });
  await session.connect(transport, signal);
  if (caps.logLevel !== undefined && client.getServerCapabilities()?.logging !== undefined) {
    try {
      await session.setLogLevel(caps.logLevel);
    } catch (error) {
      await session.close();
      throw error;
    }
  }
  return new McpClient({ session, roots });
}

/** The tools of a connected server; the same as `client.tools(options)`. */
export function mcpTools(client: McpClient, options?: McpToolsOptions): Promise<Tool[]> {
  return client.tools(options);
}

function declaredCapabilities(caps: ResolvedCapabilities): ClientCapabilities {
  return {
    ...(caps.sampling !== undefined && { sampling: {} }),
    ...(caps.elicitation !== undefined && {
      elicitation: { form: {}, ...(caps.elicitation.url && { url: {} }) },
    }),
    ...(caps.roots !== undefined && { roots: { listChanged: true } }),
  };
}

async function createTransport(
  sdk: McpSdk,
  resolved: ReturnType<typeof resolveConnectOptions>,
  failures: FailureRegistry,
): Promise<{ transport: Transport; close: CloseState }> {
  const transport: ResolvedTransport = resolved.transport;
  const close: CloseState = { closed: false, timers: new Set() };
  if (transport.kind === 'http') {
    return { transport: httpTransport(sdk, transport, resolved, failures, close), close };
  }
  if (transport.cwd !== '') await checkDirectory(transport.cwd);
  return {
    transport: new sdk.StdioClientTransport({
      command: transport.command,
      args: [...transport.args],
      env: childEnvironment(process.env, transport.inheritEnv, transport.env),
      ...(transport.cwd !== '' && { cwd: transport.cwd }),
      stderr: transport.stderr,
      maxBufferSize: resolved.maxMessageBytes,
    }),
    close,
  };
}

async function checkDirectory(cwd: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(cwd)).isDirectory();
  } catch {
    throw mcpConfigError('transport.cwd', `${JSON.stringify(cwd)} does not exist`);
  }
  if (!isDirectory) {
    throw mcpConfigError('transport.cwd', `${JSON.stringify(cwd)} is not a directory`);
  }
}
