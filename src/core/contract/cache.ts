import { isRecord } from '../kit/guards';
import type { Message } from './message';
import { modelConfigError } from '../errors/provider-errors';

/**
 * Prompt caching, provider-neutral (`ModelSettings.cache`). Each flag defaults to `true` once
 * caching is on, so `{ ttl: '1h' }` means "cache everything for an hour" and
 * `{ messages: false }` caches the instructions and tools only.
 * @inline
 */
export interface CacheSettings {
  /** Cache the instructions (Anthropic: a breakpoint on the system prompt; Bedrock: a `cachePoint` after it). */
  instructions?: boolean;
  /** Cache the tool definitions (a breakpoint on the last tool). */
  tools?: boolean;
  /** Cache the conversation so far: a breakpoint on the request's last message, moving every turn. */
  messages?: boolean;
  /** How long breakpoints live (Anthropic and Bedrock); default the provider's (5 minutes). */
  ttl?: '5m' | '1h';
  /** OpenAI `prompt_cache_key`: requests sharing a key and a prefix are routed to the same cache. */
  key?: string;
  /** OpenAI `prompt_cache_retention`: `in_memory` (default) or `24h` (extended caching). */
  retention?: 'in_memory' | '24h';
}

/** `ModelSettings.cache` validated, with every flag resolved. */
export interface ResolvedCache {
  readonly instructions: boolean;
  readonly tools: boolean;
  readonly messages: boolean;
  readonly ttl: '5m' | '1h' | undefined;
  readonly key: string | undefined;
  readonly retention: 'in_memory' | '24h' | undefined;
}

/** Explicit-caching providers (Anthropic, Bedrock) accept at most this many breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

const FLAGS = ['instructions', 'tools', 'messages'] as const;
const KEYS = new Set<string>([...FLAGS, 'ttl', 'key', 'retention']);

/**
 * Validates `settings.cache` for `provider`: `undefined`/`false` is off (`undefined` returned),
 * `true` caches everything, an object adjusts that. A malformed value is a model `ConfigError`
 * naming the field, raised before anything is sent.
 */
export function resolveCache(value: unknown, provider: string): ResolvedCache | undefined {
  if (value === undefined || value === false) return undefined;
  const fail = (message: string, field = ''): never => {
    throw modelConfigError(provider, `\`settings.cache${field}\` ${message}`);
  };
  if (value === true)
    return {
      instructions: true,
      tools: true,
      messages: true,
      ttl: undefined,
      key: undefined,
      retention: undefined,
    };
  if (!isRecord(value)) return fail('must be true, false or an object of cache settings');
  for (const key of Object.keys(value))
    if (!KEYS.has(key))
      fail(`has the unknown field ${JSON.stringify(key)}; use ${[...KEYS].join(', ')}`);
  for (const flag of FLAGS)
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean')
      fail('must be a boolean', `.${flag}`);
  const { ttl, key, retention } = value;
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') fail("must be '5m' or '1h'", '.ttl');
  if (key !== undefined && (typeof key !== 'string' || key === ''))
    fail('must be a non-empty string', '.key');
  if (retention !== undefined && retention !== 'in_memory' && retention !== '24h')
    fail("must be 'in_memory' or '24h'", '.retention');
  return {
    instructions: value.instructions !== false,
    tools: value.tools !== false,
    messages: value.messages !== false,
    ttl: ttl as ResolvedCache['ttl'],
    key: key as string | undefined,
    retention: retention as ResolvedCache['retention'],
  };
}

/** Where an explicit-caching adapter puts its breakpoints. */
export interface BreakpointPlan {
  /** A breakpoint after the tool definitions. */
  readonly tools: boolean;
  /** A breakpoint after the instructions (the system prompt). */
  readonly instructions: boolean;
  /** Indexes (into the request's messages) of the messages that end with a breakpoint. */
  readonly messages: ReadonlySet<number>;
}

/**
 * Plans at most {@link MAX_CACHE_BREAKPOINTS} breakpoints: the tools and the instructions when
 * asked for and present, the last message when `messages` is on, and messages marked
 * `cachePoint: true` (system messages excluded: they are the instructions). When there are more
 * candidates than breakpoints, the tools, the instructions and the last message are kept and the
 * oldest marked messages are dropped first (a later breakpoint caches everything before it too).
 */
export function planBreakpoints(
  messages: readonly Message[],
  cache: ResolvedCache | undefined,
  present: { tools: boolean; instructions: boolean },
): BreakpointPlan {
  const tools = cache?.tools === true && present.tools;
  const instructions = cache?.instructions === true && present.instructions;
  let free = MAX_CACHE_BREAKPOINTS - (tools ? 1 : 0) - (instructions ? 1 : 0);
  const chosen = new Set<number>();
  const last = lastNonSystem(messages);
  if (cache?.messages === true && last !== undefined && free > 0) {
    chosen.add(last);
    free--;
  }
  for (let i = messages.length - 1; i >= 0 && free > 0; i--) {
    const message = messages[i];
    if (message?.cachePoint !== true || message.role === 'system' || chosen.has(i)) continue;
    chosen.add(i);
    free--;
  }
  return { tools, instructions, messages: chosen };
}

function lastNonSystem(messages: readonly Message[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role !== 'system') return i;
  return undefined;
}
