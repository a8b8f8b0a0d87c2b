import { isRecord } from '../model/guards';
import { showValue } from '../model/error-base';
import { MAX_TIMEOUT_MS, timeoutProblem } from '../model/timeouts';
import { McpConfigError } from './errors';

/** Launch an MCP server as a child process and talk JSON-RPC over its stdin/stdout. */
export interface McpStdioTransport {
  kind: 'stdio';
  /** The executable (no shell is involved). */
  command: string;
  args?: readonly string[];
  /** Variables set for the child on top of the allow-listed ones (see `inheritEnv`). */
  env?: Readonly<Record<string, string>>;
  /** Extra variable names the child may inherit from this process, beyond the default allow-list. */
  inheritEnv?: readonly string[];
  /** The child's working directory; default: this process's. */
  cwd?: string;
  /** What happens to the child's stderr; default `'ignore'`. */
  stderr?: 'ignore' | 'inherit';
}

/** Talk to an MCP server over Streamable HTTP. */
export interface McpHttpTransport {
  kind: 'http';
  /** The MCP endpoint, `http:` or `https:`. */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Readonly<Record<string, string>>;
}

/** How to reach the server. */
export type McpTransportConfig = McpStdioTransport | McpHttpTransport;

/** A notice that the server announced a change of its tool list. */
export interface McpToolsChangedEvent {
  /** The client's name. */
  server: string;
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
}

/** Defaults. */
export const DEFAULT_CONNECT_TIMEOUT = 30_000;
export const DEFAULT_CALL_TIMEOUT = 60_000;
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PREFIX = /^[A-Za-z0-9_-]{1,32}$/;

/** Validated connect options. Internal. */
export interface ResolvedConnectOptions {
  transport: ResolvedTransport;
  name: string;
  timeout: number;
  maxMessageBytes: number;
}

function fail(option: string, message: string): never {
  throw new McpConfigError(option, message);
}

/** Validates {@link ConnectMcpOptions}; throws {@link McpConfigError} naming the option. */
export function resolveConnectOptions(options: unknown): ResolvedConnectOptions {
  if (!isRecord(options)) fail('transport', 'is required: pass { transport: { kind: ... } }');
  const raw = options as Partial<ConnectMcpOptions>;
  const name = raw.name ?? 'mcp';
  if (typeof name !== 'string' || name === '' || name.length > 64) {
    fail('name', `must be a string of 1–64 characters, got ${showValue(name)}`);
  }
  if (raw.onToolsChanged !== undefined && typeof raw.onToolsChanged !== 'function') {
    fail('onToolsChanged', 'must be a function');
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
  };
}

/** A transport after validation; an HTTP URL is parsed. Internal. */
export type ResolvedTransport =
  Required<McpStdioTransport> | (Required<McpHttpTransport> & { url: URL });

function resolveTransport(transport: unknown): ResolvedTransport {
  if (!isRecord(transport)) fail('transport', 'is required: pass { kind: "stdio" | "http", ... }');
  if (transport.kind === 'stdio') return resolveStdio(transport);
  if (transport.kind === 'http') return resolveHttp(transport);
  return fail('transport.kind', `must be "stdio" or "http", got ${showValue(transport.kind)}`);
}

function stringList(
  option: string,
  value: unknown,
  check: (item: string) => boolean,
  what: string,
): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(option, `must be an array of ${what}s`);
  return (value as unknown[]).map((item, i) => {
    if (typeof item !== 'string' || !check(item))
      fail(`${option}[${i}]`, `must be ${what}, got ${showValue(item)}`);
    return item;
  });
}

