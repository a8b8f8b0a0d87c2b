import type { DeltaHandler } from '../core/contract/model';
import type { ModelRequest } from '../core/contract/request';
import type { ModelResponse } from '../core/contract/response';
import type { ResponseCacheStore } from '../core/durable/response-cache-port';
import type { Middleware, ModelCall } from '../core/engine/middleware';
import { cancellationError, throwIfCancelled } from '../core/errors/cancellation';
import { ConfigError } from '../core/kit/config-error';
import { responseCacheKey } from './cache-key';
import type { CachedEntry } from './cached-entry';
import { copyDelta, decodeEntry, encodeEntry, synthesizeDeltas } from './cached-entry';
import type { Delta } from '../core/contract/delta';
import { memoryCacheStore } from './memory-cache-store';

/**
 * What the cache was doing when `onError` was called.
 * @inline
 */
export interface ResponseCacheErrorContext {
  /** `key`: your `key` function threw; `get`/`set`: the store failed; `shouldCache`: yours threw. */
  readonly operation: 'key' | 'get' | 'set' | 'shouldCache';
  /** The store key, once known. */
  readonly key?: string;
}

/** Options of {@link responseCache}. */
export interface ResponseCacheOptions {
  /** Where entries live; default a fresh `memoryCacheStore()` (this process only). */
  store?: ResponseCacheStore;
  /** How long an entry lives, in ms; default until the store evicts it. */
  ttl?: number;
  /**
   * Prefixed to every key (`<namespace>:<key>`): bump it (a version, a deploy id) to start
   * afresh, or give each tenant its own.
   */
  namespace?: string;
  /**
   * Your own key of a call (default `responseCacheKey(call)`, see there for what it covers);
   * return `undefined` to neither read nor write the cache for this call. A function that throws
   * skips the cache for the call (reported to `onError`).
   */
  key?: (call: ModelCall) => string | undefined;
  /**
   * Whether to store a fresh response; default `isCacheableResponse`. A response with neither
   * text nor tool calls is never stored.
   */
  shouldCache?: (request: ModelRequest, response: ModelResponse) => boolean;
  /**
   * Told when the store (or one of your functions) fails. The run never fails for it: a failed
   * read is a miss, a failed write is skipped. Errors it throws are ignored.
   */
  onError?: (error: unknown, context: ResponseCacheErrorContext) => void;
}

/** Finish reasons whose responses the default `shouldCache` refuses: cut short, filtered, failed. */
const UNCACHEABLE_FINISH = new Set(['length', 'max_tokens', 'content_filter', 'refusal']);
const FAILED_FINISH = /error|fail|malformed|incomplete|cancel/;

/**
 * The default `shouldCache`: a response is stored unless its finish reason says it was cut short
 * (`length`), filtered (`content_filter`, `refusal`) or failed (any reason containing `error`,
 * `fail`, `malformed`, `incomplete` or `cancel`).
 */
export function isCacheableResponse(_request: ModelRequest, response: ModelResponse): boolean {
  const reason = response.finishReason?.toLowerCase();
  return reason === undefined || (!UNCACHEABLE_FINISH.has(reason) && !FAILED_FINISH.test(reason));
}

/**
 * A response cache: identical model calls are answered from `store` instead of the provider. The
 * key is the normalised request (see `responseCacheKey`: model, messages, tools, output schema,
 * hosted tools, settings except `cache`). Tool-calling turns are cached like any other (the tools
 * still run: only model calls are cached). A hit costs nothing: its usage is
 * `{ inputTokens: 0, outputTokens: 0, cachedResponses: 1 }`, so `result.usage.cachedResponses`
 * and the `model_end` events count hits. Streamed calls store the fragments the model sent and a
 * hit replays them in order (an entry stored by a call that did not stream replays its text,
 * thinking and tool calls as fragments).
 *
 * A failing store never fails a run (a miss; see `onError`); a corrupt or foreign entry is a miss
 * and is overwritten. Identical calls in flight at once in this process share one provider call;
 * across processes, both may call the provider (the last write wins).
 *
 * This is not provider prompt caching (`settings.cache`, which still works behind it): that makes
 * the provider read a repeated prefix cheaply; this skips the provider entirely for a repeated
 * request.
 *
 * ```ts
 * const agent = new Agent({ model, middleware: [responseCache({ ttl: 3_600_000, namespace: 'v1' })] });
 * ```
 */
