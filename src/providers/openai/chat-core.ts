import { cancellationError, isCancellation, throwIfCancelled } from '../../model/cancellation';
import { ModelHTTPError } from '../../model/errors';
import { isRecord } from '../../model/guards';
import type { JsonSchema } from '../../model/json';
import type { DeltaHandler, GenerateOptions } from '../../model/model';
import { ModelProtocolError, ModelTransportError } from '../../model/provider-errors';
import type { ModelRequest } from '../../model/request';
import type { ModelResponse } from '../../model/response';
import type { FetchLike } from '../shared/http';
import { postJson } from '../shared/http';
import { readSse } from '../shared/sse';
import { parseOpenAIError, refineHttpError } from './errors';
import type { ChatBodyConfig } from './request-body';
import { buildChatBody } from './request-body';
import { parseChatCompletion } from './response';
import { ChatStreamAssembler } from './stream';
import { stripAddedNulls } from './strict-nulls';

/** Request headers for one call, and the secrets in them that must never reach an error. */
export interface ChatAuth {
  headers: Record<string, string>;
  secrets: string[];
}

/** A chat-completions endpoint: where to POST, how to authenticate, how to encode. */
export interface ChatEndpoint extends ChatBodyConfig {
  /** Full URL of the chat-completions resource (query string included). */
  readonly url: string;
  /** Headers for the next call (may fetch a fresh token). */
  readonly auth: () => ChatAuth | Promise<ChatAuth>;
  readonly fetch: FetchLike | undefined;
  /** Milliseconds before a call is aborted with `DeadlineExceededError`; 0 = no limit. */
  readonly timeout: number;
  /** Longest accepted SSE line in bytes; `undefined` = the shared reader's default. */
  readonly maxLineBytes: number | undefined;
}

/** One non-streaming chat completion, normalised. */
export async function generateChat(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  options: GenerateOptions | undefined,
): Promise<ModelResponse> {
  const call = new Call(endpoint, options?.signal);
  const { response, secrets } = await send(call, request, false);
  const text = await call.guard(async () => {
    try {
      return await response.text();
    } catch (cause) {
      if (call.signal?.aborted === true) throw cancellationError(call.signal);
      throw new ModelTransportError(endpoint.provider, 'the response body could not be read', {
        cause,
      });
    }
  });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new ModelProtocolError(endpoint.provider, 'the response body is not JSON', { cause });
  }
  return finalise(endpoint, request, parseChatCompletion(endpoint.provider, body, secrets));
}

/** One streamed chat completion: deltas to `onDelta` in order, then the assembled response. */
export async function streamChat(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  onDelta: DeltaHandler,
  options: GenerateOptions | undefined,
): Promise<ModelResponse> {
  const call = new Call(endpoint, options?.signal);
  const { response, secrets } = await send(call, request, true);
  const assembler = new ChatStreamAssembler(endpoint.provider, secrets);
  await call.guard(() =>
    readSse(
      response.body,
      async (event) => {
        const delta = assembler.push(event);
        if (delta !== undefined) await onDelta(delta);
      },
      { provider: endpoint.provider, signal: call.signal, maxLineBytes: endpoint.maxLineBytes },
    ),
  );
  return finalise(endpoint, request, assembler.finish());
}

/**
 * One call's signal: the caller's, combined with the adapter's timeout. The caller's abort stays
 * a cancellation; the adapter's own timeout is a transport failure (retryable), as a slow or
 * stalled server is.
 */
class Call {
  readonly signal: AbortSignal | undefined;
  private readonly deadline: AbortSignal | undefined;

  constructor(
    readonly endpoint: ChatEndpoint,
    readonly caller: AbortSignal | undefined,
  ) {
    this.deadline = endpoint.timeout > 0 ? AbortSignal.timeout(endpoint.timeout) : undefined;
    this.signal =
      this.deadline === undefined || caller === undefined
        ? (this.deadline ?? caller)
        : AbortSignal.any([caller, this.deadline]);
  }

  async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (this.deadline?.aborted === true && this.caller?.aborted !== true && isCancellation(error))
        throw new ModelTransportError(
          this.endpoint.provider,
          `no complete response within the ${this.endpoint.timeout} ms timeout`,
          { cause: error },
        );
      throw error;
    }
  }
}

async function send(
  call: Call,
  request: ModelRequest,
  stream: boolean,
): Promise<{ response: Response; secrets: string[] }> {
  const { endpoint } = call;
  throwIfCancelled(call.caller);
  const body = buildChatBody(endpoint, request, stream);
  const auth = await endpoint.auth();
  throwIfCancelled(call.caller);
  try {
    const response = await call.guard(() =>
      postJson({
        provider: endpoint.provider,
        url: endpoint.url,
        headers: auth.headers,
        body,
        signal: call.signal,
        fetch: endpoint.fetch,
        parseError: parseOpenAIError,
        secrets: auth.secrets,
      }),
    );
    return { response, secrets: auth.secrets };
  } catch (error) {
    if (ModelHTTPError.is(error)) throw refineHttpError(error);
    throw error;
  }
}

/**
 * Strict mode makes the model write `null` for optional properties it would have left out; this
 * removes those nulls again (against the original schemas) from the structured output and, with
 * `strictSchemas`, from tool arguments, so they validate as the application wrote the schemas.
 */
function finalise(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  response: ModelResponse,
): ModelResponse {
  let message = response.message;
  const schema = request.outputSchema;
  if (isRecord(schema) && message.content !== undefined && message.toolCalls === undefined) {
    const content = stripAddedNulls(message.content, schema);
    if (content !== message.content) message = { ...message, content };
  }
  if (endpoint.strictSchemas && message.toolCalls !== undefined) {
    const schemas = new Map<string, JsonSchema>(request.tools.map((t) => [t.name, t.schema]));
    const calls = message.toolCalls.map((call) => {
      const original = schemas.get(call.name);
      const args = original === undefined ? call.args : stripAddedNulls(call.args, original);
      return args === call.args ? call : { ...call, args };
    });
    if (calls.some((call, i) => call !== message.toolCalls?.[i]))
      message = { ...message, toolCalls: calls };
  }
  return message === response.message ? response : { ...response, message };
}
