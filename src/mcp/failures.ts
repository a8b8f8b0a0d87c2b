import { randomUUID } from 'node:crypto';
import { isRecord } from '../core/kit/guards';

/** The `data` key that marks a JSON-RPC error synthesized by this client (not the server). */
export const FAILURE_KEY = 'golemTransportFailure';

/**
 * Errors the HTTP guard injected into a response stream as synthesized JSON-RPC error responses,
 * keyed by an unguessable token, so the typed error is recovered exactly and a server cannot
 * forge one (it would have to guess the token).
 */
export class FailureRegistry {
  private readonly pending = new Map<string, Error>();

  /** Stores `error` and returns the `data` object to put in the synthesized JSON-RPC error. */
  record(error: Error): Record<string, string> {
    const token = randomUUID();
    this.pending.set(token, error);
    return { [FAILURE_KEY]: token };
  }

  /** The error recorded for a JSON-RPC error's `data`, removed from the registry. */
  take(data: unknown): Error | undefined {
    if (!isRecord(data) || !Object.hasOwn(data, FAILURE_KEY)) return undefined;
    const token = data[FAILURE_KEY];
    if (typeof token !== 'string') return undefined;
    const error = this.pending.get(token);
    this.pending.delete(token);
    return error;
  }
}
