import { modelConfigError } from '../../core/errors/provider-errors';
import type { OpenAICapabilities } from '../openai/presets';

/** What Azure OpenAI chat completions accept (override per deployment with `capabilities`). */
export const AZURE_CAPABILITIES: OpenAICapabilities = Object.freeze({
  tools: true,
  structuredOutput: true,
  structuredOutputWithTools: true,
  strictTools: true,
  streamUsage: true,
});

const DATED = /^\d{4}-\d{2}-\d{2}(-preview)?$/;
const RESOURCE = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;

/** `apiVersion`, required and explicit: `v1` or a dated version (`2024-10-21`, `…-preview`). */
export function checkApiVersion(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw modelConfigError(
      'azure',
      'apiVersion is required: a dated version such as "2024-10-21" (deployment URLs) or "v1" (the v1 API)',
    );
  if (value !== 'v1' && !DATED.test(value))
    throw modelConfigError(
      'azure',
      `apiVersion ${JSON.stringify(value)} is neither "v1" nor a dated version like "2024-10-21" or "2025-04-01-preview"`,
    );
  return value;
}

/** The resource endpoint from `endpoint` or `resourceName` (exactly one). */
export function checkEndpoint(endpoint: unknown, resourceName: unknown): string {
  if ((endpoint === undefined) === (resourceName === undefined))
    throw modelConfigError(
      'azure',
      'set exactly one of endpoint ("https://<resource>.openai.azure.com") or resourceName',
    );
  if (resourceName !== undefined) {
    if (typeof resourceName !== 'string' || !RESOURCE.test(resourceName))
      throw modelConfigError('azure', 'resourceName must be letters, digits and "-"');
    return `https://${resourceName}.openai.azure.com`;
  }
  if (typeof endpoint !== 'string' || endpoint === '')
    throw modelConfigError('azure', 'endpoint must be a non-empty URL');
  if (/\/openai(\/|$)/.test(endpoint))
    throw modelConfigError(
      'azure',
      'endpoint is the resource URL ("https://<resource>.openai.azure.com") without the /openai/… path; the adapter adds it',
    );
  return endpoint;
}

/**
 * The chat-completions URL: `{endpoint}/openai/v1/chat/completions` for `v1`, otherwise
 * `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={apiVersion}`.
 */
export function azureURL(endpoint: string, deployment: string, apiVersion: string): string {
  if (apiVersion === 'v1') return `${endpoint}/openai/v1/chat/completions`;
  return `${endpoint}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(apiVersion)}`;
}
