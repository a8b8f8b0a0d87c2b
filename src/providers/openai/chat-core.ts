import { cancellationError } from '../../core/errors/cancellation';
import { ModelHTTPError } from '../../core/errors/errors';
import { isRecord } from '../../core/kit/guards';
import type { JsonSchema } from '../../core/kit/json';
import type { DeltaHandler, GenerateOptions } from '../../core/contract/model';
import type { ModelRequest } from '../../core/contract/request';
import type { ModelResponse } from '../../core/contract/response';
import { expectEventStream, readBodyJson } from '../shared/body';
import { CallScope } from '../shared/call-scope';
import type { FetchLike } from '../../core/contract/fetch';
import { postJson } from '../shared/http';
import { rateLimitOf, withRateLimit } from '../shared/rate-limit-headers';
import { STOP, readSse } from '../shared/sse';
import type { CheckedCommon } from './config-checks';
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
  /** Milliseconds the whole call may take (then a retryable `ModelTransportError`); 0 = no limit. */
  readonly timeout: number;
  /** Longest accepted SSE line in bytes; `undefined` = the shared reader's default. */
  readonly maxLineBytes: number | undefined;
  /** Largest accepted non-streaming success body in bytes. */
  readonly maxResponseBytes: number;
  /** How long an error body may take to arrive (ms); `undefined` = the shared default. */
  readonly errorBodyTimeout: number | undefined;
}

/** Where and how an adapter calls its endpoint; the rest of a {@link ChatEndpoint} is its checked options. */
export interface EndpointAddress {
  readonly provider: string;
  readonly url: string;
  readonly model: string | undefined;
  readonly auth: ChatEndpoint['auth'];
}

/** The endpoint at `address` configured by the checked common options. */
export function chatEndpoint(common: CheckedCommon, address: EndpointAddress): ChatEndpoint {
  return {
    provider: address.provider,
    url: address.url,
    model: address.model,
    auth: address.auth,
    fetch: common.fetch,
    capabilities: common.capabilities,
    maxTokensField: common.maxTokensField,
    strictSchemas: common.strictSchemas,
    defaults: common.settings,
    timeout: common.timeout,
    maxLineBytes: common.maxLineBytes,
    maxResponseBytes: common.maxResponseBytes,
    errorBodyTimeout: common.errorBodyTimeout,
  };
}

/** Header names whose values are credentials (kept out of every error). */
const CREDENTIAL_HEADER = /auth|key|token|secret|cookie|session|password|credential/i;

/**
 * The credentials among user-configured `headers`: the values of credential-like headers
 * (`Authorization`, `api-key`, `X-Api-Key`, `Cookie`…), and for a `<scheme> <credentials>` value
 * such as `Bearer abc` the credentials alone too.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    secrets.push(value);
    const credentials = /^[A-Za-z][\w.+-]*\s+(\S.*)$/s.exec(value.trim())?.[1];
    if (credentials !== undefined) secrets.push(credentials);
  }
  return secrets;
}

/**
 * One non-streaming chat completion, normalised. The call's timer and caller listener are
 * released when it settles; the body is read within `maxResponseBytes`.
 */
export async function generateChat(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  options: GenerateOptions | undefined,
): Promise<ModelResponse> {
  const scope = callScope(endpoint, options);
  return scope.run(async (signal) => {
    const { response, secrets } = await send(endpoint, request, false, signal);
    const rateLimit = rateLimitOf(response.headers);
    const body = await readBodyJson(response, {
      provider: endpoint.provider,
      maxBytes: endpoint.maxResponseBytes,
      signal,
      secrets,
    });
    const parsed = parseChatCompletion(endpoint.provider, body, secrets);
    return withRateLimit(finalise(endpoint, request, parsed), rateLimit);
  });
}

/**
 * One streamed chat completion: deltas to `onDelta` in order, then the assembled response. The
 * stream completes at `data: [DONE]` without waiting for the server to close the connection; a
 * connection cut after the finish reason and the requested final usage arrived completes too.
 * Errors thrown by `onDelta` are rethrown as they are.
 */
export async function streamChat(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  onDelta: DeltaHandler,
  options: GenerateOptions | undefined,
): Promise<ModelResponse> {
  const scope = callScope(endpoint, options);
  const handlerErrors = new WeakSet<object>();
  return scope.run(
    async (signal) => {
      const { response, secrets, usageRequested } = await send(endpoint, request, true, signal);
      const rateLimit = rateLimitOf(response.headers);
      await expectEventStream(response, endpoint.provider);
      const assembler = new ChatStreamAssembler(endpoint.provider, secrets, usageRequested);
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
          provider: endpoint.provider,
          signal,
          maxLineBytes: endpoint.maxLineBytes,
          settled: () => assembler.settled,
          secrets,
        },
      );
      return withRateLimit(finalise(endpoint, request, assembler.finish()), rateLimit);
    },
    (error) => typeof error === 'object' && error !== null && handlerErrors.has(error),
  );
}

function callScope(endpoint: ChatEndpoint, options: GenerateOptions | undefined): CallScope {
  return new CallScope({
    provider: endpoint.provider,
    timeout: endpoint.timeout,
    signal: options?.signal,
  });
}

interface Sent {
  response: Response;
  secrets: string[];
  /** Whether the body asked for a final usage chunk (`stream_options.include_usage`). */
  usageRequested: boolean;
}

async function send(
  endpoint: ChatEndpoint,
  request: ModelRequest,
  stream: boolean,
  signal: AbortSignal,
): Promise<Sent> {
  const body = buildChatBody(endpoint, request, stream);
  const auth = await untilAborted(endpoint.auth(), signal);
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  try {
    const response = await postJson({
      provider: endpoint.provider,
      url: endpoint.url,
      headers: auth.headers,
      body,
      signal,
      fetch: endpoint.fetch,
      parseError: parseOpenAIError,
      secrets: auth.secrets,
      errorBodyTimeout: endpoint.errorBodyTimeout,
    });
    return { response, secrets: auth.secrets, usageRequested: options.include_usage === true };
  } catch (error) {
    if (ModelHTTPError.is(error)) throw refineHttpError(error);
    throw error;
  }
}

/** `work`, or the signal's cancellation error as soon as it aborts (a token callback may hang). */
async function untilAborted<T>(work: T | Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(cancellationError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    stopIfAborted(signal);
    const value = await Promise.race([work, aborted]);
    stopIfAborted(signal); // aborted in the same turn as `work` settled
    return value;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function stopIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw cancellationError(signal);
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
