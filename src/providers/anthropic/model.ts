import { throwIfCancelled } from '../../core/errors/cancellation';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import { ModelProtocolError, StreamInterruptedError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import { expectEventStream, readBodyText } from '../shared/body';
import { CallScope } from '../shared/call-scope';
import { postJson } from '../shared/http';
import type { ThinkingOrigin } from '../shared/provenance';
import { redact, redactCause } from '../../core/kit/redact';
import { rateLimitOf, withRateLimit } from '../shared/rate-limit-headers';
import { readSse } from '../shared/sse';
import { CONTEXT_MANAGEMENT_BETA } from './context-management';
import { decodeMessage } from './decode-response';
import { encodeRequest } from './encode-request';
import { parseErrorBody } from './errors';
import { PROVIDER, resolveOptions, type AnthropicConfig, type AnthropicOptions } from './options';
import { StreamAssembler } from './stream-assembler';
import type { WireRequest } from './wire';

/**
 * The Anthropic Messages API (`POST {baseURL}/v1/messages`) as a Golem `StreamingModel`.
 * Configuration is validated at construction (a model `ConfigError`); request settings when a call
 * starts, before anything is sent. HTTP errors are `ModelHTTPError` (retryable for 408, 429 and
 * 5xx, including 529 overloaded) with the API's error type as `code`; transport failures and the
 * adapter's own timeout are retryable `ModelTransportError`s; a stream cut before its stop reason
 * and final usage arrived is a `StreamInterruptedError`; malformed bodies and frames, and a
 * streaming answer that is not an event stream, are `ModelProtocolError`s; a body over
 * `maxResponseBytes` is a `ResponseTooLargeError`. Redirects to another origin are refused
 * (`ModelRedirectError`). The API key is sent as `x-api-key` and redacted from every error.
 */
export class AnthropicModel implements StreamingModel {
  /** `anthropic:<model>`. */
  readonly name: string;
  private readonly config: AnthropicConfig;
  /** Stamped on the thinking this adapter decodes (see docs/guides/thinking.md). */
  private readonly origin: ThinkingOrigin;

  constructor(options: AnthropicOptions) {
    this.config = resolveOptions(options);
    this.name = `${PROVIDER}:${this.config.model}`;
    this.origin = { provider: PROVIDER, model: this.config.model };
  }

  /** Sends one request and returns the normalised message. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const body = encodeRequest(this.config, request, false);
    const secrets = [this.config.apiKey];
    return this.call(
      body,
      options.signal,
      () => false,
      async (response, signal) => {
        const text = await readBodyText(response, {
          provider: PROVIDER,
          maxBytes: this.config.maxResponseBytes,
          signal,
          secrets,
        });
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (cause) {
          throw new ModelProtocolError(PROVIDER, 'the response body is not valid JSON', {
            cause: redact(text, secrets) === text ? cause : redactCause(cause, secrets),
          });
        }
        return decodeMessage(json, secrets, this.origin);
      },
    );
  }

  /**
   * Streams one request (`stream: true`): `onDelta` receives text, tool-call and thinking
   * fragments in arrival order and is awaited before reading on; an error it throws stops the
   * stream and is rethrown as-is. Resolves with the assembled response at `message_stop`,
   * without waiting for the server to close the connection; a stream cut after the
   * `message_delta` that carries the stop reason and final usage completes too.
   */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options: GenerateOptions = {},
  ): Promise<ModelResponse> {
    const body = encodeRequest(this.config, request, true);
    let handlerFailure: { error: unknown } | undefined;
    const handler: DeltaHandler = async (delta) => {
      try {
        await onDelta(delta);
      } catch (error) {
        handlerFailure = { error };
        throw error;
      }
    };
    const secrets = [this.config.apiKey];
    const assembler = new StreamAssembler(handler, secrets, this.origin);
    const fromHandler = (error: unknown): boolean => handlerFailure?.error === error;
    return this.call(body, options.signal, fromHandler, async (response, signal) => {
      await expectEventStream(response, PROVIDER);
      await readSse(
        response.body,
        (event) => {
          throwIfCancelled(signal); // several events can arrive in one read
          return assembler.onEvent(event);
        },
        {
          provider: PROVIDER,
          signal,
          maxLineBytes: this.config.maxLineBytes,
          settled: () => assembler.settled,
          secrets,
        },
      );
      throwIfCancelled(signal);
      if (!assembler.settled)
        throw new StreamInterruptedError(PROVIDER, 'the stream ended before message_stop', {
          retryable: true,
        });
      return assembler.response();
    });
  }

  /**
   * POSTs `body` and hands the response to `read`, within one {@link CallScope}: the caller's
   * signal and the adapter's timeout, released when the call settles. Any failure aborts the
   * request (so the upstream body is released). Errors `asIs` accepts (the delta handler's) are
   * rethrown unchanged; otherwise an abort of the caller's signal surfaces as its cancellation
   * error and the adapter's own timeout as a retryable transport error. The result carries the
   * rate-limit headers (`rateLimit`), read as soon as the response arrived.
   */
  private async call(
    body: WireRequest,
    callerSignal: AbortSignal | undefined,
    asIs: (error: unknown) => boolean,
    read: (response: Response, signal: AbortSignal) => Promise<ModelResponse>,
  ): Promise<ModelResponse> {
    const scope = new CallScope({
      provider: PROVIDER,
      timeout: this.config.timeout,
      signal: callerSignal,
    });
    return scope.run(async (signal) => {
      const response = await postJson({
        provider: PROVIDER,
        url: this.config.url,
        headers: this.headers(body),
        body,
        signal,
        fetch: this.config.fetch,
        parseError: parseErrorBody,
        secrets: [this.config.apiKey],
        errorBodyTimeout: this.config.errorBodyTimeout,
      });
      const rateLimit = rateLimitOf(response.headers);
      return withRateLimit(await read(response, signal), rateLimit);
    }, asIs);
  }

  /**
   * The request headers. `anthropic-beta` lists the configured betas, plus the context-management
   * beta when the body carries `context_management` (added once, after the configured ones).
   */
  private headers(body: WireRequest): Record<string, string> {
    const headers: Record<string, string> = {
      accept: body.stream ? 'text/event-stream' : 'application/json',
      'x-api-key': this.config.apiKey,
      'anthropic-version': this.config.version,
    };
    const betas = [...this.config.betas];
    if (body.context_management !== undefined && !betas.includes(CONTEXT_MANAGEMENT_BETA))
      betas.push(CONTEXT_MANAGEMENT_BETA);
    if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
    return headers;
  }
}

/** Creates an {@link AnthropicModel}: `anthropic({ model: 'claude-sonnet-4-5', apiKey })`. */
export function anthropic(options: AnthropicOptions): AnthropicModel {
  return new AnthropicModel(options);
}
