import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '../tool/tool';
import { bridgeTool } from './bridge';
import { Deadline, SDK_TIMEOUT } from './deadline';
import { diffDefinitions, type McpToolChange, type McpToolDefinition } from './definitions';
import { McpConfigError, McpTransportError } from './errors';
import type { FailureRegistry } from './failures';
import { listServerTools } from './listing';
import { typedError, type ErrorContext } from './map-error';
import { resolveToolsOptions, type McpToolsOptions, type McpToolsChangedEvent } from './options';
import type { McpSdk } from './sdk';
import { McpToolsChangedError } from './tool-errors';

/** The server's self-description from the handshake (untrusted). */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/** What a client is built from. Internal. */
export interface McpClientInit {
  sdk: McpSdk;
  name: string;
  timeout: number;
  maxMessageBytes: number;
  failures: FailureRegistry;
  /** Values (header values, query values) never to show in errors. */
  secrets: readonly string[];
  onToolsChanged: ((event: McpToolsChangedEvent) => void) | undefined;
}

/**
 * A connected MCP server. Build one with {@link connectMcp}; turn its tools into agent tools with
 * {@link McpClient.tools}; {@link McpClient.close} it when done (a stdio child exits).
 *
 * Tool definitions are pinned: the first listing is approved implicitly; later listings that add
 * tools or change a description or input schema make `tools()` throw `McpToolsChangedError` until
 * the application calls {@link McpClient.approve}, and a bridged tool whose definition changed is
 * not called (`McpToolChangedError`).
 */
export class McpClient {
  /** The label used in errors (`connectMcp({ name })`, default `mcp`). */
  readonly name: string;
  private readonly init: McpClientInit;
  private readonly sdkClient: Client;
  private transport: Transport | undefined;
  private state: 'open' | 'closing' | 'closed' = 'open';
  private peerClosed: string | undefined;
  private overflow = false;
  private latest: ReadonlyMap<string, McpToolDefinition> | undefined;
  private approvedDefs: ReadonlyMap<string, McpToolDefinition> | undefined;
  private staleFlag = false;
  private refreshing: Promise<McpToolChange[]> | undefined;
  private closing: Promise<void> | undefined;
  /** Maps SDK failures to typed errors. Internal. */
  readonly errors: ErrorContext;

  /** @internal Use {@link connectMcp}. */
  constructor(init: McpClientInit) {
    this.init = init;
    this.name = init.name;
    this.sdkClient = new init.sdk.Client({ name: 'golem', version: '0' }, { capabilities: {} });
    this.sdkClient.onerror = (error) => {
      // The SDK's stdio reader refuses a message over maxBufferSize; the child is hostile or broken:
      // end it now rather than wait for the polite shutdown sequence.
      if (!this.overflow && error.message.startsWith('ReadBuffer exceeded maximum size')) {
        this.overflow = true;
        this.killChild();
      }
    };
    this.sdkClient.onclose = () => {
      if (this.state === 'open' && this.peerClosed === undefined) {
        this.peerClosed = this.overflow
          ? `a message from the server exceeded maxMessageBytes (${init.maxMessageBytes} bytes); the connection was closed`
          : 'the server closed the connection';
      }
    };
    this.sdkClient.setNotificationHandler(init.sdk.ToolListChangedNotificationSchema, () => {
      this.staleFlag = true;
      try {
        init.onToolsChanged?.({ server: this.name });
      } catch {
        // An observer's failure must not disturb the connection.
      }
    });
    this.errors = {
      server: this.name,
      sdk: init.sdk,
      failures: init.failures,
      secrets: init.secrets,
      closedReason: () => this.closedReason(),
    };
  }

  /** Connects over `transport` (spawning a stdio child) and runs the handshake. @internal */
  async connect(transport: Transport, signal: AbortSignal | undefined): Promise<void> {
    this.transport = transport;
    const deadline = new Deadline(
      signal,
      this.init.timeout,
      `mcp: server "${this.name}" did not complete the handshake within ${this.init.timeout} ms`,
    );
    try {
      await this.sdkClient.connect(transport, { signal: deadline.signal, timeout: SDK_TIMEOUT });
    } catch (error) {
      const typed = deadline.settle() ?? typedError(this.errors, 'connect', error);
      await this.close();
      throw typed;
    } finally {
      deadline.clear();
    }
  }

