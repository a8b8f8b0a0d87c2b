import { RunInputError } from '../engine/errors';
import type { RunOptionsBase } from './config';
import type { RunStore } from '../durable/port';

/** The store a run uses: its own, else the agent's; `conversation`/`runId` without one is an input error. Internal. */
export function storeFor(
  options: RunOptionsBase,
  agentStore: RunStore | undefined,
): RunStore | undefined {
  const store = options.store ?? agentStore;
  if (
    store === undefined &&
    (options.conversation !== undefined ||
      options.runId !== undefined ||
      options.owner !== undefined)
  )
    throw new RunInputError(
      '`conversation`, `runId` and `owner` need a run store: configure `store` on the agent or pass { store }',
    );
  return store;
}

/** The store `method(runId)` needs; none is an input error naming the fix. Internal. */
export function requireStore(
  options: { store?: RunStore },
  agentStore: RunStore | undefined,
  method: string,
): RunStore {
  const store = options.store ?? agentStore;
  if (store === undefined)
    throw new RunInputError(
      `${method}(runId) needs a run store: configure \`store\` on the agent or pass { store }`,
    );
  return store;
}
