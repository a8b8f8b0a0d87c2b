import type { ServerResponse } from 'node:http';
import type { RpcError, RpcId } from '../rpc-types';

/** Writes a JSON body with `status`. */
export function replyJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    })
    .end(text);
}

/** Writes a JSON-RPC error response. */
export function replyRpcError(
  res: ServerResponse,
  status: number,
  id: RpcId,
  error: RpcError,
  headers?: Record<string, string>,
): void {
  replyJson(res, status, { jsonrpc: '2.0', id, error }, headers);
}

/** Writes a JSON-RPC success response. */
export function replyRpcResult(res: ServerResponse, id: RpcId, result: unknown): void {
  replyJson(res, 200, { jsonrpc: '2.0', id, result });
}
