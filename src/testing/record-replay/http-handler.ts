/**
 * Structural types of the Smithy HTTP handler the AWS SDK's clients take as `requestHandler`
 * (Bedrock: `bedrock({ client: { requestHandler } })`). Golem's core never imports `@smithy`:
 * these describe only what the record/replay kit reads and returns.
 */

/** The parts of a Smithy `HttpRequest` the kit reads. */
export interface HttpRequestLike {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  /** A string or bytes for the JSON APIs the kit records; anything else is not recorded. */
  body?: unknown;
}

/** A Smithy `HttpResponse`: a status, headers and a body (a Node `Readable` in Node). */
export interface HttpResponseLike {
  statusCode: number;
  reason?: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** The options the SDK passes with each request. */
export interface HttpHandlerOptionsLike {
  abortSignal?: { readonly aborted: boolean };
  requestTimeout?: number;
}

/** A Smithy `HttpHandler` (e.g. `NodeHttpHandler` from `@smithy/node-http-handler`). */
export interface HttpHandlerLike {
  handle(
    request: HttpRequestLike,
    options?: HttpHandlerOptionsLike,
  ): Promise<{ response: HttpResponseLike }>;
  destroy?(): void;
  updateHttpClientConfig?(key: never, value: never): void;
  httpHandlerConfigs?(): object;
}

/** The URL of a Smithy request: protocol, host, port, path and query. */
export function urlOf(request: HttpRequestLike): string {
  const protocol = request.protocol.endsWith(':') ? request.protocol : `${request.protocol}:`;
  const port = request.port === undefined ? '' : `:${request.port}`;
  const url = new URL(`${protocol}//${request.hostname}${port}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === null) url.searchParams.append(name, '');
    else
      for (const item of Array.isArray(value) ? value : [value])
        url.searchParams.append(name, item);
  }
  return url.href;
}

/** The body of a Smithy request as text, when it is a string or bytes. */
export function requestBodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return '(a body the recorder cannot read)';
}

/** An abort signal the SDK passed, when it can be listened to. */
export function listenable(signal: HttpHandlerOptionsLike['abortSignal']): AbortSignal | undefined {
  return signal !== undefined && typeof (signal as AbortSignal).addEventListener === 'function'
    ? (signal as AbortSignal)
    : undefined;
}
