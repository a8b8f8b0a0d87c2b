import { StoreError } from './store-error';

/** The default lease: a process that stops renewing loses its runs after 30 s. */
export const DEFAULT_LEASE_MS = 30_000;

/** Options every store adapter takes. */
export interface StoreOptions {
  /**
   * How long a run's lease lasts without renewal, in ms (default 30 000). A running process renews
   * it at every checkpoint and every third of this period; after a crash, another process can
   * continue the run once it expires.
   */
  leaseMs?: number;
  /** The clock leases are measured with (ms since the epoch); default `Date.now`. Inject one in tests. */
  clock?: () => number;
}

/** Validated {@link StoreOptions}. Internal. */
export function storeSettings(
  store: string,
  options: StoreOptions,
): { leaseMs: number; clock: () => number } {
  const { leaseMs = DEFAULT_LEASE_MS, clock = Date.now } = options;
  if (typeof leaseMs !== 'number' || !Number.isInteger(leaseMs) || leaseMs < 1)
    throw new StoreError(`${store}: leaseMs must be a positive integer of milliseconds`, {
      reason: 'invalid-options',
    });
  if (typeof clock !== 'function')
    throw new StoreError(`${store}: clock must be a function returning milliseconds`, {
      reason: 'invalid-options',
    });
  return { leaseMs, clock };
}
