import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolUpdate } from '../core/tool/context';
import type { McpLogEvent, McpLogLevel } from './capability-types';
import { Deadline, SDK_TIMEOUT } from './deadline';
import { McpCapabilityError, McpTransportError } from './errors';
import { typedError, type ErrorContext } from './map-error';
import type { McpSdk } from './sdk';
import type { McpServerInfo, SessionInit } from './session-types';

/** Something a server capability is needed for, named as in the handshake. */
export type ServerCapability = 'tools' | 'resources' | 'prompts' | 'logging' | 'completions';

/**
 * One connection to an MCP server: the SDK client and its transport, the connection state, the
 * typed-error context and the notifications. The lowest layer of `src/mcp`: listings, resources,
 * prompts and bridged tools are built on it; it knows none of them.
 */
export class McpSession {
  readonly name: string;
  readonly client: Client;
  readonly sdk: McpSdk;
  /** Deadline in ms for listings and other short requests. */
  readonly timeout: number;
  /** Maps SDK failures to typed errors. */
  readonly errors: ErrorContext;
  private readonly init: SessionInit;
  private transport: Transport | undefined;
  private state: 'open' | 'closing' | 'closed' = 'open';
  private peerClosed: string | undefined;
  private overflow = false;
  private closing: Promise<void> | undefined;
  private readonly closer = new AbortController();
  private readonly toolsChangedHooks = new Set<() => void>();
  /** Reporters of the bridged calls in flight (log lines go to a sole call). */
  readonly inflight = new Set<(update: ToolUpdate) => void>();
  /** Progress reporters by the progress token a call sent. */
  private readonly progress = new Map<string, (update: ToolUpdate) => void>();
  private progressCount = 0;

  constructor(init: SessionInit) {
    this.init = init;
    this.name = init.name;
    this.sdk = init.sdk;
    this.client = init.client;
    this.timeout = init.timeout;
    this.client.onerror = (error) => {
      // The SDK's stdio reader refuses a message over maxBufferSize; the child is hostile or broken:
      // end it now rather than wait for the polite shutdown sequence.
      if (!this.overflow && error.message.startsWith('ReadBuffer exceeded maximum size')) {
        this.overflow = true;
        this.killChild();
      }
    };
    this.client.onclose = () => {
      if (this.state === 'open' && this.peerClosed === undefined) {
        this.peerClosed = this.overflow
          ? `a message from the server exceeded maxMessageBytes (${init.maxMessageBytes} bytes); the connection was closed`
          : 'the server closed the connection';
      }
    };
    this.errors = {
      server: this.name,
      sdk: init.sdk,
      failures: init.failures,
      secrets: init.secrets,
      closedReason: () => this.closedReason(),
    };
    this.installNotifications();
  }

