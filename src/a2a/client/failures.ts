import { describeTransportFailure, redact } from '../../core/kit/redact';
import { A2AProtocolError } from '../a2a-error';
import { A2A_ERROR_CODES } from '../wire-types';

/** Untrusted peer text (an error message, a status text) made safe for one error message. */
export function peerText(value: unknown, max = 500): string {
  if (typeof value !== 'string') return '';
  // eslint-disable-next-line no-control-regex -- control characters would break the message
  const clean = value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** What went wrong with a request to `what` (`SendMessage`, `the agent card`), as an error. */
export function wireFailure(
  what: string,
  problem: string,
  secrets: readonly string[],
): A2AProtocolError {
  return new A2AProtocolError(
    redact(`A2A: ${what}: ${problem}`, secrets),
    A2A_ERROR_CODES.invalidAgentResponse,
  );
}

/** A network failure of a request to `what`, its text redacted. */
export function transportFailure(
  what: string,
  cause: unknown,
  secrets: readonly string[],
): A2AProtocolError {
  return new A2AProtocolError(
    `A2A: ${what}: the request failed: ${describeTransportFailure(cause, secrets)}`,
    A2A_ERROR_CODES.internalError,
  );
}

/** A response that was not 2xx, with a short redacted excerpt of its body. */
export function statusFailure(
  what: string,
  status: number,
  body: string,
  secrets: readonly string[],
): A2AProtocolError {
  const excerpt = peerText(body, 200);
  return wireFailure(
    what,
    `the server answered HTTP ${status}${excerpt === '' ? '' : `: ${excerpt}`}`,
    secrets,
  );
}

/** A peer's malformed payload: the parser's message, prefixed with what was being read. */
export function malformed(what: string, error: unknown, secrets: readonly string[]): Error {
  if (!(error instanceof A2AProtocolError)) return error as Error;
  return wireFailure(what, `malformed response (${error.message.replace(/^A2A: /, '')})`, secrets);
}

/** The peer's JSON-RPC error as an {@link A2AProtocolError} keeping its code and data. */
export function peerError(
  what: string,
  error: { readonly code: number; readonly message: string; readonly data?: unknown },
  secrets: readonly string[],
): A2AProtocolError {
  const text = peerText(error.message);
  return new A2AProtocolError(
    redact(
      `A2A: ${what}: the agent answered error ${error.code}${text === '' ? '' : `: ${text}`}`,
      secrets,
    ),
    error.code,
    error.data,
  );
}
