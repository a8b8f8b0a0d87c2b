import { AsyncLocalStorage, createHook } from 'node:async_hooks';

/** The parts of a Node `Timeout` the probe reads. */
interface NodeTimeout {
  hasRef(): boolean;
  /** Set once the timer fired or was cleared. */
  _destroyed?: boolean;
}

/**
 * Runs `work` and returns how many timers it created (itself or through anything it started:
 * fetch, body readers, error-body deadlines) are still pending and keep the process alive once it
 * settled — what `process.getActiveResourcesInfo()` would count as a `Timeout`, but only the
 * call's own, so timers of the test runner (its reporter re-arms one every 100 ms) cannot blur
 * the count. An error `work` throws propagates (catch expected failures inside it).
 */
export async function timersLeftBy(work: () => Promise<unknown>): Promise<number> {
  const scope = new AsyncLocalStorage<true>();
  const created: NodeTimeout[] = [];
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Timeout' && scope.getStore() === true) created.push(resource as NodeTimeout);
    },
  });
  hook.enable();
  try {
    await scope.run(true, work);
  } finally {
    hook.disable();
  }
  return created.filter((timer) => timer.hasRef() && timer._destroyed !== true).length;
}
