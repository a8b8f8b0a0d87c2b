/**
 * One cap window of a spend store: a running total with a limit. `spendCap()` (golem/middleware)
 * names one per cap a call falls under, e.g. `owner:alice:day:2026-12-06`.
 */
export interface SpendWindow {
  /** The window's key: short printable text, unique per cap, subject and period. */
  readonly key: string;
  /** The most the window may hold (spent + reserved), in the price table's currency. */
  readonly limit: number;
  /** When the window's totals may be forgotten (ms since the epoch); absent = never. */
  readonly expiresAt?: number | undefined;
}

/**
 * A reservation request: `amount` held on every window of `windows` until it is settled,
 * released, or `ttlMs` has passed since `now`.
 */
export interface SpendReservation {
  /** The reservation's id, unique per call (settle and release name it). */
  readonly id: string;
  readonly windows: readonly SpendWindow[];
  /** What the call may cost, estimated before it; >= 0. */
  readonly amount: number;
  /** How long the reservation holds if never settled (a crashed worker), in ms. */
  readonly ttlMs: number;
  /** The caller's clock (ms since the epoch): reservations expire at `now + ttlMs`. */
  readonly now: number;
}

/**
 * What `reserve` answered: held everywhere, or refused by the first full window with its totals
 * (expired reservations dropped).
 * @inline
 */
export type SpendReserveResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** The window that cannot take the amount. */
      readonly window: SpendWindow;
      /** What the window has spent (settled). */
      readonly spent: number;
      /** What live reservations hold on it. */
      readonly reserved: number;
    };

/** One priced model call in a spend store's ledger. */
export interface SpendEntry {
  /** When the call was settled (ms since the epoch). */
  readonly at: number;
  readonly owner?: string | undefined;
  readonly agent?: string | undefined;
  /** The model that answered (`provider:model`). */
  readonly model?: string | undefined;
  readonly conversationId?: string | undefined;
  readonly cost: number;
  readonly currency: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** What a spend report groups by. */
export type SpendDimension = 'owner' | 'agent' | 'model' | 'conversationId';

/** Which ledger entries a report sums: `from <= at < to`, grouped by `by`. */
export interface SpendQuery {
  /** ms since the epoch, inclusive. */
  readonly from: number;
  /** ms since the epoch, exclusive. */
  readonly to: number;
  /** The grouping; `[]` sums everything into one row per currency. */
  readonly by: readonly SpendDimension[];
}

/** One row of a spend report: the sums of one group (one currency). */
export interface SpendRow {
  readonly owner?: string | undefined;
  readonly agent?: string | undefined;
  readonly model?: string | undefined;
  readonly conversationId?: string | undefined;
  readonly cost: number;
  readonly currency: string;
  /** Model calls settled. */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A window's totals (for dashboards and tests). */
export interface SpendTotals {
  readonly spent: number;
  readonly reserved: number;
}

/**
 * Where spend caps keep their totals, shared by every worker that uses the same store. Each
 * method is atomic against the others on the same windows: two workers reserving on a window at
 * once never both pass a check that only one of them fits.
 *
 * Golem ships `memorySpendStore()` (golem/middleware, one process), `redisSpendStore()`
 * (golem/stores/redis) and `postgresSpendStore()` (golem/stores/postgres).
 */
export interface SpendStore {
  /**
   * Drops the expired reservations of every window, then either (every window has
   * `spent + reserved + amount <= limit`) holds `amount` on all of them, or holds nothing and
   * names the first window that cannot take it.
   */
  reserve(reservation: SpendReservation): Promise<SpendReserveResult>;
  /**
   * Replaces reservation `id` on `windows` by `actual` (added to `spent` whether or not the
   * reservation is still live) and appends `entry` to the ledger.
   */
  settle(
    id: string,
    windows: readonly SpendWindow[],
    actual: number,
    entry: SpendEntry,
  ): Promise<void>;
  /** Drops reservation `id` from `windows` (the call failed before spending); no error when gone. */
  release(id: string, windows: readonly SpendWindow[]): Promise<void>;
  /** Sums the ledger entries of a period, grouped. Rows come sorted by their group values. */
  report(query: SpendQuery): Promise<SpendRow[]>;
  /** A window's totals at `now` (expired reservations not counted); zeros for an unknown window. */
  totals(key: string, now: number): Promise<SpendTotals>;
  /** Releases what the store opened itself (a pool it created); optional. */
  close?(): Promise<void>;
}