  /** The SDK client, for the bridge. @internal */
  get sdk(): Client {
    return this.sdkClient;
  }

  /** The server's name and version from the handshake. */
  get server(): McpServerInfo {
    const info = this.sdkClient.getServerVersion();
    return { name: info?.name ?? '', version: info?.version ?? '' };
  }

  /** The process id of a stdio server (undefined for HTTP or once it exited). */
  get pid(): number | undefined {
    const pid = (this.transport as { pid?: unknown } | undefined)?.pid;
    return typeof pid === 'number' ? pid : undefined;
  }

  private killChild(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** True once the server announced a tool-list change that has not been fetched yet. */
  get stale(): boolean {
    return this.staleFlag;
  }

  /** True once `close()` was called or the server went away. */
  get closed(): boolean {
    return this.state !== 'open' || this.peerClosed !== undefined;
  }

  /** Why calls cannot be made any more, or undefined while the connection is usable. @internal */
  closedReason(): string | undefined {
    if (this.state !== 'open') return 'the client was closed';
    return this.peerClosed;
  }

  /** Throws the typed error for a connection that is gone. @internal */
  ensureOpen(method: string): void {
    const reason = this.closedReason();
    if (reason !== undefined)
      throw new McpTransportError({ server: this.name, method, message: reason });
  }

  /**
   * Lists the server's tools afresh (following pagination) and returns how they differ from the
   * approved definitions. The first listing becomes the approved set.
   */
  async refresh(): Promise<McpToolChange[]> {
    this.ensureOpen('tools/list');
    this.refreshing ??= (async () => {
      this.staleFlag = false;
      try {
        const current = await listServerTools(this, this.init.timeout);
        this.latest = current;
        this.approvedDefs ??= current;
        return diffDefinitions(this.approvedDefs, current);
      } catch (error) {
        this.staleFlag = true;
        throw typedError(this.errors, 'tools/list', error);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** The current definitions, listing them first if none are known or the list is stale. */
  async definitions(): Promise<McpToolDefinition[]> {
    return [...(await this.current()).values()];
  }

  /** The latest definitions (refreshed when stale). @internal */
  async current(): Promise<ReadonlyMap<string, McpToolDefinition>> {
    if (this.latest === undefined || this.staleFlag) await this.refresh();
    return this.latest ?? new Map<string, McpToolDefinition>();
  }

  /** Accepts the latest listing as the approved definitions (after reviewing the changes). */
  approve(): void {
    if (this.latest !== undefined) this.approvedDefs = this.latest;
  }

  /**
   * The server's tools as agent tools (see {@link McpToolsOptions}). Throws
   * `McpToolsChangedError` when a selected tool was added or changed since approval, and
   * `McpToolDefinitionError` for a tool that cannot be bridged.
   */
  async tools(options?: McpToolsOptions): Promise<Tool[]> {
    const resolved = resolveToolsOptions(options);
    this.ensureOpen('tools/list');
    const current = await this.current();
    for (const name of resolved.include ?? []) {
      if (!current.has(name)) {
        throw new McpConfigError(
          'include',
          `names ${JSON.stringify(name)}, which server "${this.name}" does not offer (it offers: ${[...current.keys()].join(', ')})`,
        );
      }
    }
    const selected = [...current.values()].filter(
      (d) => (resolved.include?.has(d.name) ?? true) && !resolved.exclude.has(d.name),
    );
    const names = new Set(selected.map((d) => d.name));
    const changes = diffDefinitions(this.approvedDefs ?? current, current).filter(
      (c) => c.kind !== 'removed' && names.has(c.name),
    );
    if (changes.length > 0) throw new McpToolsChangedError(this.name, changes);
    return selected.map((definition) => bridgeTool(this, definition, resolved));
  }

  /**
   * Closes the connection: an HTTP session is ended (best effort), a stdio child's stdin is
   * closed and the child is waited for (then terminated if it lingers). Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closing';
      try {
        const transport = this.transport as { terminateSession?: () => Promise<void> } | undefined;
        if (typeof transport?.terminateSession === 'function' && this.peerClosed === undefined) {
          await boundedQuietly(transport.terminateSession(), 1000);
        }
        await this.sdkClient.close().catch(() => undefined);
      } finally {
        this.state = 'closed';
      }
    })();
    return this.closing;
  }
}

/** Waits for `work` at most `ms`, ignoring its failure. */
async function boundedQuietly(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
