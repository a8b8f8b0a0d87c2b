/** The JSON-RPC 2.0 envelope A2A travels in: requests, results and errors. */

/** A JSON-RPC request id. */
export type RpcId = string | number | null;

/** A JSON-RPC 2.0 request. */
export interface RpcRequest {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The request id (absent for notifications). */
  readonly id?: RpcId;
  /** The method. */
  readonly method: string;
  /** The params. */
  readonly params?: unknown;
}

/** A JSON-RPC 2.0 error object. */
export interface RpcError {
  /** The code (see {@link A2A_ERROR_CODES}). */
  readonly code: number;
  /** A short message. */
  readonly message: string;
  /** Extra data. */
  readonly data?: unknown;
}

/** A successful JSON-RPC 2.0 response. */
export interface RpcSuccess {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The request's id. */
  readonly id: RpcId;
  /** The result. */
  readonly result: unknown;
}

/** A failed JSON-RPC 2.0 response. */
export interface RpcFailure {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The request's id (null when it could not be read). */
  readonly id: RpcId;
  /** The error. */
  readonly error: RpcError;
}

/** A JSON-RPC 2.0 response. */
export type RpcResponse = RpcSuccess | RpcFailure;
