/**
 * Helpers of the network-boundary tests (issue 12) shared by the OpenAI-compatible and Azure
 * adapters: what a user or a log could see of an error or an event, expected failures, and the
 * resources a call could leave behind.
 */
import { createHook } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { resolve, sep } from 'node:path';
import { inspect } from 'node:util';

/** The response headers of a server-sent event stream. */
export const SSE = { 'content-type': 'text/event-stream' };

/**
 * Everything about a value a user or a log could print: `util.inspect` of it (own properties,
 * hidden ones too, and the whole `cause` chain), and each link's message, body, stack and own
 * properties serialised as JSON.
 */
export function visibleText(value: unknown): string {
  const out = [inspect(value, { depth: null, showHidden: true })];
  const seen = new Set<unknown>();
  let current: unknown = value;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const link = current as Record<string, unknown>;
    for (const key of ['message', 'body', 'code', 'stack', 'location'])
      if (typeof link[key] === 'string') out.push(link[key]);
    out.push(JSON.stringify(current, Object.getOwnPropertyNames(current)));
    current = link.cause;
  }
  return out.join('\n');
}

/** The rejection of `promise`; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

/**
 * A timer as `async_hooks` reports it. `_destroyed` is Node's own flag, set synchronously when the
 * timer is cleared or has fired (the `destroy` hook itself runs later, from the immediate queue).
 */
interface TimerResource {
  _destroyed?: boolean;
}

/** The framework's source directory. */
const SOURCE = resolve(__dirname, '..', '..', '..', '..', 'src') + sep;

/**
 * Whether Golem's code set the timer: the first frame outside Node's internals and this file is
 * in `src/` (directly, or through `AbortSignal.timeout`, `fetch`'s internals excluded).
 */
function createdBySource(stack: string): boolean {
  const caller = stack
    .split('\n')
    .slice(1)
    .find((line) => !line.includes('(node:') && !line.includes(__filename));
  return caller?.includes(SOURCE) === true;
}

/**
 * How many timers Golem's code created while `work` ran that are still pending when it settles,
 * referenced or not: an `AbortSignal.timeout` of the call's whole 5-minute window is unref'd (so
 * `process.getActiveResourcesInfo()` does not list it) but keeps the call's signal and its
 * listeners alive for that long. Timers of Jest's reporter, of the loopback server and of
 * `fetch`'s connection pool are not Golem's and are not counted (they also make
 * `getActiveResourcesInfo()` fluctuate). `during` gives the current count while `work` runs.
 */
export async function timersLeftBy(
  work: (during: () => number) => Promise<unknown>,
): Promise<number> {
  const pending: TimerResource[] = [];
  const limit = Error.stackTraceLimit;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type !== 'Timeout') return;
      const site: { stack?: string } = {};
      Error.captureStackTrace(site);
      if (createdBySource(site.stack ?? '')) pending.push(resource);
    },
  });
  const count = () => pending.filter((t) => t._destroyed !== true).length;
  Error.stackTraceLimit = 50;
  hook.enable();
  try {
    await work(count);
  } finally {
    hook.disable();
    Error.stackTraceLimit = limit;
  }
  return count();
}

/** How many `abort` listeners `signal` holds. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}
