import type { ServerResponse } from 'node:http';
import { writeJson } from '../../core/kit/node-http';
import type { RpcError, RpcId } from '../rpc-types';

/** Writes a JSON body with `status`. */
export const replyJson = writeJson;

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
