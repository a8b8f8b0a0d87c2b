import type { StoredWorkingMemory } from '../core/durable/records';
import { StoreError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { workingMemoryStoreError } from './errors';

/** The part of a run store that keeps working memory (the port's optional methods). Internal. */
export interface WorkingMemoryStore {
  getWorkingMemory(scope: string): Promise<StoredWorkingMemory | undefined>;
  /** Writes `record` if the stored version is `expectedVersion` (0: none stored); `false` otherwise. */
  putWorkingMemory(record: StoredWorkingMemory, expectedVersion: number): Promise<boolean>;
  now?(): number;
}

/** `store` as a working-memory store; a `ConfigError` naming the store and the fix otherwise. */
export function workingMemoryStore(store: unknown): WorkingMemoryStore {
  if (
    !isRecord(store) ||
    typeof store.getWorkingMemory !== 'function' ||
    typeof store.putWorkingMemory !== 'function'
  )
    throw workingMemoryStoreError(store);
  return store as unknown as WorkingMemoryStore;
}

/** A record's current value (an object) and version; `undefined` value when none is stored. */
export interface LoadedRecord {
  value: Record<string, unknown> | undefined;
  version: number;
}

/** Reads the record of `scope`; a stored value that is not a JSON object is a `corrupt` StoreError. */
export async function loadRecord(store: WorkingMemoryStore, scope: string): Promise<LoadedRecord> {
  const stored = await store.getWorkingMemory(scope);
  if (stored === undefined) return { value: undefined, version: 0 };
  let value: unknown;
  try {
    value = JSON.parse(stored.value);
  } catch (cause) {
    throw corrupt(scope, cause);
  }
  if (!isRecord(value) || !Number.isInteger(stored.version) || stored.version < 1)
    throw corrupt(scope);
  return { value, version: stored.version };
}

function corrupt(scope: string, cause?: unknown): StoreError {
  return new StoreError(
    `the working memory of ${JSON.stringify(scope)} is not a JSON object with a positive version; fix or delete the stored record`,
    { reason: 'corrupt', ...(cause !== undefined && { cause }) },
  );
}
