import { injectable } from 'inversify';

/** Inversify brands its errors with this registry symbol; `kind` 0 is a decorator conflict. */
const INVERSIFY_ERROR = Symbol.for('@inversifyjs/core/InversifyCoreError');
const DECORATOR_CONFLICT = 0;

const done = new WeakSet<object>();

function isDecoratorConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const record = error as Record<string | symbol, unknown>;
  return record[INVERSIFY_ERROR] === true && record.kind === DECORATOR_CONFLICT;
}

/**
 * Makes an agent class injectable, as if it were decorated with inversify's `@injectable()`, so
 * its constructor parameters are resolved from their reflected types (`design:paramtypes`, which
 * `@Agent` makes TypeScript emit) or their `@inject(Token)` decorators (the only way where the
 * toolchain emits no metadata). A class already decorated with `@injectable()` is left as is.
 */
export function ensureInjectable(target: abstract new (...args: never[]) => object): void {
  if (done.has(target)) return;
  try {
    injectable()(target);
  } catch (error) {
    if (!isDecoratorConflict(error)) throw error;
  }
  done.add(target);
}