  private installNotifications(): void {
    const { sdk, client, name } = this;
    const guarded = <E>(observer: ((event: E) => void) | undefined, event: E) => {
      try {
        observer?.(event);
      } catch {
        // An observer's failure must not disturb the connection.
      }
    };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      for (const hook of this.toolsChangedHooks) hook();
      guarded(this.init.onToolsChanged, { server: name });
      guarded(this.init.onListChanged, { server: name, list: 'tools' as const });
    });
    const sdkProgress = (client as unknown as { _onprogress?: (n: unknown) => void })._onprogress;
    client.setNotificationHandler(sdk.ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      const report = this.progress.get(String(progressToken));
      if (report === undefined) {
        // Not ours: the SDK's own handling (its onprogress callbacks, task progress).
        sdkProgress?.call(client, notification);
        return;
      }
      guarded(report, {
        kind: 'progress',
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      });
    });
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => {
      guarded(this.init.onListChanged, { server: name, list: 'resources' as const });
    });
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () => {
      guarded(this.init.onListChanged, { server: name, list: 'prompts' as const });
    });
    client.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, (notification) => {
      guarded(this.init.onResourceUpdated, { server: name, uri: notification.params.uri });
    });
    client.setNotificationHandler(sdk.LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      const event: McpLogEvent = {
        server: name,
        level,
        data,
        ...(logger !== undefined && { logger }),
      };
      guarded(this.init.onLog, event);
      // Log lines carry no request id: they are attributed to a call only when it is the only one.
      if (this.inflight.size === 1) {
        for (const report of this.inflight) {
          guarded(report, { kind: 'log', level, data, ...(logger !== undefined && { logger }) });
        }
      }
    });
  }

  /**
   * A progress token for one request whose progress goes to `report`; `release` it once the
   * request settled. (The SDK's own `onprogress` drops notifications that arrive in the same read
   * as the answer: it dispatches notifications a microtask late but forgets the handler at once.)
   */
  progressToken(report: (update: ToolUpdate) => void): { token: string; release: () => void } {
    const token = `golem-${++this.progressCount}`;
    this.progress.set(token, report);
    return {
      token,
      release: () => {
        this.progress.delete(token);
      },
    };
  }

  /**
   * Reports a server tool left out of `tools()`: `onToolRejected` (guarded) and a process
   * warning (`McpToolDefinitionWarning`).
   */
  toolRejected(toolName: string, problem: string, message: string): void {
    try {
      this.init.onToolRejected?.({ server: this.name, toolName, problem });
    } catch {
      // An observer's failure must not disturb the client.
    }
    process.emitWarning(`${message}; the tool is left out, the server's other tools stay usable`, {
      type: 'McpToolDefinitionWarning',
      code: 'GOLEM_MCP_TOOL_LEFT_OUT',
    });
  }

  /** Called on every `tools/list_changed` (the tool catalog marks itself stale). */
  onToolsChanged(hook: () => void): void {
    this.toolsChangedHooks.add(hook);
  }

  /** Aborts when `close()` starts: waits of the session's own (task polling) end then. */
  get closeSignal(): AbortSignal {
    return this.closer.signal;
  }

  /** Connects over `transport` (spawning a stdio child) and runs the handshake. */
  async connect(transport: Transport, signal: AbortSignal | undefined): Promise<void> {
    this.transport = transport;
    const deadline = new Deadline(
      signal,
      this.init.timeout,
      `mcp: server "${this.name}" did not complete the handshake within ${this.init.timeout} ms`,
    );
    try {
      await this.client.connect(transport, { signal: deadline.signal, timeout: SDK_TIMEOUT });
    } catch (error) {
      const typed = deadline.settle() ?? typedError(this.errors, 'connect', error);
      await this.close();
      throw typed;
    } finally {
      deadline.clear();
    }
  }

  /** The server's name and version from the handshake. */
  get server(): McpServerInfo {
    const info = this.client.getServerVersion();
    return { name: info?.name ?? '', version: info?.version ?? '' };
  }

  /** The server's instructions from the handshake (untrusted), or undefined. */
  get instructions(): string | undefined {
    return this.client.getInstructions();
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

  /** True once `close()` was called or the server went away. */
  get closed(): boolean {
    return this.state !== 'open' || this.peerClosed !== undefined;
  }

  /** Why calls cannot be made any more, or undefined while the connection is usable. */
  closedReason(): string | undefined {
    if (this.state !== 'open') return 'the client was closed';
    return this.peerClosed;
  }

  /** Throws the typed error for a connection that is gone. */
  ensureOpen(method: string): void {
    const reason = this.closedReason();
    if (reason !== undefined)
      throw new McpTransportError({ server: this.name, method, message: reason });
  }

  /** Throws `McpCapabilityError` when the server did not declare `capability`. */
  requireCapability(capability: ServerCapability, method: string, detail?: 'subscribe'): void {
    const declared = this.client.getServerCapabilities()?.[capability] as
      Record<string, unknown> | undefined;
    if (declared === undefined) throw new McpCapabilityError(this.name, method, capability);
    if (detail !== undefined && declared[detail] !== true) {
      throw new McpCapabilityError(this.name, method, `${capability}.${detail}`);
    }
  }

  /**
   * Runs one short request with the session's deadline (or `timeout`), mapping failures to typed
   * errors. `work` receives the signal to hand the SDK.
   */
  async request<T>(
    method: string,
    work: (signal: AbortSignal) => Promise<T>,
    options: { signal?: AbortSignal | undefined; timeout?: number } = {},
  ): Promise<T> {
    this.ensureOpen(method);
    const ms = options.timeout ?? this.timeout;
    const deadline = new Deadline(
      options.signal,
      ms,
      `mcp: server "${this.name}" did not answer ${method} within ${ms} ms`,
    );
    try {
      return await work(deadline.signal);
    } catch (error) {
      throw deadline.settle() ?? typedError(this.errors, method, error);
    } finally {
      deadline.clear();
    }
  }

  /** Asks the server to send log messages at `level` and above (`logging/setLevel`). */
  async setLogLevel(level: McpLogLevel): Promise<void> {
    this.requireCapability('logging', 'logging/setLevel');
    await this.request('logging/setLevel', (signal) =>
      this.client.setLoggingLevel(level, { signal, timeout: SDK_TIMEOUT }),
    );
  }

  /**
   * Closes the connection: the transport first (every stream aborted, so the SDK schedules no
   * reconnection), then an HTTP session is ended with `DELETE` (best effort, at most 1 s); a stdio
   * child's stdin is closed and the child waited for (then terminated if it lingers). Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closing';
      this.init.onClosing?.();
      this.closer.abort();
      try {
        await this.client.close().catch(() => undefined);
        this.init.onClosed?.();
        if (this.peerClosed === undefined) await this.init.endSession?.().catch(() => undefined);
      } finally {
        this.state = 'closed';
      }
    })();
    return this.closing;
  }
}
