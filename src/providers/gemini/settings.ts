import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings } from '../../core/contract/request';
import type { GeminiGenerationConfig, GeminiThinkingConfig } from './wire';

/** Gemini 3 thinking levels (`generationConfig.thinkingConfig.thinkingLevel`). */
export type GeminiThinkingLevel = 'minimal' | 'low' | 'medium' | 'high';

/** Adapter-level thinking defaults (spec §20.1: `{includeThoughts | budget | level}`). */
export interface GeminiThinkingOptions {
  /** Ask for thought summaries (`thought: true` parts), returned as thinking blocks. */
  includeThoughts?: boolean;
  /** `thinkingBudget` in tokens: `0` turns thinking off, `-1` lets the model decide. */
  budget?: number;
  /** `thinkingLevel` (Gemini 3). Exclusive with `budget`. */
  level?: GeminiThinkingLevel;
}

const LEVELS: readonly string[] = ['minimal', 'low', 'medium', 'high'];
const MODES: readonly string[] = ['adaptive', 'enabled', 'disabled'];

/** Throws a model `ConfigError` unless `thinking` is a valid {@link GeminiThinkingOptions}. */
export function validateThinkingOptions(provider: string, thinking: unknown): void {
  if (thinking === undefined) return;
  if (!isRecord(thinking)) throw modelConfigError(provider, 'thinking must be an object');
  const { includeThoughts, budget, level } = thinking;
  if (includeThoughts !== undefined && typeof includeThoughts !== 'boolean')
    throw modelConfigError(provider, 'thinking.includeThoughts must be a boolean');
  if (budget !== undefined && !(Number.isInteger(budget) && (budget as number) >= -1))
    throw modelConfigError(provider, 'thinking.budget must be an integer >= -1');
  if (level !== undefined && !LEVELS.includes(level as string))
    throw modelConfigError(provider, `thinking.level must be one of ${LEVELS.join(', ')}`);
  if (budget !== undefined && level !== undefined)
    throw modelConfigError(provider, 'thinking.budget and thinking.level are exclusive');
}

/**
 * Throws a model `ConfigError` for settings outside Gemini's ranges (spec §23): temperature [0, 2],
 * topP [0, 1], maxTokens an integer >= 0, stop strings, an integer seed, finite penalties, a known
 * reasoning effort and thinking mode, a non-negative integer budget, an object `extraBody`.
 */
export function validateSettings(provider: string, settings: ModelSettings | undefined): void {
  if (settings === undefined) return;
  if (!isObject(settings)) throw modelConfigError(provider, 'settings must be an object');
  const fail = (message: string): never => {
    throw modelConfigError(provider, message);
  };
  const { temperature, topP, maxTokens, stop, seed, reasoningEffort, thinking } = settings;
  if (temperature !== undefined && !inRange(temperature, 0, 2))
    fail(`temperature must be a number in [0, 2], got ${String(temperature)}`);
  if (topP !== undefined && !inRange(topP, 0, 1))
    fail(`topP must be a number in [0, 1], got ${String(topP)}`);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 0))
    fail(`maxTokens must be an integer >= 0, got ${String(maxTokens)}`);
  if (stop !== undefined && !(Array.isArray(stop) && stop.every((s) => typeof s === 'string')))
    fail('stop must be an array of strings');
  if (seed !== undefined && !Number.isInteger(seed)) fail('seed must be an integer');
  for (const key of ['presencePenalty', 'frequencyPenalty'] as const) {
    const value = settings[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value)))
      fail(`${key} must be a finite number`);
  }
  if (reasoningEffort !== undefined && !LEVELS.includes(reasoningEffort))
    fail(`reasoningEffort must be one of ${LEVELS.join(', ')}`);
  if (thinking !== undefined) {
    if (!isObject(thinking) || !MODES.includes(thinking.mode))
      fail(`thinking.mode must be one of ${MODES.join(', ')}`);
    const budget = thinking.budgetTokens;
    if (budget !== undefined && !(Number.isInteger(budget) && budget >= 0))
      fail('thinking.budgetTokens must be an integer >= 0');
    if (thinking.includeThoughts !== undefined && typeof thinking.includeThoughts !== 'boolean')
      fail('thinking.includeThoughts must be a boolean');
    if (reasoningEffort !== undefined && thinking.mode !== 'enabled')
      fail('set either thinking.mode or reasoningEffort, not both');
    if (reasoningEffort !== undefined && budget !== undefined)
      fail('thinking.budgetTokens and reasoningEffort are exclusive');
  }
  if (settings.extraBody !== undefined && !isRecord(settings.extraBody))
    fail('extraBody must be an object');
}

/** `isRecord` without narrowing (the declared type already says object). */
function isObject(value: unknown): boolean {
  return isRecord(value);
}

function inRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/**
 * Adapter defaults overlaid with the request's settings, key by key; an `undefined` request value
 * leaves the default in place.
 */
export function mergeSettings(
  defaults: ModelSettings | undefined,
  request: ModelSettings | undefined,
): ModelSettings | undefined {
  if (defaults === undefined) return request;
  if (request === undefined) return defaults;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(request)) if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * The sampling part of `generationConfig` (spec §23): unset fields are never written, `0` is a
 * real value, `maxTokens: 0` and an empty `stop` mean "omit".
 */
export function samplingConfig(settings: ModelSettings | undefined): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (settings === undefined) return config;
  if (settings.temperature !== undefined) config.temperature = settings.temperature;
  if (settings.topP !== undefined) config.topP = settings.topP;
  if (settings.maxTokens !== undefined && settings.maxTokens > 0)
    config.maxOutputTokens = settings.maxTokens;
  if (settings.stop !== undefined && settings.stop.length > 0)
    config.stopSequences = [...settings.stop];
  if (settings.seed !== undefined) config.seed = settings.seed;
  if (settings.presencePenalty !== undefined) config.presencePenalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) config.frequencyPenalty = settings.frequencyPenalty;
  return config;
}

/**
 * `thinkingConfig` from the adapter defaults and the request: `thinking.mode` `disabled` →
 * budget 0, `adaptive` → budget -1 (dynamic), `enabled` with `budgetTokens` → that budget (each
 * replaces an adapter level); `reasoningEffort` → `thinkingLevel` (replaces an adapter budget);
 * `includeThoughts` from the request wins. `undefined` when nothing is set.
 */
export function thinkingConfig(
  defaults: GeminiThinkingOptions | undefined,
  settings: ModelSettings | undefined,
): GeminiThinkingConfig | undefined {
  let includeThoughts = defaults?.includeThoughts;
  let budget = defaults?.budget;
  let level: string | undefined = defaults?.level;
  const thinking = settings?.thinking;
  if (thinking !== undefined) {
    if (thinking.includeThoughts !== undefined) includeThoughts = thinking.includeThoughts;
    const requested =
      thinking.mode === 'disabled' ? 0 : thinking.mode === 'adaptive' ? -1 : thinking.budgetTokens;
    if (requested !== undefined) {
      budget = requested;
      level = undefined;
    }
  }
  if (settings?.reasoningEffort !== undefined) {
    level = settings.reasoningEffort;
    budget = undefined;
  }
  const config: GeminiThinkingConfig = {};
  if (includeThoughts !== undefined) config.includeThoughts = includeThoughts;
  if (budget !== undefined) config.thinkingBudget = budget;
  if (level !== undefined) config.thinkingLevel = level;
  return Object.keys(config).length > 0 ? config : undefined;
}
