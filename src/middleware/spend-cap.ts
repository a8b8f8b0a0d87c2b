import { randomUUID } from 'node:crypto';
import type { PriceLookup, PriceTable } from '../core/contract/cost';
import type { FallbackTransition, GenerateOptions } from '../core/contract/model';
import { modelRef } from '../core/contract/model-name';
import type { ModelResponse } from '../core/contract/response';
import type { SpendStore, SpendWindow } from '../core/durable/spend-port';
import type { Middleware, ModelCall } from '../core/engine/middleware';
import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';
import { BudgetExceededError } from './budget-error';
import { memorySpendStore } from './memory-spend-store';
import { modelMembers } from './model-members';
import { estimateInputTokens, reservedOutputTokens } from './request-tokens';
import type { SpendCapRule } from './spend-windows';
import { checkCaps, windowsOf } from './spend-windows';

/** Options of {@link spendCap}. */
export interface SpendCapOptions {
  /** Prices every call (`priceTable({...})` from golem, `genaiPrices()` from golem/prices). */
  prices: PriceTable;
  /**
   * The caps, each checked before every call, e.g.
   * `[{ per: 'owner', period: 'day', limit: 5 }, { per: 'global', period: 'month', limit: 500 }]`.
   */
  caps: readonly SpendCapRule[];
  /** Where the totals live; default `memorySpendStore()` (this process only). */
  store?: SpendStore;
  /** What a call is reserved at before it is made. */
  reserve?: {
    /** Output tokens reserved for a call without `maxTokens`; default 1024. */
    outputTokens?: number;
    /** How long a reservation holds if its worker dies mid-call, in ms; default 600 000. */
    ttlMs?: number;
  };
  /**
   * A model the table has no price for: `refuse` (the default) fails the call with a
   * ConfigError; `free` lets it through at cost 0.
   */
  unpriced?: 'refuse' | 'free';
  /** Told when settling or releasing a call's reservation fails (the call's answer is kept). */
  onStoreError?: (error: unknown) => void;
  /** The clock (ms since the epoch); default `Date.now`. Periods are UTC. */
  now?: () => number;
}

const DEFAULT_OUTPUT_RESERVE = 1024;
const DEFAULT_TTL_MS = 600_000;

/**
 * Spend caps shared by every worker on the same `store`: before each model call its cost is
 * estimated (estimated input + `maxTokens`, or `reserve.outputTokens`, priced with `prices`) and
 * reserved atomically on every cap window it falls under (owner, conversation, agent, global; per
 * UTC day, month, or in total). A call that does not fit is refused before it is made with
 * {@link BudgetExceededError} (the run fails at the `usage` stage, its messages so far in
 * `partial`); after the call the reservation is replaced by the priced usage (a cached answer
 * costs 0), and an error releases it.
 *
 * The bound: a window's spent total never exceeds `limit + Σ max(0, actual − reserved)` over the
 * calls in flight on it at once; with `maxTokens` on every request and input estimates no lower
 * than the billed input, never above `limit`.
 *
 * Order: put `spendCap` after `responseCache` (a cached answer then costs no reservation) and
 * before `rateLimit` (a refused call uses no rate).
 */
