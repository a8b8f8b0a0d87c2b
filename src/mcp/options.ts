import { isRecord } from '../core/kit/guards';
import { showValue } from '../core/kit/error-base';
import type {
  McpElicitationOptions,
  McpListChangedEvent,
  McpLogEvent,
  McpLogLevel,
  McpResourceUpdatedEvent,
  McpRoot,
  McpSamplingOptions,
} from './capability-types';
import { resolveCapabilities, type ResolvedCapabilities } from './capability-options';
import { fail, optionalFunction, resolveBytes, resolveTimeout } from './option-checks';
import {
  resolveTransport,
  type McpTransportConfig,
  type ResolvedTransport,
} from './transport-options';

/** A notice that the server announced a change of its tool list. */
export interface McpToolsChangedEvent {
  /** The client's name. */
  server: string;
}

/** A server tool that `tools()` left out because its definition cannot be used. */
export interface McpToolRejectedEvent {
  /** The client's name. */
  server: string;
  /** The server's name for the tool (`#n` for the n-th listed tool without a name). */
  toolName: string;
  /** Why it was left out. */
  problem: string;
}

/** Options of {@link connectMcp}. */
export interface ConnectMcpOptions {
  transport: McpTransportConfig;
  /** Label used in errors and tool origins; default `mcp`. */
  name?: string;
  /** Deadline in ms for connecting and for each listing request; default 30 000; 0 = none. */
  timeout?: number;
  /** Aborts connecting. */
  signal?: AbortSignal;
  /**
   * Largest message accepted from the server, in bytes; default 10 MiB. Over stdio a larger
   * message closes the connection; over HTTP it fails the request.
   */
  maxMessageBytes?: number;
  /** Called when the server sends `notifications/tools/list_changed`. */
  onToolsChanged?: (event: McpToolsChangedEvent) => void;
  /**
   * Called once per listing for each server tool `tools()` leaves out because its definition
   * cannot be used (the other tools stay usable); a process warning says the same.
   */
  onToolRejected?: (event: McpToolRejectedEvent) => void;
  /** Called when the server's tools, resources or prompts list changed. */
  onListChanged?: (event: McpListChangedEvent) => void;
  /** Called when a subscribed resource changed (`notifications/resources/updated`). */
  onResourceUpdated?: (event: McpResourceUpdatedEvent) => void;
  /** Called for each log message of the server (`notifications/message`). */
  onLog?: (event: McpLogEvent) => void;
  /** Ask the server (when it offers logging) to send log messages at this level and above. */
  logLevel?: McpLogLevel;
  /** Client capability `sampling`: serve the server's `sampling/createMessage` with a model. */
  sampling?: McpSamplingOptions;
  /** Client capability `elicitation`: answer the server's questions to the user. */
  elicitation?: McpElicitationOptions;
  /** Client capability `roots`: the roots offered to the server (change them with `setRoots`). */
  roots?: readonly McpRoot[];
}

/** Options of `client.tools()` / {@link mcpTools}. */
export interface McpToolsOptions {
  /** Namespace: bridged names become `<prefix>__<server tool name>`. */
  prefix?: string;
  /** Server tool names to bridge (default: all). */
  include?: readonly string[];
  /** Server tool names to leave out. */
  exclude?: readonly string[];
  /** Cap on the text a call returns to the model, in bytes; default 1 MiB; 0 = default. */
  maxResultBytes?: number;
  /** Deadline in ms for each call; default 60 000; 0 = none. */
  timeout?: number;
  /**
   * Tools that require task-based execution (`execution.taskSupport: "required"`): `'call'`
   * (default) runs them through MCP tasks when the server declares task support for tools;
   * `'exclude'` leaves them out. A task tool that cannot be run is never offered to the model.
   */
  taskTools?: 'call' | 'exclude';
}

