import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';
import type { ModelRequest, ModelSettings } from '../core/contract/request';
import type { Middleware } from '../core/engine/middleware';

/** Settings whose object values are merged one level deep instead of replaced. */
const NESTED = ['thinking', 'cache', 'extraBody', 'compaction'] as const;

/**
 * Middleware filling the model settings a request lacks with `settings` — app-wide defaults
 * below everything else: the request's own settings (the agent's `modelSettings`, the run's
 * `modelSettings`) always win.
 *
 * Merging is shallow, key by key (a key set to `undefined` counts as unset): `stop` and every
 * scalar is taken whole from the request when it has one. `thinking`, `cache`, `extraBody` and
 * `compaction` merge one level deep when both sides are objects (`extraBody: { a: 1 }` by
 * default and `{ b: 2 }` on the request send `{ a: 1, b: 2 }`, the request winning per key);
 * `cache: false` or `true` on the request wins whole. The request is never changed: a new
 * request is sent. Throws `ConfigError` (component `middleware`) when `settings` is not an
 * object.
 *
 * ```ts
 * new Agent({ model, middleware: [defaultSettings({ temperature: 0, maxTokens: 1024 })] });
 * ```
 */
export function defaultSettings(settings: ModelSettings): Middleware {
  if (!isRecord(settings))
    throw new ConfigError('defaultSettings needs an object of model settings', {
      component: 'middleware',
      option: 'settings',
    });
  const defaults: ModelSettings = { ...settings };
  return {
    name: 'defaultSettings',
    request: (request: ModelRequest): ModelRequest => ({
      ...request,
      settings: mergeSettings(defaults, request.settings),
    }),
  };
}

/** `own` over `defaults`, as {@link defaultSettings} documents. Internal. */
export function mergeSettings(
  defaults: ModelSettings,
  own: ModelSettings | undefined,
): ModelSettings {
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(own ?? {})) {
    if (value === undefined) continue;
    const base = merged[key];
    merged[key] =
      (NESTED as readonly string[]).includes(key) && isRecord(base) && isRecord(value)
        ? { ...base, ...definedOnly(value) }
        : value;
  }
  return merged;
}

function definedOnly(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