export function spendCap(options: SpendCapOptions): Middleware {
  if (!isRecord(options))
    throw new ConfigError('spendCap needs options { prices, caps }', { component: 'middleware' });
  const { prices } = options;
  if (!isRecord(prices) || typeof (prices as Partial<PriceTable>).cost !== 'function')
    throw new ConfigError(
      'spendCap: `prices` must be a PriceTable (priceTable({...}) from golem)',
      {
        component: 'middleware',
        option: 'prices',
      },
    );
  const rules = checkCaps(options.caps);
  const store = options.store ?? memorySpendStore();
  const outputReserve = options.reserve?.outputTokens ?? DEFAULT_OUTPUT_RESERVE;
  const ttlMs = options.reserve?.ttlMs ?? DEFAULT_TTL_MS;
  if (!Number.isInteger(outputReserve) || outputReserve < 0)
    throw new ConfigError('spendCap: `reserve.outputTokens` must be an integer >= 0', {
      component: 'middleware',
      option: 'reserve.outputTokens',
    });
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new ConfigError('spendCap: `reserve.ttlMs` must be a number of ms > 0', {
      component: 'middleware',
      option: 'reserve.ttlMs',
    });
  const now = options.now ?? Date.now;
  const currency = prices.currency ?? 'USD';
  const unpriced = options.unpriced ?? 'refuse';
  const report = (error: unknown): void => {
    try {
      options.onStoreError?.(error);
    } catch {
      // An observer's failure is not the call's.
    }
  };

  /**
   * What the call may cost: its estimated tokens priced as its model, or (a FallbackModel) as its
   * most expensive priced member.
   */
  const estimateOf = (call: ModelCall): number => {
    const usage = {
      inputTokens: estimateInputTokens(call.request),
      outputTokens: reservedOutputTokens(call.request, outputReserve),
    };
    const members = modelMembers(call.model);
    let most: number | undefined;
    for (const member of members) {
      const ref = modelRef(member);
      const cost = prices.cost(usage, { provider: ref.provider, model: ref.model });
      if (cost !== undefined) most = Math.max(most ?? 0, cost.total);
    }
    if (most !== undefined) return most;
    if (unpriced === 'free') return 0;
    throw new ConfigError(
      `spendCap: the price table has no price for ${call.model ?? 'the model'}; add one or set unpriced: 'free'`,
      { component: 'middleware', option: 'prices' },
    );
  };

  const around = async (
    call: ModelCall,
    run: () => Promise<ModelResponse>,
  ): Promise<ModelResponse> => {
    const scope = call.options?.scope;
    const at = now();
    const { windows, refused } = windowsOf(rules, scope, at);
    if (refused !== undefined) throw missingSubject(refused, currency);
    if (windows.length === 0) return run();
    const estimate = estimateOf(call);
    const id = randomUUID();
    const list: SpendWindow[] = windows.map((w) => w.window);
    const held = await store.reserve({ id, windows: list, amount: estimate, ttlMs, now: at });
    if (!held.ok) {
      const hit = windows.find((w) => w.window.key === held.window.key) ?? windows[0];
      throw new BudgetExceededError({
        cap: {
          per: hit?.rule.per ?? 'global',
          period: hit?.rule.period ?? 'total',
          subject: hit?.subject,
          key: held.window.key,
          limit: held.window.limit,
        },
        spent: held.spent,
        reserved: held.reserved,
        estimate,
        currency,
      });
    }
    // A FallbackModel below tells which member answered: that member is priced as itself.
    let answering = modelMembers(call.model)[0];
    const restore = follow(call.options, (to) => (answering = to));
    let response: ModelResponse;
    try {
      response = await run();
    } catch (error) {
      restore();
      await store.release(id, list).catch(report);
      throw error;
    }
    restore();
    let actual = 0;
    if ((response.usage.cachedResponses ?? 0) === 0) {
      const lookup = (name: string | undefined): PriceLookup => {
        const r = modelRef(name);
        return {
          provider: r.provider,
          model: r.model,
          ...(response.modelName !== undefined && { responseModel: response.modelName }),
        };
      };
      // The answering member unpriced: priced as the call's model; both unpriced: the estimate.
      actual =
        prices.cost(response.usage, lookup(answering))?.total ??
        prices.cost(response.usage, lookup(call.model))?.total ??
        estimate;
    }
    await store
      .settle(id, list, actual, {
        at: now(),
        owner: scope?.owner,
        agent: scope?.agent,
        model: answering,
        conversationId: scope?.conversationId,
        cost: actual,
        currency,
        inputTokens: response.usage.inputTokens,
        outputTokens: response.usage.outputTokens,
      })
      .catch(report);
    return response;
  };

  return {
    name: 'spendCap',
    generate: (call, next) => around(call, () => next(call.request)),
    stream: (call, next) => around(call, () => next(call.request, call.onDelta)),
  };
}

/**
 * Routes `options.onFallback` through `seen` for the call (the options object is the one the
 * model receives); returns the undo.
 */
function follow(options: GenerateOptions | undefined, seen: (to: string) => void): () => void {
  if (options === undefined) return () => undefined;
  const previous = options.onFallback;
  options.onFallback = (transition: FallbackTransition) => {
    seen(transition.to);
    previous?.(transition);
  };
  return () => {
    options.onFallback = previous;
    if (previous === undefined) delete options.onFallback;
  };
}

function missingSubject(rule: SpendCapRule, currency: string): BudgetExceededError {
  const option = rule.per === 'owner' ? 'owner' : 'conversation';
  return new BudgetExceededError({
    cap: { per: rule.per, period: rule.period ?? 'total', key: '', limit: rule.limit },
    spent: 0,
    reserved: 0,
    estimate: 0,
    currency,
    message: `spend cap per ${rule.per} refuses calls without one: run the agent with the \`${option}\` option`,
  });
}