export function responseCache(options: ResponseCacheOptions = {}): Middleware {
  const settings = checkOptions(options);
  const { store, ttl, namespace } = settings;
  const inflight = new Map<string, Promise<string | undefined>>();
  const report = (error: unknown, context: ResponseCacheErrorContext): void => {
    try {
      settings.onError?.(error, context);
    } catch {
      // an observer's failure is not the run's
    }
  };
  const keyOf = (call: ModelCall): string | undefined => {
    let key: string | undefined;
    try {
      key = settings.key === undefined ? responseCacheKey(call) : settings.key(call);
    } catch (error) {
      report(error, { operation: 'key' });
      return undefined;
    }
    if (typeof key !== 'string' || key === '') return undefined;
    return namespace === undefined ? key : `${namespace}:${key}`;
  };
  const read = async (key: string): Promise<string | undefined> => {
    try {
      return await store.get(key);
    } catch (error) {
      report(error, { operation: 'get', key });
      return undefined;
    }
  };
  /** Calls the provider through `call`, stores what is worth storing; returns it and its text. */
  const fill = async (
    key: string,
    request: ModelRequest,
    call: (record: Delta[] | undefined) => Promise<ModelResponse>,
    streamed: boolean,
  ): Promise<{ response: ModelResponse; text: string | undefined }> => {
    const recorded: Delta[] | undefined = streamed ? [] : undefined;
    const response = await call(recorded);
    let worth = false;
    try {
      worth = hasAnswer(response) && settings.shouldCache(request, response);
    } catch (error) {
      report(error, { operation: 'shouldCache', key });
    }
    if (!worth) return { response, text: undefined };
    const text = encodeEntry(entryOf(response, recorded));
    try {
      await store.set(key, text, ttl);
    } catch (error) {
      report(error, { operation: 'set', key });
    }
    return { response, text };
  };
  /**
   * The cached entry of `key` (this process's identical call in flight, else the store), or
   * `undefined`; on a miss, `miss()` runs and its stored text is shared with concurrent callers.
   */
  const answer = async (
    key: string,
    request: ModelRequest,
    signal: AbortSignal | undefined,
    hit: (entry: CachedEntry) => Promise<ModelResponse>,
    miss: () => Promise<{ response: ModelResponse; text: string | undefined }>,
  ): Promise<ModelResponse> => {
    const pending = inflight.get(key);
    if (pending !== undefined) {
      const entry = usable(await abortable(pending, signal), request);
      return entry === undefined ? (await miss()).response : hit(entry);
    }
    let share: (text: string | undefined) => void = () => undefined;
    inflight.set(key, new Promise((resolve) => (share = resolve)));
    let shared: string | undefined;
    try {
      const stored = await read(key);
      const entry = usable(stored, request);
      if (entry !== undefined) {
        shared = stored;
        return await hit(entry);
      }
      const fresh = await miss();
      shared = fresh.text;
      return fresh.response;
    } finally {
      inflight.delete(key);
      share(shared);
    }
  };
  return {
    name: 'responseCache',
    async generate(call, next) {
      const key = keyOf(call);
      if (key === undefined) return next(call.request);
      return answer(
        key,
        call.request,
        call.options?.signal,
        (entry) => Promise.resolve(hitResponse(entry)),
        () => fill(key, call.request, () => next(call.request), false),
      );
    },
    async stream(call, next) {
      const key = keyOf(call);
      if (key === undefined) return next(call.request, call.onDelta);
      const signal = call.options?.signal;
      return answer(
        key,
        call.request,
        signal,
        async (entry) => {
          await replay(entry.deltas ?? synthesizeDeltas(entry.response), call.onDelta, signal);
          return hitResponse(entry);
        },
        () =>
          fill(
            key,
            call.request,
            (recorded) =>
              next(call.request, (delta) => {
                recorded?.push(copyDelta(delta));
                return call.onDelta(delta);
              }),
            true,
          ),
      );
    },
  };
}

