import { describeError } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import { modelConfigError, ModelTransportError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import type { ChatAuth, ChatEndpoint } from '../openai/chat-core';
import { chatEndpoint, generateChat, headerSecrets, streamChat } from '../openai/chat-core';
import type { CommonChatOptions } from '../openai/config-checks';
import { checkBaseURL, checkCommon, optionalText, requireText } from '../openai/config-checks';
import { redact, redactCause } from '../../core/kit/redact';
import { AZURE_CAPABILITIES, azureURL, checkApiVersion, checkEndpoint } from './addressing';

const PROVIDER = 'azure';

/** Configuration of an Azure OpenAI chat deployment. */
export interface AzureOptions extends CommonChatOptions {
  /** Resource endpoint, `https://<resource>.openai.azure.com` (exclusive with `resourceName`). */
  endpoint?: string;
  /** Resource name; the endpoint becomes `https://<resourceName>.openai.azure.com`. */
  resourceName?: string;
  /** The deployment name (what you named the model deployment in Azure). */
  deployment: string;
  /**
   * Required, explicit: a dated version such as `2024-10-21` or `2025-04-01-preview` (classic
   * `/openai/deployments/{deployment}/chat/completions?api-version=…`), or `v1` for the v1 API
   * (`/openai/v1/chat/completions` with the deployment as `model`).
   */
  apiVersion: string;
  /** Resource key, sent as the `api-key` header. Exactly one of apiKey, azureADToken, getToken. */
  apiKey?: string;
  /** A Microsoft Entra ID access token, sent as `Authorization: Bearer …`. */
  azureADToken?: string;
  /** Called before every request for a fresh Entra ID token (e.g. from `@azure/identity`). */
  getToken?: () => string | Promise<string>;
}

/**
 * A chat model deployed on Azure OpenAI. Same wire format as OpenAI chat completions (the request
 * and response translation is the OpenAI adapter's), with Azure's addressing and authentication.
 * Configuration is validated here and throws a model `ConfigError`; no environment variable is
 * read.
 */
export class AzureChatModel implements StreamingModel {
  /** `azure:<deployment>`. */
  readonly name: string;
  readonly provider = PROVIDER;
  readonly deployment: string;
  readonly apiVersion: string;
  /** The chat-completions URL every call goes to. */
  readonly url: string;
  private readonly endpoint: ChatEndpoint;

  constructor(options: AzureOptions) {
    if (!isRecord(options))
      throw modelConfigError(PROVIDER, 'options must be an object (deployment, apiVersion…)');
    this.deployment = requireText(PROVIDER, 'deployment', options.deployment);
    this.name = `${PROVIDER}:${this.deployment}`;
    this.apiVersion = checkApiVersion(options.apiVersion);
    const base = checkEndpoint(options.endpoint, options.resourceName);
    this.url = azureURL(checkBaseURL(PROVIDER, 'endpoint', base), this.deployment, this.apiVersion);
    const common = checkCommon(PROVIDER, options, AZURE_CAPABILITIES, 'max_tokens');
    const extra = headerSecrets(common.headers);
    const auth = authFrom(options, extra);
    this.endpoint = chatEndpoint(common, {
      provider: PROVIDER,
      url: this.url,
      model: this.apiVersion === 'v1' ? this.deployment : undefined,
      auth: async () => {
        const { headers, secrets } = await auth();
        return { headers: { ...headers, ...common.headers }, secrets: [...secrets, ...extra] };
      },
    });
  }

  /** One chat completion. */
  generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
    return generateChat(this.endpoint, request, options);
  }

  /** One streamed chat completion; `onDelta` receives fragments in order. */
  stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options?: GenerateOptions,
  ): Promise<ModelResponse> {
    return streamChat(this.endpoint, request, onDelta, options);
  }
}

/** An Azure OpenAI chat model: `azure({ resourceName, deployment, apiVersion, apiKey })`. */
export function azure(options: AzureOptions): AzureChatModel {
  return new AzureChatModel(options);
}

/**
 * The credentials of every call. A `getToken` failure is reported with its message and cause
 * chain redacted of the tokens it issued before and of the credential headers configured.
 */
export function authFrom(
  options: Pick<AzureOptions, 'apiKey' | 'azureADToken' | 'getToken'>,
  extra: readonly string[],
): () => Promise<ChatAuth> {
  const apiKey = optionalText(PROVIDER, 'apiKey', options.apiKey);
  const token = optionalText(PROVIDER, 'azureADToken', options.azureADToken);
  const getToken = options.getToken;
  if (getToken !== undefined && typeof getToken !== 'function')
    throw modelConfigError(PROVIDER, 'getToken must be a function returning a token');
  const given = [apiKey, token, getToken].filter((v) => v !== undefined).length;
  if (given !== 1)
    throw modelConfigError(
      PROVIDER,
      `set exactly one of apiKey, azureADToken or getToken (got ${given === 0 ? 'none' : given})`,
    );
  if (apiKey !== undefined)
    return () => Promise.resolve({ headers: { 'api-key': apiKey }, secrets: [apiKey] });
  if (token !== undefined) return () => Promise.resolve(bearer(token));
  const issued: string[] = [];
  return async () => {
    let fresh: unknown;
    try {
      fresh = await (getToken as () => string | Promise<string>)();
    } catch (cause) {
      const secrets = [...issued, ...extra];
      throw new ModelTransportError(
        PROVIDER,
        `getToken failed: ${redact(describeError(cause), secrets)}`,
        { cause: redactCause(cause, secrets) },
      );
    }
    if (typeof fresh !== 'string' || fresh === '')
      throw modelConfigError(PROVIDER, 'getToken must return a non-empty token string');
    if (!issued.includes(fresh)) issued.splice(0, issued.length, ...issued.slice(-3), fresh);
    return bearer(fresh);
  };
}

function bearer(token: string): ChatAuth {
  return { headers: { authorization: `Bearer ${token}` }, secrets: [token] };
}