/** Defaults. */
export const DEFAULT_CONNECT_TIMEOUT = 30_000;
/** Default deadline of a bridged call, in ms. */
export const DEFAULT_CALL_TIMEOUT = 60_000;
/** Default cap on one message from the server. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Default cap on the text a bridged call returns. */
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

const PREFIX = /^[A-Za-z0-9_-]{1,32}$/;

/** Validated connect options. Internal. */
export interface ResolvedConnectOptions {
  transport: ResolvedTransport;
  name: string;
  timeout: number;
  maxMessageBytes: number;
  capabilities: ResolvedCapabilities;
}

/** Validates {@link ConnectMcpOptions}; throws an `mcp` `ConfigError` naming the option. */
export function resolveConnectOptions(options: unknown): ResolvedConnectOptions {
  if (!isRecord(options)) fail('transport', 'is required: pass { transport: { kind: ... } }');
  const raw = options as Partial<ConnectMcpOptions>;
  const name = raw.name ?? 'mcp';
  if (typeof name !== 'string' || name === '' || name.length > 64) {
    fail('name', `must be a string of 1–64 characters, got ${showValue(name)}`);
  }
  for (const hook of [
    'onToolsChanged',
    'onToolRejected',
    'onListChanged',
    'onResourceUpdated',
    'onLog',
  ] as const) {
    optionalFunction(hook, raw[hook]);
  }
  if (raw.signal !== undefined && !(raw.signal instanceof AbortSignal)) {
    fail('signal', 'must be an AbortSignal');
  }
  return {
    transport: resolveTransport(raw.transport),
    name,
    timeout: resolveTimeout('timeout', raw.timeout, DEFAULT_CONNECT_TIMEOUT),
    maxMessageBytes: resolveBytes(
      'maxMessageBytes',
      raw.maxMessageBytes,
      DEFAULT_MAX_MESSAGE_BYTES,
    ),
    capabilities: resolveCapabilities(raw),
  };
}

/** Validated tools options. Internal. */
export interface ResolvedToolsOptions {
  prefix: string | undefined;
  include: ReadonlySet<string> | undefined;
  exclude: ReadonlySet<string>;
  maxResultBytes: number;
  timeout: number;
  taskTools: 'call' | 'exclude';
}

/** Validates {@link McpToolsOptions}; throws an `mcp` `ConfigError` naming the option. */
export function resolveToolsOptions(options: unknown): ResolvedToolsOptions {
  if (options !== undefined && !isRecord(options)) fail('options', 'must be an object');
  const raw = (options ?? {}) as McpToolsOptions;
  if (raw.prefix !== undefined && (typeof raw.prefix !== 'string' || !PREFIX.test(raw.prefix))) {
    fail('prefix', `must be 1–32 letters, digits, "_" or "-", got ${showValue(raw.prefix)}`);
  }
  const taskTools: unknown = raw.taskTools ?? 'call';
  if (taskTools !== 'call' && taskTools !== 'exclude') {
    fail('taskTools', `must be "call" or "exclude", got ${showValue(taskTools)}`);
  }
  return {
    prefix: raw.prefix,
    include: raw.include === undefined ? undefined : nameSet('include', raw.include),
    exclude: nameSet('exclude', raw.exclude ?? []),
    maxResultBytes: resolveBytes('maxResultBytes', raw.maxResultBytes, DEFAULT_MAX_RESULT_BYTES),
    timeout: resolveTimeout('timeout', raw.timeout, DEFAULT_CALL_TIMEOUT),
    taskTools,
  };
}

function nameSet(option: string, names: unknown): ReadonlySet<string> {
  if (!Array.isArray(names)) fail(option, 'must be an array of server tool names');
  names.forEach((name: unknown, i) => {
    if (typeof name !== 'string' || name === '') {
      fail(`${option}[${i}]`, `must be a tool name, got ${showValue(name)}`);
    }
  });
  return new Set(names as string[]);
}

export type { McpTransportConfig, McpStdioTransport, McpHttpTransport } from './transport-options';
export { resolveBytes, resolveTimeout } from './option-checks';
