import { AsyncLocalStorage } from 'node:async_hooks';
import type { Middleware } from '../core/index';

/** What the current async context knows of the case run's cassette. */
interface CassetteScope {
  /** The case run's cassette middleware (absent: no cassette). */
  readonly middleware: Middleware | undefined;
  /** Set inside a call the cassette is already recording (nested layers pass through). */
  readonly inside: boolean;
}

const storage = new AsyncLocalStorage<CassetteScope>();

/** Runs `fn` with `middleware` as the current case run's cassette (for {@link evalCassette}). */
export function withCassette<T>(middleware: Middleware | undefined, fn: () => T): T {
  return storage.run({ middleware, inside: false }, fn);
}

/** Runs `fn` marked as inside a recorded call: cassette layers met there pass through. */
export function insideCassette<T>(fn: () => T): T {
  const scope = storage.getStore();
  return storage.run({ middleware: scope?.middleware, inside: true }, fn);
}

/** Whether the current call is already inside one the cassette records. */
export function isInsideCassette(): boolean {
  return storage.getStore()?.inside === true;
}

function current(): Middleware | undefined {
  const scope = storage.getStore();
  return scope === undefined || scope.inside ? undefined : scope.middleware;
}

/**
 * Middleware that records or replays through the cassette of the case run it is called in: give
 * it to an agent (`middleware: [evalCassette()]`) that a function task or a workflow runs without
 * passing `ctx.runOptions`. Outside an experiment (or without cassettes) it passes every call
 * through; inside a call the cassette already records, it passes through too (no double
 * recording when the run's own options also carry the cassette).
 */
export function evalCassette(): Middleware {
  return {
    name: 'evalCassette',
    generate(call, next) {
      const layer = current();
      return layer?.generate === undefined ? next(call.request) : layer.generate(call, next);
    },
    stream(call, next) {
      const layer = current();
      return layer?.stream === undefined
        ? next(call.request, call.onDelta)
        : layer.stream(call, next);
    },
    tool(call, next) {
      const layer = current();
      return layer?.tool === undefined ? next(call.args) : layer.tool(call, next);
    },
  };
}
