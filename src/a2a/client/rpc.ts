import { throwIfCancelled } from '../../core/index';
import { parseUntrustedJson } from '../../core/kit/safe-json';
import { A2AProtocolError } from '../a2a-error';
import { parseRpcResponse } from '../wire-check';
import { PROTOCOL_VERSION, VERSION_HEADER, type A2AMethod } from '../wire-types';
import { type RpcId } from '../rpc-types';
import { readBoundedText } from './bounded-body';
import { malformed, peerError, statusFailure, transportFailure, wireFailure } from './failures';
import type { ResolvedOptions } from './options';

/** A posted request: its JSON-RPC id and the HTTP response (body unread). */
export interface OpenedRequest {
  readonly id: number;
  readonly response: Response;
}

/**
 * The JSON-RPC 1.0 binding of one remote agent: POSTs to its endpoint with the configured headers
 * and `A2A-Version: 1.0`, reads bounded bodies, checks the envelope and the request id, and turns
 * JSON-RPC errors, HTTP errors and network failures into typed errors (header values redacted).
 * An aborted signal always surfaces as the golem cancellation error.
 */
export class RpcChannel {
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly endpoint: string,
    private readonly options: ResolvedOptions,
  ) {}

  /** Refuses every later call. */
  close(): void {
    this.closed = true;
  }

  /** Posts `method` and returns its `result` (unparsed: the caller parses it for the method). */
  async call(method: A2AMethod, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const { id, response } = await this.open(method, params, 'application/json', signal);
    const text = await this.readBody(method, response, signal);
    if (!response.ok) throw this.httpError(method, response.status, text);
    return this.resultOf(method, id, this.parseJson(method, text));
  }

  /** Posts `method` asking for `accept`; the caller reads the body. */
  async open(
    method: A2AMethod,
    params: unknown,
    accept: string,
    signal?: AbortSignal,
  ): Promise<OpenedRequest> {
    if (this.closed) {
      throw wireFailure(method, 'the connection is closed; connect again with connectA2A', []);
    }
    throwIfCancelled(signal);
    const id = this.nextId++;
    const init: RequestInit = {
      method: 'POST',
      headers: {
        ...this.options.headers,
        'content-type': 'application/json',
        accept,
        [VERSION_HEADER]: PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      redirect: 'error',
      ...(signal !== undefined && { signal }),
    };
    let response: Response;
    try {
      response = await this.options.fetch(this.endpoint, init);
    } catch (cause) {
      throwIfCancelled(signal);
      throw transportFailure(method, cause, this.options.secrets);
    }
    return { id, response };
  }

  /** The body as text, bounded by `maxResponseBytes`. */
  async readBody(method: string, response: Response, signal?: AbortSignal): Promise<string> {
    const max = this.options.maxResponseBytes;
    try {
      return await readBoundedText(response, max, () =>
        wireFailure(method, `the response is larger than maxResponseBytes (${max} bytes)`, []),
      );
    } catch (error) {
      throwIfCancelled(signal);
      if (error instanceof A2AProtocolError) throw error;
      throw transportFailure(method, error, this.options.secrets);
    }
  }

  /** An HTTP error status, carrying the peer's JSON-RPC error when the body holds one. */
  httpError(method: string, status: number, text: string): Error {
    try {
      const envelope = parseRpcResponse(parseUntrustedJson(text));
      if ('error' in envelope) return peerError(method, envelope.error, this.options.secrets);
    } catch {
      // Not a JSON-RPC error body: report the status.
    }
    return statusFailure(method, status, text, this.options.secrets);
  }

  /** `text` as untrusted JSON; malformed text is a protocol error naming `method`. */
  parseJson(method: string, text: string): unknown {
    try {
      return parseUntrustedJson(text, { maxLength: this.options.maxResponseBytes });
    } catch (error) {
      throw wireFailure(
        method,
        `the response is not valid JSON (${(error as Error).message})`,
        this.options.secrets,
      );
    }
  }

  /** The `result` of a response envelope to request `id`, or the peer's error thrown. */
  resultOf(method: string, id: RpcId, value: unknown): unknown {
    let envelope;
    try {
      envelope = parseRpcResponse(value);
    } catch (error) {
      throw malformed(method, error, this.options.secrets);
    }
    if ('error' in envelope) throw peerError(method, envelope.error, this.options.secrets);
    if (envelope.id !== id) {
      throw wireFailure(
        method,
        `the response id ${JSON.stringify(envelope.id)} does not match the request id ${id}`,
        this.options.secrets,
      );
    }
    return envelope.result;
  }
}
