import { GolemError, describeError } from '../core/kit/error-base';
import { McpProtocolError, McpTransportError } from './errors';
import { McpAuthorizationRequiredError } from './feature-errors';
import type { FailureRegistry } from './failures';
import type { McpSdk } from './sdk';
import { redactError } from './secrets';

/** JSON-RPC code the SDK uses when the connection closes with requests pending. */
const CONNECTION_CLOSED = -32000;

/** What the mapper needs to know about the connection. Internal. */
export interface ErrorContext {
  server: string;
  sdk: McpSdk;
  failures: FailureRegistry;
  /** Values to redact from the error, its data and its cause chain. */
  secrets: readonly string[];
  /** Why the connection is gone, when it is (closed by us or by the server); else undefined. */
  closedReason(): string | undefined;
}

/**
 * Turns whatever the SDK threw for `method` into a typed error (Golem errors pass through): a JSON-RPC error answer →
 * `McpProtocolError` (with the server's code and data); a closed connection, an HTTP status,
 * a failed spawn or network error, or an error the HTTP guard injected → {@link McpTransportError};
 * a malformed answer → `McpProtocolError` without a code. The connection's secrets (header
 * and query values) are removed from the result and its whole cause chain.
 */
export function typedError(context: ErrorContext, method: string, error: unknown): Error {
  return redactError(classify(context, method, error), context.secrets);
}

function classify(context: ErrorContext, method: string, error: unknown): Error {
  if (GolemError.isGolemError(error)) return error;
  const { server, sdk } = context;
  if (error instanceof sdk.McpError) {
    const injected = context.failures.take(error.data);
    if (injected !== undefined) return injected;
    const closed = context.closedReason();
    if (error.code === CONNECTION_CLOSED && closed !== undefined) {
      return new McpTransportError({ server, method, message: closed }, { cause: error });
    }
    return new McpProtocolError(
      { server, method, code: error.code, data: error.data, message: stripPrefix(error) },
      { cause: error },
    );
  }
  if (error instanceof sdk.UnauthorizedError) {
    return new McpAuthorizationRequiredError(server, { cause: error });
  }
  if (error instanceof sdk.StreamableHTTPError) {
    const status = typeof error.code === 'number' && error.code > 0 ? error.code : undefined;
    return new McpTransportError(
      {
        server,
        method,
        message:
          status === undefined
            ? error.message.replace(/^Streamable HTTP error: /, '')
            : `the endpoint answered HTTP ${status}`,
        ...(status !== undefined && { status }),
      },
      { cause: error },
    );
  }
  if ((error as { name?: unknown } | null)?.name === 'ZodError') {
    return new McpProtocolError(
      { server, method, message: 'the answer does not match the MCP schema' },
      { cause: error },
    );
  }
  return new McpTransportError({ server, method, message: messageOf(error) }, { cause: error });
}

/** The message without the SDK's `MCP error <code>: ` prefixes (SDK servers add one as well). */
function stripPrefix(error: Error & { code: number }): string {
  const prefix = `MCP error ${error.code}: `;
  let message = error.message;
  while (message.startsWith(prefix)) message = message.slice(prefix.length);
  return message;
}

/** The message of anything thrown (errors from another realm included), with a fetch failure's cause. */
function messageOf(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: unknown };
  if (typeof message !== 'string') return describeError(error);
  const detail = (cause as { message?: unknown } | null | undefined)?.message;
  return message === 'fetch failed' && typeof detail === 'string' && detail !== ''
    ? `fetch failed: ${detail}`
    : message;
}
