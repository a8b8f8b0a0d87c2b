import { cancellationError, throwIfCancelled } from '../../model/cancellation';
import { ModelHTTPError } from '../../model/errors';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../model/model';
import { ModelProtocolError, ModelTransportError } from '../../model/provider-errors';
import type { ModelRequest } from '../../model/request';
import type { ModelResponse } from '../../model/response';
import { postJson, redact } from '../shared/http';
import { ResponseAssembler } from './assembler';
import { CallIdAllocator } from './call-ids';
import { parseGeminiError, withRetryInfo } from './errors';
import { resolveOptions, type GeminiOptions, type ResolvedGeminiOptions } from './options';
import { buildRequestBody } from './request';
import { readGeminiStream } from './stream';
import type { GeminiRequestBody } from './wire';

/**
 * Google Gemini through the Generative Language API (`generateContent`,
 * `streamGenerateContent?alt=sse`), or Vertex AI with a `baseURL` ending in
 * `…/publishers/google`. See docs/guides/providers/gemini.md.
 */
export class GeminiModel implements StreamingModel {
  /** `gemini:<model>`. */
  readonly name: string;
  private readonly config: ResolvedGeminiOptions;

  /** Validates `options`; throws `ModelConfigError` for anything invalid. */
  constructor(options: GeminiOptions) {
    this.config = resolveOptions(options);
    this.name = `${this.config.provider}:${this.config.model}`;
  }

  /** One `generateContent` call. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const body = buildRequestBody(request, this.config);
    return this.withDeadline(options.signal, async (signal, secrets, headers) => {
      const response = await this.post('generateContent', body, headers, secrets, signal);
      let text: string;
      try {
        text = await response.text();
      } catch (cause) {
        if (signal.aborted) throw cancellationError(signal);
        const detail = cause instanceof Error ? cause.message : String(cause);
        throw new ModelTransportError(this.config.provider, redact(detail, secrets), { cause });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (cause) {
        throw new ModelProtocolError(this.config.provider, 'the response is not valid JSON', {
          cause,
        });
      }
      const assembler = this.assembler(request);
      assembler.push(json);
      if (!assembler.answered)
        throw new ModelProtocolError(this.config.provider, 'the response has no candidates');
      return assembler.result();
    });
  }

  /** One `streamGenerateContent?alt=sse` call; the assembled response equals `generate`'s. */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const body = buildRequestBody(request, this.config);
    return this.withDeadline(options.signal, async (signal, secrets, headers) => {
      const response = await this.post(
        'streamGenerateContent?alt=sse',
        body,
        headers,
        secrets,
        signal,
      );
      const assembler = this.assembler(request);
      await readGeminiStream(response.body, assembler, onDelta, {
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
      });
    } catch (error) {
      throw ModelHTTPError.is(error) ? withRetryInfo(error) : error;
    }
  }

  private async credentials(): Promise<{ headers: Record<string, string>; secrets: string[] }> {
    const { apiKey, accessToken } = this.config;
    const headers = { ...this.config.headers };
    if (apiKey !== undefined) {
      headers['x-goog-api-key'] = apiKey;
      return { headers, secrets: [apiKey] };
    }
    const token = typeof accessToken === 'function' ? await accessToken() : (accessToken ?? '');
    if (typeof token !== 'string' || token === '')
      throw new ModelTransportError(this.config.provider, 'accessToken returned no token');
    headers.authorization = `Bearer ${token}`;
    return { headers, secrets: [token] };
  }

  /**
   * Runs `call` under the caller's signal and the adapter's whole-call timeout. The caller's
   * abort surfaces as its cancellation error; the timeout as a retryable `ModelTransportError`.
   */
  private async withDeadline<T>(
    outer: AbortSignal | undefined,
    call: (
      signal: AbortSignal,
      secrets: readonly string[],
      headers: Record<string, string>,
    ) => Promise<T>,
  ): Promise<T> {
    throwIfCancelled(outer);
    const { headers, secrets } = await this.credentials();
    const controller = new AbortController();
    const forward = () => {
      controller.abort(outer?.reason);
    };
    outer?.addEventListener('abort', forward, { once: true });
    const state: { timedOut?: Error } = {};
    const timeout = this.config.timeout;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            state.timedOut = new Error(`no complete response within ${timeout} ms`);
            controller.abort(state.timedOut);
          }, timeout)
        : undefined;
    try {
      return await call(controller.signal, secrets, headers);
    } catch (error) {
      // The cause is the timer's reason, not the cancellation it caused: a timeout is retryable.
      if (state.timedOut !== undefined && outer?.aborted !== true)
        throw new ModelTransportError(this.config.provider, state.timedOut.message, {
          cause: state.timedOut,
        });
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  }
}

/** Creates a {@link GeminiModel}: `gemini({ model: 'gemini-2.5-flash', apiKey })`. */
export function gemini(options: GeminiOptions): GeminiModel {
  return new GeminiModel(options);
}
