import { ConfigError, RunInputError } from '../core/index';

const COMPONENT = 'memory';

/** A `Memory` option is invalid: a `ConfigError` of component `memory` naming the option. */
export function memoryOptionError(option: string, message: string): ConfigError {
  return new ConfigError(`Memory: ${message}`, { component: COMPONENT, option });
}

/** The run's store cannot hold working memory: a `ConfigError` naming the store and the fix. */
export function workingMemoryStoreError(store: unknown): ConfigError {
  const problem =
    store === undefined
      ? 'the run has no store'
      : `${storeName(store)} has no getWorkingMemory/putWorkingMemory`;
  return new ConfigError(
    `Memory: working memory needs a run store that keeps it, and ${problem}; pass a store to the agent or the run (memoryStore(), sqliteStore() or postgresStore() keep it), or new Memory({ store })`,
    { component: COMPONENT, option: 'store' },
  );
}

/** The run lacks what a scope needs (an owner, a conversation): a `RunInputError` naming the fix. */
export function memoryScopeError(what: 'owner' | 'conversation', part: string): RunInputError {
  return new RunInputError(
    what === 'owner'
      ? `${part} is scoped per owner and this run has none: pass run(prompt, { owner })`
      : `${part} is scoped per conversation and this run has none: pass run(prompt, { conversation })`,
  );
}

function storeName(store: unknown): string {
  const ctor = (store as { constructor?: { name?: unknown } }).constructor;
  const name = typeof ctor?.name === 'string' && ctor.name !== 'Object' ? ctor.name : undefined;
  return name === undefined ? 'the run store' : `the run store ${name}`;
}
