import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';
import { ModelHTTPError } from '../../core/errors/errors';
import type { DeltaHandler, GenerateOptions, StreamingModel } from '../../core/contract/model';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import { expectEventStream, readBodyJson } from '../shared/body';
import { CallScope } from '../shared/call-scope';
import { postJson } from '../shared/http';
import { rateLimitOf, withRateLimit } from '../shared/rate-limit-headers';
import { STOP, readSse } from '../shared/sse';
import { parseOpenAIError, refineHttpError } from '../openai/errors';
import { stripAddedNulls } from '../openai/strict-nulls';
import {
  PROVIDER,
  resolveOptions,
  type OpenAIResponsesOptions,
  type ResponsesConfig,
} from './options';
import { parseResponse } from './output';
import { buildBody } from './request';
import { ResponsesStreamAssembler } from './stream';

/**
 * The OpenAI Responses API (`POST {baseURL}/responses`) as a Golem `StreamingModel`: function
 * tools, native structured output (`text.format`), reasoning items replayed as encrypted content,
 * provider-hosted tools (web search, file search, code interpreter) recorded as evidence, and
 * optional server-side conversation state (`previousResponseId: 'auto'`). Stateless by default
 * (`store: false`): the run's messages are the conversation. Configuration is validated here
 * (a model `ConfigError`); requests before anything is sent. HTTP errors are `ModelHTTPError`
 * (408/429/5xx retryable, a 429 `insufficient_quota` not); transport failures and the adapter's
 * timeout are retryable `ModelTransportError`s; a failed response (`response.failed`, an `error`
 * event, `status: failed`) is a `ResponseFailedError`, retryable by its code; a stream cut before
 * its terminal event is a `StreamInterruptedError`; malformed bodies and events are
 * `ModelProtocolError`s. The API key is redacted from every error.
 */
export class OpenAIResponsesModel implements StreamingModel {
  /** `openai-responses:<model>`. */
  readonly name: string;
  /** `openai-responses`. */
  readonly provider = PROVIDER;
  readonly model: string;
  private readonly config: ResponsesConfig;

  constructor(options: OpenAIResponsesOptions) {
    this.config = resolveOptions(options);
    this.model = this.config.model;
    this.name = `${PROVIDER}:${this.model}`;
  }

  /** One response. */
  async generate(request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> {
    const body = buildBody(this.config, request, false);
    return this.scope(options).run(async (signal) => {
      const response = await this.send(body, signal);
      const rateLimit = rateLimitOf(response.headers);
      const json = await readBodyJson(response, {
        provider: PROVIDER,
        maxBytes: this.config.maxResponseBytes,
        signal,
        secrets: this.config.secrets,
      });
      const parsed = parseResponse(json, this.model, this.config.secrets);
      return withRateLimit(this.finalise(request, parsed), rateLimit);
    });
  }

  /**
   * One streamed response: deltas to `onDelta` in order (awaited; an error it throws is rethrown
   * as-is), then the assembled response. Reading stops at `response.completed` /
   * `response.incomplete` without waiting for the server to close the connection.
   */
  async stream(
    request: ModelRequest,
    onDelta: DeltaHandler,
    options?: GenerateOptions,
  ): Promise<ModelResponse> {
    const body = buildBody(this.config, request, true);
    const handlerErrors = new WeakSet<object>();
    return this.scope(options).run(
      async (signal) => {
        const response = await this.send(body, signal);
        const rateLimit = rateLimitOf(response.headers);
        await expectEventStream(response, PROVIDER);
        const assembler = new ResponsesStreamAssembler(this.model, this.config.secrets);
        await readSse(
          response.body,
          async (event) => {
            const delta = assembler.push(event);
            if (delta !== undefined) {
              try {
                await onDelta(delta);
              } catch (error) {
                if (typeof error === 'object' && error !== null) handlerErrors.add(error);
                throw error;
              }
            }
            return assembler.ended ? STOP : undefined;
          },
          {
            provider: PROVIDER,
            signal,
            maxLineBytes: this.config.maxLineBytes,
            settled: () => assembler.ended,
            secrets: this.config.secrets,
          },
        );
        return withRateLimit(this.finalise(request, assembler.finish()), rateLimit);
      },
      (error) => typeof error === 'object' && error !== null && handlerErrors.has(error),
    );
  }

  private scope(options: GenerateOptions | undefined): CallScope {
    return new CallScope({
      provider: PROVIDER,
      timeout: this.config.timeout,
      signal: options?.signal,
    });
  }

  private async send(body: unknown, signal: AbortSignal): Promise<Response> {
    try {
      return await postJson({
        provider: PROVIDER,
        url: this.config.url,
        headers: { ...this.config.headers },
        body,
        signal,
        fetch: this.config.fetch,
        parseError: parseOpenAIError,
        secrets: this.config.secrets,
        errorBodyTimeout: this.config.errorBodyTimeout,
      });
    } catch (error) {
      if (ModelHTTPError.is(error)) throw refineHttpError(error);
      throw error;
    }
  }

  /**
   * Strict mode makes the model write `null` for optional properties it would have left out; they
   * are removed again (against the original schemas) from the structured output and, with
   * `strictSchemas`, from tool arguments.
   */
  private finalise(request: ModelRequest, response: ModelResponse): ModelResponse {
    let message = response.message;
    const schema = request.outputSchema;
    if (isRecord(schema) && message.content !== undefined && message.toolCalls === undefined) {
      const content = stripAddedNulls(message.content, schema);
      if (content !== message.content) message = { ...message, content };
    }
    if (this.config.strictSchemas && message.toolCalls !== undefined) {
      const schemas = new Map<string, JsonSchema>(request.tools.map((t) => [t.name, t.schema]));
      message = {
        ...message,
        toolCalls: message.toolCalls.map((call) => {
          const original = schemas.get(call.name);
          return original === undefined
            ? call
            : { ...call, args: stripAddedNulls(call.args, original) };
        }),
      };
    }
    return message === response.message ? response : { ...response, message };
  }
}

/** An OpenAI Responses API model: `openaiResponses({ model: 'gpt-5', apiKey })`. */
export function openaiResponses(options: OpenAIResponsesOptions): OpenAIResponsesModel {
  return new OpenAIResponsesModel(options);
}
