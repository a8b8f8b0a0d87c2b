import { showValue } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings } from '../../core/contract/request';
import type { MaxTokensField } from './presets';

const EFFORTS: readonly unknown[] = ['minimal', 'low', 'medium', 'high'];

/**
 * Checks request tuning against the chat-completions ranges (spec §23): temperature [0, 2], topP
 * [0, 1], maxTokens a whole number ≥ 0, seed a whole number, penalties [-2, 2]. `undefined` is
 * "unset"; 0 is a real value. Throws a model `ConfigError` naming the field and the value.
 */
export function validateSettings(provider: string, settings: ModelSettings | undefined): void {
  if (settings === undefined) return;
  if (!isRecord(settings)) throw modelConfigError(provider, 'settings must be an object');
  range(provider, 'temperature', settings.temperature, 0, 2);
  range(provider, 'topP', settings.topP, 0, 1);
  range(provider, 'presencePenalty', settings.presencePenalty, -2, 2);
  range(provider, 'frequencyPenalty', settings.frequencyPenalty, -2, 2);
  whole(provider, 'maxTokens', settings.maxTokens, 0);
  whole(provider, 'seed', settings.seed, Number.MIN_SAFE_INTEGER);
  const { stop, reasoningEffort, extraBody } = settings;
  if (stop !== undefined && (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string')))
    throw modelConfigError(provider, 'settings.stop must be an array of strings');
  if (reasoningEffort !== undefined && !EFFORTS.includes(reasoningEffort))
    throw modelConfigError(
      provider,
      `settings.reasoningEffort must be one of ${EFFORTS.join(', ')}, got ${JSON.stringify(reasoningEffort)}`,
    );
  if (extraBody !== undefined && !isRecord(extraBody))
    throw modelConfigError(provider, 'settings.extraBody must be a plain object');
}

function range(provider: string, field: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw modelConfigError(
      provider,
      `settings.${field} must be between ${min} and ${max}, got ${show(value)}`,
    );
}

function whole(provider: string, field: string, value: unknown, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw modelConfigError(
      provider,
      `settings.${field} must be a whole number${min === 0 ? ' ≥ 0' : ''}, got ${show(value)}`,
    );
}

/**
 * The adapter's default settings overlaid with the request's: a field the request leaves
 * `undefined` keeps the default; `extraBody` objects are merged (request keys win).
 */
export function mergeSettings(
  defaults: ModelSettings | undefined,
  request: ModelSettings | undefined,
): ModelSettings | undefined {
  if (defaults === undefined) return request;
  if (request === undefined) return defaults;
  const merged: ModelSettings = { ...defaults };
  for (const [key, value] of Object.entries(request))
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  if (defaults.extraBody !== undefined && request.extraBody !== undefined)
    merged.extraBody = { ...defaults.extraBody, ...request.extraBody };
  return merged;
}

/**
 * The body fields of `settings`, unset ones left out: `temperature`, `top_p`, `max_tokens` (or
 * `max_completion_tokens`; 0 = omit), `stop` (when not empty), `seed`, `presence_penalty`,
 * `frequency_penalty`, `reasoning_effort`. `thinking` has no chat-completions field and is ignored.
 */
export function settingsFields(
  settings: ModelSettings | undefined,
  maxTokensField: MaxTokensField,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (settings === undefined) return fields;
  if (settings.temperature !== undefined) fields.temperature = settings.temperature;
  if (settings.topP !== undefined) fields.top_p = settings.topP;
  if (settings.maxTokens !== undefined && settings.maxTokens > 0)
    fields[maxTokensField] = settings.maxTokens;
  if (settings.stop !== undefined && settings.stop.length > 0) fields.stop = [...settings.stop];
  if (settings.seed !== undefined) fields.seed = settings.seed;
  if (settings.presencePenalty !== undefined) fields.presence_penalty = settings.presencePenalty;
  if (settings.frequencyPenalty !== undefined) fields.frequency_penalty = settings.frequencyPenalty;
  if (settings.reasoningEffort !== undefined) fields.reasoning_effort = settings.reasoningEffort;
  return fields;
}

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : showValue(value);
}
