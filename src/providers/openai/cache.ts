import { resolveCache } from '../../core/contract/cache';

/**
 * The chat-completions fields of `settings.cache`: `prompt_cache_key` (`cache.key`) and
 * `prompt_cache_retention` (`cache.retention`). OpenAI caches prompt prefixes automatically, so
 * the instructions/tools/messages flags and message `cachePoint`s have no field here.
 */
export function cacheFields(provider: string, cache: unknown): Record<string, unknown> {
  const resolved = resolveCache(cache, provider);
  const fields: Record<string, unknown> = {};
  if (resolved?.key !== undefined) fields.prompt_cache_key = resolved.key;
  if (resolved?.retention !== undefined) fields.prompt_cache_retention = resolved.retention;
  return fields;
}
