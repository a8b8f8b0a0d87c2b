import { ModelHTTPError } from '../../core/errors/errors';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import { ModelProtocolError, ModelTransportError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import { expectEventStream, readBodyText } from '../shared/body';
import { CallScope } from '../shared/call-scope';
import { postJson } from '../shared/http';
import { redact, redactCause } from '../../core/kit/redact';
import { ResponseAssembler } from './assembler';
import { CallIdAllocator } from './call-ids';
import { parseGeminiError, withRetryInfo } from './errors';
import { resolveOptions, type GeminiOptions, type ResolvedGeminiOptions } from './options';
import { buildRequestBody } from './request';
import { readGeminiStream } from './stream';
import type { GeminiRequestBody } from './wire';

/** Configured header names whose values are credentials, redacted from errors like the key. */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|credential/i;

const NONE = (): boolean => false;

/**
 * Google Gemini through the Generative Language API (`generateContent`,
 * `streamGenerateContent?alt=sse`), or Vertex AI with a `baseURL` ending in
 * `…/publishers/google`. See docs/guides/providers/gemini.md.
 */
export class GeminiModel implements StreamingModel {
  /** `gemini:<model>`. */
  readonly name: string;
  private readonly config: ResolvedGeminiOptions;

  /** Validates `options`; throws a model `ConfigError` for anything invalid. */
  constructor(options: GeminiOptions) {
    this.config = resolveOptions(options);
    this.name = `${this.config.provider}:${this.config.model}`;
  }

  /** One `generateContent` call. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const body = buildRequestBody(request, this.config);
    return this.call(options.signal, NONE, async (signal, secrets, headers) => {
      const response = await this.post('generateContent', body, headers, secrets, signal);
      const text = await readBodyText(response, {
        provider: this.config.provider,
        maxBytes: this.config.maxResponseBytes,
        signal,
        secrets,
      });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new ModelProtocolError(this.config.provider, 'the response is not valid JSON', {
          cause: redact(text, secrets) === text ? cause : redactCause(cause, secrets),
        });
      }
      const assembler = this.assembler(request);
      assembler.push(json);
      if (!assembler.answered)
        throw new ModelProtocolError(this.config.provider, 'the response has no candidates');
      return assembler.result();
    });
  }

  /**
   * One `streamGenerateContent?alt=sse` call; the assembled response equals `generate`'s. It
   * completes at the chunk carrying the `finishReason` (Gemini has no end-of-stream event),
   * without waiting for the server to close the connection. An error `onDelta` throws is
   * rethrown as-is.
   */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const body = buildRequestBody(request, this.config);
    let handlerFailure: { error: unknown } | undefined;
    const handler: DeltaHandler = async (delta) => {
      try {
        await onDelta(delta);
      } catch (error) {
        handlerFailure = { error };
        throw error;
      }
    };
    const fromHandler = (error: unknown): boolean => handlerFailure?.error === error;
    return this.call(options.signal, fromHandler, async (signal, secrets, headers) => {
      const response = await this.post(
        'streamGenerateContent?alt=sse',
        body,
        headers,
        secrets,
        signal,
      );
      await expectEventStream(response, this.config.provider);
      const assembler = this.assembler(request);
      await readGeminiStream(response.body, assembler, handler, {
        provider: this.config.provider,
        signal,
        maxLineBytes: this.config.maxLineBytes,
        secrets,
      });
      return assembler.result();
    });
  }

  private assembler(request: ModelRequest): ResponseAssembler {
    return new ResponseAssembler(
      this.config.provider,
      this.config.model,
      new CallIdAllocator(request.messages),
    );
  }

  private async post(
    method: string,
    body: GeminiRequestBody,
    headers: Record<string, string>,
    secrets: readonly string[],
    signal: AbortSignal,
  ): Promise<Response> {
    try {
      return await postJson({
        provider: this.config.provider,
        url: `${this.config.baseURL}/models/${this.config.model}:${method}`,
        headers,
        body,
        signal,
        fetch: this.config.fetch,
        parseError: parseGeminiError,
        secrets,
        errorBodyTimeout: this.config.errorBodyTimeout,
      });
    } catch (error) {
      throw ModelHTTPError.is(error) ? withRetryInfo(error) : error;
    }
  }

  /**
   * The request headers and the values to redact from errors: the API key or access token, and
   * the values of configured headers that look like credentials.
   */
  private async credentials(): Promise<{ headers: Record<string, string>; secrets: string[] }> {
    const { apiKey, accessToken } = this.config;
    const headers = { ...this.config.headers };
    const secrets = Object.entries(headers)
      .filter(([name]) => CREDENTIAL_HEADER.test(name))
      .map(([, value]) => value);
    if (apiKey !== undefined) {
      headers['x-goog-api-key'] = apiKey;
      return { headers, secrets: [apiKey, ...secrets] };
    }
    const token = typeof accessToken === 'function' ? await accessToken() : (accessToken ?? '');
    if (typeof token !== 'string' || token === '')
      throw new ModelTransportError(this.config.provider, 'accessToken returned no token');
    headers.authorization = `Bearer ${token}`;
    return { headers, secrets: [token, ...secrets] };
  }

  /**
   * Runs `work` within one {@link CallScope}: the caller's signal and the adapter's whole-call
   * timeout, released (timer cleared, listener removed) when the call settles. The caller's
   * abort surfaces as its cancellation error, the timeout as a retryable `ModelTransportError`;
   * errors `asIs` accepts (the delta handler's) are rethrown unchanged.
   */
  private async call<T>(
    outer: AbortSignal | undefined,
    asIs: (error: unknown) => boolean,
    work: (
      signal: AbortSignal,
      secrets: readonly string[],
      headers: Record<string, string>,
    ) => Promise<T>,
  ): Promise<T> {
    const scope = new CallScope({
      provider: this.config.provider,
      timeout: this.config.timeout,
      signal: outer,
    });
    return scope.run(async (signal) => {
      const { headers, secrets } = await this.credentials();
      return work(signal, secrets, headers);
    }, asIs);
  }
}

/** Creates a {@link GeminiModel}: `gemini({ model: 'gemini-2.5-flash', apiKey })`. */
export function gemini(options: GeminiOptions): GeminiModel {
  return new GeminiModel(options);
}
