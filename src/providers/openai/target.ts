import { modelConfigError } from '../../core/errors/provider-errors';
import { headerSecrets } from './chat-core';
import { checkBaseURL, optionalText, requireText } from './config-checks';
import type { OpenAIPreset } from './presets';

/** Where an OpenAI-compatible model sends its requests, and as whom. Internal. */
export interface OpenAITarget {
  readonly model: string;
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly organization: string | undefined;
}

/**
 * The model, base URL and credentials of an OpenAI-compatible chat or embedding model, checked:
 * a preset that needs a key refuses to start without one; `baseURL` overrides the preset's.
 * Internal.
 */
export function openaiTarget(
  provider: string,
  preset: OpenAIPreset | undefined,
  options: { model?: unknown; apiKey?: unknown; organization?: unknown; baseURL?: string },
): OpenAITarget {
  const model = requireText(provider, 'model', options.model);
  const apiKey = optionalText(provider, 'apiKey', options.apiKey);
  if (preset?.requiresKey === true && apiKey === undefined)
    throw modelConfigError(
      provider,
      `apiKey is required for ${preset.label}${preset.apiKeyEnv === undefined ? '' : ` (the CLI reads it from ${preset.apiKeyEnv})`}`,
    );
  const organization = optionalText(provider, 'organization', options.organization);
  const baseURL = options.baseURL ?? preset?.baseURL ?? '';
  return {
    model,
    apiKey,
    organization,
    baseURL: checkBaseURL(provider, 'baseURL', requireText(provider, 'baseURL', baseURL)),
  };
}

/** The headers of a target's requests (bearer key, organization, the caller's own) and the secrets to redact. Internal. */
export function openaiAuth(
  target: OpenAITarget,
  extra: Readonly<Record<string, string>>,
): { headers: Record<string, string>; secrets: string[] } {
  const headers: Record<string, string> = {};
  if (target.apiKey !== undefined) headers.authorization = `Bearer ${target.apiKey}`;
  if (target.organization !== undefined) headers['openai-organization'] = target.organization;
  Object.assign(headers, extra);
  const secrets = [
    ...(target.apiKey === undefined ? [] : [target.apiKey]),
    ...headerSecrets(extra),
  ];
  return { headers, secrets };
}
