import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { injectable } from 'inversify';
import { describeError, ModelRetry, RunError } from 'golem';
import { validateDto } from 'golem/decorators';
import { ForecastController, forecastResponse } from '../forecast/forecast.controller';
import { ForecastRequest } from '../forecast/forecast.request';
import type { Traveller } from '../weather/weather.agent';
import { openEventStream, writeEvent } from './sse';

const MAX_BODY = 64 * 1024;

/** A request the client got wrong: answered with `status` and a JSON error. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON error body for a failure (a failed run keeps its stage). */
function errorBody(error: unknown): { error: { message: string; stage?: string } } {
  if (RunError.is(error)) return { error: { stage: error.stage, message: error.message } };
  return { error: { message: error instanceof HttpError ? error.message : describeError(error) } };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, `the body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
}

/** Validates the forecast request like a `ValidationPipe`; `ModelRetry` becomes a 400. */
function forecastRequest(value: unknown): ForecastRequest {
  try {
    return validateDto(ForecastRequest, value);
  } catch (error) {
    if (ModelRetry.is(error)) throw new HttpError(400, error.message);
    throw error;
  }
}

/** `?city=Lagos&days=1` as a plain object (`days` as a number when it is one). */
function fromQuery(url: URL): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams)
    plain[key] = /^\d+$/.test(value) ? Number(value) : value;
  return plain;
}

/** The traveller, from the `x-user` header (per request: it travels in the run's deps). */
function travellerOf(request: IncomingMessage): Traveller {
  const header = request.headers['x-user'];
  const name = typeof header === 'string' ? header.trim() : '';
  if (name.length > 80) throw new HttpError(400, 'x-user is longer than 80 characters');
  return { name: name === '' ? 'guest' : name };
}

/**
 * The HTTP adapter (what NestJS's platform layer does): routes requests to the controller,
 * which it gets by constructor injection, and renders results as JSON or server-sent events.
 * A client that disconnects aborts its run.
 */
@injectable()
export class HttpServer {
  private server: Server | undefined;

  constructor(private readonly forecasts: ForecastController) {}

  /** Starts listening; resolves with the bound address (port 0 picks a free port). */
  listen(port: number, host: string): Promise<AddressInfo> {
    const server = createServer((request, response) => {
      void this.handle(request, response);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        resolve(server.address() as AddressInfo);
      });
    });
  }

  /** Stops listening and closes every connection. */
  close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      server.close((error) => {
        if (error === undefined) resolve();
        else reject(error);
      });
      server.closeAllConnections();
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const aborted = new AbortController();
    response.on('close', () => {
      aborted.abort();
    });
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const method = request.method ?? 'GET';
      if (url.pathname === '/forecast') {
        if (method !== 'POST') throw this.notAllowed(response, 'POST');
        const body = forecastRequest(await readJson(request));
        sendJson(
          response,
          200,
          await this.forecasts.forecast(body, travellerOf(request), aborted.signal),
        );
      } else if (url.pathname === '/forecast/stream') {
        if (method !== 'GET' && method !== 'POST') throw this.notAllowed(response, 'GET, POST');
        const plain = method === 'POST' ? await readJson(request) : fromQuery(url);
        await this.stream(forecastRequest(plain), travellerOf(request), response, aborted.signal);
      } else {
        throw new HttpError(404, `no route for ${method} ${url.pathname}`);
      }
    } catch (error) {
      if (response.headersSent) return;
      const status =
        error instanceof HttpError
          ? error.status
          : RunError.is(error) && error.stage === 'model'
            ? 502
            : 500;
      sendJson(response, status, errorBody(error));
    }
  }

  /** Streams one run: `delta` per fragment, then `result`, or `error` when the run fails. */
  private async stream(
    body: ForecastRequest,
    traveller: Traveller,
    response: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    const run = this.forecasts.stream(body, traveller, signal);
    openEventStream(response);
    try {
      for await (const delta of run) writeEvent(response, 'delta', delta);
      writeEvent(response, 'result', forecastResponse(await run.result));
    } catch (error) {
      writeEvent(response, 'error', errorBody(error).error);
    }
    response.end();
  }

  private notAllowed(response: ServerResponse, allow: string): HttpError {
    response.setHeader('allow', allow);
    return new HttpError(405, `use ${allow}`);
  }
}
