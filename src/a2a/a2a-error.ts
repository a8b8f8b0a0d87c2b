import { GolemError, hasKind } from '../core/index';
import { A2A_ERROR_CODES } from './wire-types';

/**
 * What an A2A failure carries: the JSON-RPC `code` (the peer's, or the one this module chose for
 * a malformed or refused exchange) and the error's `data` (untrusted when it came from a peer).
 * Every error `golem/a2a` throws about the wire is a `GolemError` of kind `A2AProtocolError`
 * with these fields; {@link isA2AError} narrows to it.
 */
export interface A2AFailure {
  /** The error's kind. */
  readonly kind: 'A2AProtocolError';
  /** The JSON-RPC error code, e.g. -32001 (task not found). */
  readonly code: number;
  /** The JSON-RPC error data, if any. */
  readonly data: unknown;
}

/**
 * A wire failure: a malformed request or response, or a JSON-RPC error of the peer. Its class is
 * internal to `src/a2a`; callers check it with {@link isA2AError} (or `hasKind(error,
 * 'A2AProtocolError')`). `code` is the JSON-RPC code, `data` the error data.
 */
export class A2AProtocolError extends GolemError implements A2AFailure {
  declare readonly kind: 'A2AProtocolError';
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The JSON-RPC error data, if any. */
  readonly data: unknown;

  /** Builds the error; `code` defaults to invalid-params. */
  constructor(message: string, code: number = A2A_ERROR_CODES.invalidParams, data?: unknown) {
    super('A2AProtocolError', message);
    this.code = code;
    this.data = data;
  }
}

/**
 * Whether `value` is an A2A wire failure (a malformed answer, a refused request, or the peer's
 * JSON-RPC error), from any copy of the package.
 */
export function isA2AError(value: unknown): value is GolemError & A2AFailure {
  return hasKind(value, 'A2AProtocolError');
}
