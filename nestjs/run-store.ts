import { Inject, type Type } from '@nestjs/common';
import { isRecord } from '../src/core/kit/guards';
import type { RunStore, ConfigError } from '../src/core/index';
import { nestError } from './errors';
import { makeToken } from './tokens';

/** Shared by every copy of the package loaded in one process, like the other tokens. */
const TOKEN_KEY = Symbol.for('golem.nestjs.runStoreToken');
const token: Type<RunStore> = ((globalThis as Record<symbol, Type<RunStore> | undefined>)[
  TOKEN_KEY
] ??= makeToken<RunStore>('GolemRunStore'));

/** Brands the stand-in provided when the root module has no store. */
const NO_STORE = Symbol.for('golem.nestjs.noRunStore');

/**
 * The Nest injection token of the run store given to `GolemModule.forRoot({ store })` (or returned
 * by `forRootAsync`'s factory): `moduleRef.get(getRunStoreToken())` is that `RunStore` — for
 * `listRuns(store, …)` — and what a test replaces:
 * `overrideProvider(getRunStoreToken()).useValue(memoryStore())` (every agent `forFeature` builds
 * then checkpoints in the replacement).
 */
export function getRunStoreToken(): Type<RunStore> {
  return token;
}

/**
 * Injects the run store of `GolemModule.forRoot({ store })`:
 * `constructor(@InjectRunStore() private readonly store: RunStore)`. Without a configured store the
 * injected value is a stand-in whose every use throws a `missing-store` `golem/nestjs` `ConfigError`.
 */
export function InjectRunStore(): PropertyDecorator & ParameterDecorator {
  return Inject(token);
}

/** Throws `invalid-options` unless `store` looks like a `RunStore`. */
export function checkStore(store: unknown, where: string): RunStore | undefined {
  if (store === undefined) return undefined;
  if (
    !isRecord(store) ||
    typeof store.getRun !== 'function' ||
    typeof store.replaceRun !== 'function' ||
    typeof store.transaction !== 'function'
  )
    throw nestError(
      `${where}: store must be a run store, e.g. sqliteStore({ path }) from golem/stores/sqlite`,
      { reason: 'invalid-options' },
    );
  return store as unknown as RunStore;
}

function missing(): ConfigError {
  return nestError(
    'GolemModule has no run store, so the injected RunStore cannot be used: give one with GolemModule.forRoot({ store: sqliteStore({ path }) }) (or return it from the factory of forRootAsync)',
    { reason: 'missing-store' },
  );
}

/** The value of {@link getRunStoreToken} when no store is configured: every use throws. */
export function noRunStore(): RunStore {
  const fail = (): never => {
    throw missing();
  };
  const reject = (): Promise<never> => Promise.reject(missing());
  return Object.freeze({
    [NO_STORE]: true,
    get leaseMs(): number {
      return fail();
    },
    now: fail,
    migrate: reject,
    close: () => Promise.resolve(),
    getRun: reject,
    getConversation: reject,
    listRuns: reject,
    replaceRun: reject,
    transaction: reject,
  }) as RunStore;
}

/** The store agents checkpoint in: `undefined` for the stand-in (runs are then not stored). */
export function configuredStore(store: RunStore | undefined): RunStore | undefined {
  return store === undefined || (store as unknown as Record<symbol, unknown>)[NO_STORE] === true
    ? undefined
    : store;
}
