import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * A tool that needs task-based execution could not be run. `side` says who refused: `'local'`
 * (this client or the installed SDK cannot run it — e.g. `taskTools: 'exclude'` or an SDK without
 * task support) or `'server'` (the server failed, cancelled or refused the task).
 */
export class McpTaskError extends GolemError {
  readonly server: string;
  readonly toolName: string;
  readonly side: 'local' | 'server';
  /** The task id, once the server created the task. */
  readonly taskId: string | undefined;

  constructor(
    init: {
      server: string;
      toolName: string;
      side: 'local' | 'server';
      taskId?: string;
      message: string;
    },
    options?: { cause?: unknown },
  ) {
    super(
      'McpTaskError',
      `mcp: server "${init.server}", task tool ${JSON.stringify(init.toolName)} (${init.side === 'local' ? 'refused by this client' : 'refused or failed by the server'}): ${init.message}`,
      options,
    );
    this.server = init.server;
    this.toolName = init.toolName;
    this.side = init.side;
    this.taskId = init.taskId;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpTaskError>('McpTaskError');
}

/**
 * The HTTP server requires OAuth authorization and no usable token is stored. The provider's
 * `redirectToAuthorization` received the authorization URL (PKCE included): send the user there,
 * receive the code at the redirect URL, call `completeMcpAuthorization(options, code)`, then
 * connect again.
 */
export class McpAuthorizationRequiredError extends GolemError {
  readonly server: string;

  constructor(server: string, options?: { cause?: unknown }) {
    super(
      'McpAuthorizationRequiredError',
      `mcp: server "${server}" requires OAuth authorization: send the user to the authorization URL the auth provider received, then call completeMcpAuthorization(options, code) and connect again`,
      options,
    );
    this.server = server;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpAuthorizationRequiredError>('McpAuthorizationRequiredError');
}

/** A resource's contents exceed the `maxBytes` of `readResource` (nothing is returned). */
export class McpResourceTooLargeError extends GolemError {
  readonly server: string;
  readonly uri: string;
  readonly maxBytes: number;

  constructor(server: string, uri: string, maxBytes: number) {
    super(
      'McpResourceTooLargeError',
      `mcp: server "${server}", resource ${JSON.stringify(uri.slice(0, 200))} is larger than maxBytes (${maxBytes} bytes); raise readResource({ maxBytes }) if you need it whole`,
    );
    this.server = server;
    this.uri = uri;
    this.maxBytes = maxBytes;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpResourceTooLargeError>('McpResourceTooLargeError');
}
