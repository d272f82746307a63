/**
 * The JSON-RPC errors the MCP server answers with: codes, and an error class whose message
 * carries no prefix of its own (clients add theirs). Imports nothing, so every part of the
 * server may use it.
 *
 * @module
 */

/** A JSON-RPC error with its code and a message without any prefix (clients add their own). */
export class RpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Extra data for the client. */
  readonly data?: unknown;

  /** Creates the error. */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

/** JSON-RPC and MCP error codes used by the server. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  resourceNotFound: -32002,
} as const;
