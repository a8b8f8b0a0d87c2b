import { cancellationError, throwIfCancelled } from '../../model/cancellation';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../model/model';
import {
  ModelProtocolError,
  ModelTransportError,
  StreamInterruptedError,
} from '../../model/provider-errors';
import type { ModelRequest } from '../../model/request';
import type { ModelResponse } from '../../model/response';
import { postJson } from '../shared/http';
import { readSse } from '../shared/sse';
import { decodeMessage } from './decode-response';
import { encodeRequest } from './encode-request';
import { parseErrorBody } from './errors';
import { PROVIDER, resolveOptions, type AnthropicConfig, type AnthropicOptions } from './options';
import { StreamAssembler, StopReading } from './stream-assembler';
import type { WireRequest } from './wire';

/**
 * The Anthropic Messages API (`POST {baseURL}/v1/messages`) as a Golem `StreamingModel`.
 * Configuration is validated at construction (`ModelConfigError`); request settings when a call
 * starts, before anything is sent. HTTP errors are `ModelHTTPError` (retryable for 408, 429 and
 * 5xx, including 529 overloaded) with the API's error type as `code`; transport failures and the
 * adapter's own timeout are retryable `ModelTransportError`s; a stream without `message_stop`
 * is a `StreamInterruptedError`; malformed bodies and frames are `ModelProtocolError`s. The API
 * key is sent as `x-api-key` and redacted from every error.
 */
export class AnthropicModel implements StreamingModel {
  /** `anthropic:<model>`. */
  readonly name: string;
  private readonly config: AnthropicConfig;

  constructor(options: AnthropicOptions) {
    this.config = resolveOptions(options);
    this.name = `${PROVIDER}:${this.config.model}`;
  }

  /** Sends one request and returns the normalised message. */
  async generate(request: ModelRequest, options: GenerateOptions = {}): Promise<ModelResponse> {
    const body = encodeRequest(this.config, request, false);
    return this.call(
      body,
      options.signal,
      () => false,
      async (response) => {
        let text: string;
        try {
          text = await response.text();
        } catch (cause) {
          throw new ModelTransportError(PROVIDER, 'the response body could not be read', { cause });
        }
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch (cause) {
          throw new ModelProtocolError(PROVIDER, 'the response body is not valid JSON', { cause });
        }
        return decodeMessage(json, [this.config.apiKey]);
      },
    );
  }

  /**
   * Streams one request (`stream: true`): `onDelta` receives text, tool-call and thinking
   * fragments in arrival order and is awaited before reading on; an error it throws stops the
   * stream and is rethrown as-is. Resolves with the assembled response once `message_stop`
   * arrives.
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
    const assembler = new StreamAssembler(handler, [this.config.apiKey]);
    const fromHandler = (error: unknown): boolean => handlerFailure?.error === error;
    return this.call(body, options.signal, fromHandler, async (response, signal) => {
      try {
        await readSse(
          response.body,
          (event) => {
            throwIfCancelled(signal); // several events can arrive in one read
            return assembler.onEvent(event);
          },
          { provider: PROVIDER, signal, maxLineBytes: this.config.maxLineBytes },
        );
      } catch (error) {
        if (!StopReading.is(error)) throw error;
      }
      throwIfCancelled(signal);
      if (!assembler.stopped)
        throw new StreamInterruptedError(PROVIDER, 'the stream ended before message_stop', {
          retryable: true,
        });
      return assembler.response();
    });
  }

  /**
   * POSTs `body` and hands the response to `read`. Any failure aborts the request (so the
   * upstream body is released). Errors `asIs` accepts (the delta handler's) are rethrown
   * unchanged; otherwise an abort of the caller's signal surfaces as its cancellation error and
   * the adapter's own timeout as a retryable transport error.
   */
  private async call<T>(
    body: WireRequest,
    callerSignal: AbortSignal | undefined,
    asIs: (error: unknown) => boolean,
    read: (response: Response, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    throwIfCancelled(callerSignal);
    const controller = new AbortController();
    const signals = [controller.signal];
    if (callerSignal !== undefined) signals.push(callerSignal);
    const timeout = this.config.timeout > 0 ? AbortSignal.timeout(this.config.timeout) : undefined;
    if (timeout !== undefined) signals.push(timeout);
    const signal = AbortSignal.any(signals);
    try {
      const response = await postJson({
        provider: PROVIDER,
        url: this.config.url,
        headers: this.headers(body.stream),
        body,
        signal,
        fetch: this.config.fetch,
        parseError: parseErrorBody,
        secrets: [this.config.apiKey],
      });
      return await read(response, signal);
    } catch (error) {
      controller.abort();
      if (asIs(error)) throw error;
      if (callerSignal?.aborted === true) throw cancellationError(callerSignal);
      if (timeout?.aborted === true)
        throw new ModelTransportError(
          PROVIDER,
          `no complete response within the adapter timeout of ${this.config.timeout} ms`,
        );
      throw error;
    }
  }

  private headers(stream: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      accept: stream ? 'text/event-stream' : 'application/json',
      'x-api-key': this.config.apiKey,
      'anthropic-version': this.config.version,
    };
    if (this.config.betas.length > 0) headers['anthropic-beta'] = this.config.betas.join(',');
    return headers;
  }
}

/** Creates an {@link AnthropicModel}: `anthropic({ model: 'claude-sonnet-4-5', apiKey })`. */
export function anthropic(options: AnthropicOptions): AnthropicModel {
  return new AnthropicModel(options);
}
