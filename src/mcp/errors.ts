import { GolemError, brandGuard } from '../core/kit/error-base';
import { ConfigError } from '../core/kit/config-error';

/**
 * An option of `connectMcp` or `client.tools()` is invalid: a {@link ConfigError} of component
 * `mcp`; `option` names it.
 */
export function mcpConfigError(option: string, message: string): ConfigError {
  return new ConfigError(`mcp: option \`${option}\` ${message}`, { component: 'mcp', option });
}

/**
 * The optional peer dependency `@modelcontextprotocol/sdk` is not installed: a {@link ConfigError}
 * of component `peers`, reason `missing-peer` (`packages`, `entryPoint`, `command`).
 */
export function mcpSdkMissingError(
  packageName: string,
  options?: { cause?: unknown },
): ConfigError {
  const command = `npm install ${packageName}`;
  return new ConfigError(
    `mcp: the package ${packageName} is not installed; it is an optional peer dependency of golem: run \`${command}\``,
    {
      component: 'peers',
      reason: 'missing-peer',
      entryPoint: 'golem/mcp',
      packages: Object.freeze([packageName]),
      command,
      cause: options?.cause,
    },
  );
}

/**
 * The MCP server answered a request with a JSON-RPC error, or with a message that breaks the
 * protocol (`code` is then undefined). An environment fact, never a correctable rejection.
 */
export class McpProtocolError extends GolemError {
  /** The client's name (`connectMcp({ name })`). */
  readonly server: string;
  /** The request that failed, e.g. `tools/call`. */
  readonly method: string;
  /** The JSON-RPC error code, e.g. -32603; undefined for a malformed answer. */
  readonly code: number | undefined;
  /** The error's `data`, as sent by the server (untrusted). */
  readonly data: unknown;

  constructor(
    init: { server: string; method: string; code?: number; data?: unknown; message: string },
    options?: { cause?: unknown },
  ) {
    super(
      'McpProtocolError',
      `mcp: server "${init.server}" failed ${init.method}${init.code === undefined ? '' : ` with code ${init.code}`}: ${init.message}`,
      options,
    );
    this.server = init.server;
    this.method = init.method;
    this.code = init.code;
    this.data = init.data;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpProtocolError>('McpProtocolError');
}

/**
 * The connection to the MCP server failed: the process could not start or exited, the HTTP
 * endpoint answered a non-2xx status (`status`), a response stream ended or broke before the
 * answer, a message exceeded `maxMessageBytes`, or the client was closed.
 */
export class McpTransportError extends GolemError {
  readonly server: string;
  /** The request in flight, e.g. `tools/call`, or `connect`. */
  readonly method: string;
  /** The HTTP status, when the endpoint answered one outside 2xx. */
  readonly status: number | undefined;

  constructor(
    init: { server: string; method: string; message: string; status?: number },
    options?: { cause?: unknown },
  ) {
    super(
      'McpTransportError',
      `mcp: server "${init.server}", ${init.method}: ${init.message}`,
      options,
    );
    this.server = init.server;
    this.method = init.method;
    this.status = init.status;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpTransportError>('McpTransportError');
}

/**
 * The HTTP endpoint answered a redirect that is not followed: to another origin (scheme, host or
 * port), with a 301, 302 or 303 (they would turn the POST into a GET and drop the message), to a
 * URL carrying credentials, or more than `MAX_REDIRECTS` times in a row. Nothing (no header, no
 * message) was sent to the target. Not retryable: the same request is redirected the same way.
 */
export class McpRedirectError extends GolemError {
  readonly server: string;
  /** The request that was redirected, e.g. `initialize`, `tools/call`, `event stream`. */
  readonly method: string;
  /** The redirect status, e.g. 307. */
  readonly status: number;
  /** The `Location` target, without credentials, query or fragment ('' when unparsable). */
  readonly location: string;
  /** Always false: trying again meets the same redirect. */
  readonly retryable = false;

  constructor(init: {
    server: string;
    method: string;
    status: number;
    location: string;
    reason: string;
  }) {
    super(
      'McpRedirectError',
      `mcp: server "${init.server}", ${init.method}: the endpoint redirected (HTTP ${init.status}) ${init.reason}; if you trust the new address, set transport.url to it`,
    );
    this.server = init.server;
    this.method = init.method;
    this.status = init.status;
    this.location = init.location;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpRedirectError>('McpRedirectError');
}

/**
 * The server did not declare the capability a request needs (`resources`, `prompts`,
 * `resources.subscribe`, `logging`…) in the handshake, so the request is not sent.
 */
export class McpCapabilityError extends GolemError {
  readonly server: string;
  /** The request that was not sent, e.g. `resources/subscribe`. */
  readonly method: string;
  /** The missing capability, e.g. `resources.subscribe`. */
  readonly capability: string;

  constructor(server: string, method: string, capability: string) {
    super(
      'McpCapabilityError',
      `mcp: server "${server}" does not offer ${capability} (not declared in the handshake), so ${method} cannot be used with it`,
    );
    this.server = server;
    this.method = method;
    this.capability = capability;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpCapabilityError>('McpCapabilityError');
}
