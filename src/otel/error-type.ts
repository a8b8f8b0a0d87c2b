import { brandOf } from '../core/kit/error-base';
import { safeGet } from '../core/kit/safe-inspect';

/** Wrappers whose cause says more about what went wrong than they do. */
const WRAPPERS = new Set(['RunError', 'AttemptsExhaustedError', 'ToolError']);

/**
 * The convention's `error.type` of a failure, low-cardinality: an HTTP failure's status code
 * (`429`, `500`); a golem error's kind (`TurnTimeoutError`, `CancelledError`, `ModelRetry`,
 * `UsageLimitError`, `FallbackExhaustedError`…), looking through `RunError`,
 * `AttemptsExhaustedError` and `ToolError` to their cause; another error's `name`
 * (`TypeError`); `_OTHER` for anything else.
 */
export function errorType(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 8; depth++) {
    const kind = brandOf(current);
    if (kind === undefined) break;
    if (kind === 'ModelHTTPError') {
      const status = safeGet(current, 'status');
      return typeof status === 'number' ? String(status) : kind;
    }
    if (!WRAPPERS.has(kind)) return kind;
    const cause = safeGet(current, 'cause');
    if (cause === undefined) return kind;
    current = cause;
  }
  if (current instanceof Error) return current.name === '' ? '_OTHER' : current.name;
  return '_OTHER';
}