function resolveStdio(t: Record<string, unknown>): Required<McpStdioTransport> {
  const { command, env = {}, cwd = '', stderr = 'ignore' } = t;
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    fail('transport.command', `must name an executable, got ${showValue(command)}`);
  }
  const args = stringList(
    'transport.args',
    t.args,
    (a) => !a.includes('\0'),
    'a string without NUL',
  );
  const inheritEnv = stringList(
    'transport.inheritEnv',
    t.inheritEnv,
    (k) => ENV_NAME.test(k),
    'a variable name',
  );
  if (!isRecord(env)) fail('transport.env', 'must be an object of NAME: value strings');
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_NAME.test(key)) {
      fail(
        'transport.env',
        `has an invalid variable name ${JSON.stringify(key)} (letters, digits, "_"; no "=")`,
      );
    }
    if (typeof value !== 'string' || value.includes('\0')) {
      fail(`transport.env.${key}`, `must be a string without NUL, got ${showValue(value)}`);
    }
    childEnv[key] = value;
  }
  if (typeof cwd !== 'string' || cwd.includes('\0')) {
    fail('transport.cwd', `must be a directory path, got ${showValue(cwd)}`);
  }
  if (stderr !== 'ignore' && stderr !== 'inherit') {
    fail('transport.stderr', `must be "ignore" or "inherit", got ${showValue(stderr)}`);
  }
  return { kind: 'stdio', command, args, env: childEnv, inheritEnv, cwd, stderr };
}

function resolveHttp(t: Record<string, unknown>): Required<McpHttpTransport> & { url: URL } {
  const { url, headers = {} } = t;
  if (typeof url !== 'string' && !(url instanceof URL)) {
    return fail('transport.url', `is required: an http: or https: URL, got ${showValue(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const shown = String(url).replace(/\?.*$/s, '?[redacted]');
    return fail('transport.url', `is not a valid URL: ${JSON.stringify(shown)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    fail('transport.url', `must use http: or https:, got ${JSON.stringify(parsed.protocol)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    fail('transport.url', 'must not contain credentials; send them in `headers`');
  }
  if (!isRecord(headers)) fail('transport.headers', 'must be an object of header: value strings');
  const copied: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value !== 'string')
      fail(`transport.headers.${key}`, `must be a string, got ${showValue(value)}`);
    checkHeader(key, value);
    copied[key] = value;
  }
  return { kind: 'http', url: parsed, headers: copied };
}

/** Header values are secrets: a bad one is reported by name only, never echoed. */
function checkHeader(name: string, value: string): void {
  try {
    new Headers([[name, '']]);
  } catch {
    fail('transport.headers', `has an invalid header name ${JSON.stringify(name)}`);
  }
  try {
    new Headers([[name, value]]);
  } catch {
    fail(
      'transport.headers',
      `has an invalid value for ${JSON.stringify(name)} (a line break, NUL or a character above U+00FF); the value is not shown, as it may be a secret`,
    );
  }
}

/** A timeout option: finite ms ≥ 0; 0 means none (the largest timer Node honours). */
export function resolveTimeout(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const problem = timeoutProblem(value);
  if (problem !== undefined) fail(option, `${problem}, got ${showValue(value)}`);
  return value === 0 ? MAX_TIMEOUT_MS : (value as number);
}

/** A byte cap: a non-negative integer; 0 means the default. */
export function resolveBytes(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(
      option,
      `must be a non-negative integer number of bytes (0 = default), got ${showValue(value)}`,
    );
  }
  return value === 0 ? fallback : value;
}

/** Validated tools options. Internal. */
export interface ResolvedToolsOptions {
  prefix: string | undefined;
  include: ReadonlySet<string> | undefined;
  exclude: ReadonlySet<string>;
  maxResultBytes: number;
  timeout: number;
}

/** Validates {@link McpToolsOptions}; throws {@link McpConfigError} naming the option. */
export function resolveToolsOptions(options: unknown): ResolvedToolsOptions {
  if (options !== undefined && !isRecord(options)) fail('options', 'must be an object');
  const raw = (options ?? {}) as McpToolsOptions;
  if (raw.prefix !== undefined && (typeof raw.prefix !== 'string' || !PREFIX.test(raw.prefix))) {
    fail('prefix', `must be 1–32 letters, digits, "_" or "-", got ${showValue(raw.prefix)}`);
  }
  return {
    prefix: raw.prefix,
    include: raw.include === undefined ? undefined : nameSet('include', raw.include),
    exclude: nameSet('exclude', raw.exclude ?? []),
    maxResultBytes: resolveBytes('maxResultBytes', raw.maxResultBytes, DEFAULT_MAX_RESULT_BYTES),
    timeout: resolveTimeout('timeout', raw.timeout, DEFAULT_CALL_TIMEOUT),
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