/** Validated options, defaults applied. */
function checkOptions(options: ResponseCacheOptions) {
  const fail = (option: string, problem: string): never => {
    throw new ConfigError(`responseCache: \`${option}\` ${problem}`, {
      component: 'middleware',
      option,
    });
  };
  if (typeof options !== 'object' || (options as unknown) === null)
    throw new ConfigError('responseCache: options must be an object', { component: 'middleware' });
  const { store = memoryCacheStore(), ttl, namespace, key, onError } = options;
  const shouldCache = options.shouldCache ?? isCacheableResponse;
  if (
    typeof store !== 'object' ||
    (store as unknown) === null ||
    typeof store.get !== 'function' ||
    typeof store.set !== 'function' ||
    typeof store.delete !== 'function'
  )
    fail('store', 'must be a response cache store: an object with get, set and delete');
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0))
    fail('ttl', 'must be a positive number of milliseconds');
  if (namespace !== undefined && (typeof namespace !== 'string' || namespace === ''))
    fail('namespace', 'must be a non-empty string');
  for (const [name, fn] of Object.entries({ key, shouldCache, onError }))
    if (fn !== undefined && typeof fn !== 'function') fail(name, 'must be a function');
  return { store, ttl, namespace, key, shouldCache, onError };
}

/** Whether the response answers anything: text or tool calls. */
function hasAnswer(response: ModelResponse): boolean {
  const { content, toolCalls } = response.message;
  return (content !== undefined && content !== '') || (toolCalls?.length ?? 0) > 0;
}

function entryOf(response: ModelResponse, deltas: Delta[] | undefined): CachedEntry {
  const { message, usage, finishReason, modelName, responseId } = response;
  const kept: CachedEntry['response'] = { message };
  if (finishReason !== undefined) kept.finishReason = finishReason;
  if (modelName !== undefined) kept.modelName = modelName;
  if (responseId !== undefined) kept.responseId = responseId;
  return deltas === undefined
    ? { response: kept, usage, storedAt: Date.now() }
    : { response: kept, usage, deltas, storedAt: Date.now() };
}

/**
 * The entry `text` holds, when it decodes and can answer `request`: a cached tool call whose id
 * is already in the request's history (the key renumbers ids, so another conversation's spelling
 * could collide) is a miss rather than an ambiguous answer.
 */
function usable(text: string | undefined, request: ModelRequest): CachedEntry | undefined {
  if (text === undefined) return undefined;
  const entry = decodeEntry(text);
  const calls = entry?.response.message.toolCalls;
  if (entry === undefined || calls === undefined) return entry;
  const seen = new Set<string>();
  for (const message of request.messages) {
    for (const call of message.toolCalls ?? []) seen.add(call.id);
    if (message.toolCallId !== undefined) seen.add(message.toolCallId);
  }
  return calls.some((call) => seen.has(call.id)) ? undefined : entry;
}

/** The response a hit returns: the stored answer, spending nothing. */
function hitResponse(entry: CachedEntry): ModelResponse {
  return { ...entry.response, usage: { inputTokens: 0, outputTokens: 0, cachedResponses: 1 } };
}

async function replay(
  deltas: readonly Delta[],
  onDelta: DeltaHandler,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (const delta of deltas) {
    throwIfCancelled(signal);
    await onDelta(copyDelta(delta));
  }
  throwIfCancelled(signal);
}

/** `promise`, or a rejection as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  throwIfCancelled(signal);
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      reject(cancellationError(signal));
    };
    signal.addEventListener('abort', stop, { once: true });
    void promise
      .finally(() => {
        signal.removeEventListener('abort', stop);
      })
      .then(resolve, reject);
  });
}
