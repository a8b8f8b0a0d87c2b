import type { ConverseCommandInput, InferenceConfiguration } from '@aws-sdk/client-bedrock-runtime';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings, ThinkingSettings } from '../../core/contract/request';
import { PROVIDER } from './sdk';

const THINKING_MODES = ['adaptive', 'enabled', 'disabled'] as const;
const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

/**
 * Checks the tuning fields Bedrock uses (spec §23: temperature and topP in [0, 1], maxTokens an
 * integer >= 0, stop a list of strings, thinking and reasoning effort well formed) and throws
 * a model `ConfigError` naming `where` and the field. Unset (`undefined`) fields are fine.
 */
export function validateSettings(settings: ModelSettings, where: string): void {
  const fail = (message: string): never => {
    throw modelConfigError(PROVIDER, `${where}: ${message}`);
  };
  checkUnit(settings.temperature, 'temperature', fail);
  checkUnit(settings.topP, 'topP', fail);
  if (
    settings.maxTokens !== undefined &&
    !(Number.isInteger(settings.maxTokens) && settings.maxTokens >= 0)
  )
    fail(`maxTokens must be an integer >= 0 (0 = provider default), got ${settings.maxTokens}`);
  if (
    settings.stop !== undefined &&
    !(Array.isArray(settings.stop) && settings.stop.every((s) => typeof s === 'string'))
  )
    fail('stop must be a list of strings');
  if (
    settings.reasoningEffort !== undefined &&
    !(EFFORTS as readonly string[]).includes(settings.reasoningEffort)
  )
    fail(`reasoningEffort must be one of ${EFFORTS.join(', ')}`);
  if (settings.thinking !== undefined) checkThinking(settings.thinking, fail);
}

function checkUnit(value: number | undefined, name: string, fail: (m: string) => never): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    fail(`${name} must be a number in [0, 1], got ${String(value)}`);
}

function checkThinking(thinking: ThinkingSettings, fail: (m: string) => never): void {
  if (!(THINKING_MODES as readonly string[]).includes(thinking.mode))
    fail(`thinking.mode must be one of ${THINKING_MODES.join(', ')}`);
  const budget = thinking.budgetTokens;
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0))
    fail(`thinking.budgetTokens must be a positive integer, got ${String(budget)}`);
  if (thinking.mode === 'enabled' && budget === undefined)
    fail('thinking.mode "enabled" needs budgetTokens');
}

/** The request's settings merged field by field over the adapter's defaults. */
export function mergeSettings(defaults: ModelSettings, request: ModelSettings = {}): ModelSettings {
  const merged: ModelSettings = { ...defaults };
  for (const [key, value] of Object.entries(request) as [keyof ModelSettings, unknown][])
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

/** The parts of a Converse input that come from settings. */
export type SettingsFields = Pick<
  ConverseCommandInput,
  'inferenceConfig' | 'additionalModelRequestFields' | 'outputConfig'
>;

/**
 * Compiles settings to Converse fields: `inferenceConfig` {maxTokens (0 omitted), temperature,
 * topP, stopSequences} only when something is set; thinking to Anthropic-on-Bedrock
 * `additionalModelRequestFields.thinking` (merged over `extraFields`); reasoning effort to
 * `outputConfig.effort` (`minimal` is sent as `low`). seed and the penalties have no Converse
 * field and are not sent.
 */
export function settingsFields(
  settings: ModelSettings,
  extraFields: Record<string, unknown> | undefined,
): SettingsFields {
  const out: SettingsFields = {};
  const inference: InferenceConfiguration = {};
  if (settings.maxTokens !== undefined && settings.maxTokens > 0)
    inference.maxTokens = settings.maxTokens;
  if (settings.temperature !== undefined) inference.temperature = settings.temperature;
  if (settings.topP !== undefined) inference.topP = settings.topP;
  if (settings.stop !== undefined && settings.stop.length > 0)
    inference.stopSequences = [...settings.stop];
  if (Object.keys(inference).length > 0) out.inferenceConfig = inference;

  const additional: Record<string, unknown> = { ...extraFields };
  if (settings.thinking !== undefined) additional.thinking = thinkingField(settings.thinking);
  if (Object.keys(additional).length > 0)
    out.additionalModelRequestFields = additional as SettingsFields['additionalModelRequestFields'];

  if (settings.reasoningEffort !== undefined)
    out.outputConfig = {
      effort: settings.reasoningEffort === 'minimal' ? 'low' : settings.reasoningEffort,
    };
  return out;
}

function thinkingField(thinking: ThinkingSettings): Record<string, unknown> {
  if (thinking.mode === 'enabled') return { type: 'enabled', budget_tokens: thinking.budgetTokens };
  return { type: thinking.mode };
}
