import { sumSpend } from '../core/durable/spend-ledger';
import type {
  SpendEntry,
  SpendQuery,
  SpendReservation,
  SpendReserveResult,
  SpendRow,
  SpendStore,
  SpendTotals,
  SpendWindow,
} from '../core/durable/spend-port';

/** Fits floating-point sums of costs: a window is full past `limit + EPSILON`. */
const EPSILON = 1e-9;

interface WindowState {
  spent: number;
  /** Reservation id → amount and expiry (ms). */
  readonly held: Map<string, { amount: number; until: number }>;
  expiresAt: number | undefined;
}

/**
 * A spend store in this process's memory: caps shared by the agents of one process (every method
 * runs synchronously inside, so it is atomic), lost when it exits. Use `redisSpendStore()` or
 * `postgresSpendStore()` to share caps between workers. Windows past their `expiresAt` are
 * forgotten at the next reservation.
 */
export function memorySpendStore(): SpendStore {
  const windows = new Map<string, WindowState>();
  const ledger: SpendEntry[] = [];

  const live = (key: string, now: number): WindowState | undefined => {
    const state = windows.get(key);
    if (state === undefined) return undefined;
    if (state.expiresAt !== undefined && state.expiresAt <= now) {
      windows.delete(key);
      return undefined;
    }
    for (const [id, hold] of state.held) if (hold.until <= now) state.held.delete(id);
    return state;
  };
  const reservedOf = (state: WindowState | undefined): number => {
    let sum = 0;
    for (const hold of state?.held.values() ?? []) sum += hold.amount;
    return sum;
  };
  const open = (window: SpendWindow): WindowState => {
    let state = windows.get(window.key);
    if (state === undefined) {
      state = { spent: 0, held: new Map(), expiresAt: window.expiresAt };
      windows.set(window.key, state);
    }
    return state;
  };

  return {
    reserve(reservation: SpendReservation): Promise<SpendReserveResult> {
      const { id, amount, now, ttlMs } = reservation;
      for (const window of reservation.windows) {
        const state = live(window.key, now);
        const spent = state?.spent ?? 0;
        const reserved = reservedOf(state);
        if (spent + reserved + amount > window.limit + EPSILON)
          return Promise.resolve({ ok: false, window, spent, reserved });
      }
      for (const window of reservation.windows)
        open(window).held.set(id, { amount, until: now + ttlMs });
      return Promise.resolve({ ok: true });
    },
    settle(id: string, list: readonly SpendWindow[], actual: number, entry: SpendEntry) {
      for (const window of list) {
        const state = open(window);
        state.held.delete(id);
        state.spent += actual;
      }
      ledger.push({ ...entry });
      return Promise.resolve();
    },
    release(id: string, list: readonly SpendWindow[]) {
      for (const window of list) windows.get(window.key)?.held.delete(id);
      return Promise.resolve();
    },
    report(query: SpendQuery): Promise<SpendRow[]> {
      return Promise.resolve(sumSpend(ledger, query));
    },
    totals(key: string, now: number): Promise<SpendTotals> {
      const state = live(key, now);
      return Promise.resolve({ spent: state?.spent ?? 0, reserved: reservedOf(state) });
    },
  };
}
