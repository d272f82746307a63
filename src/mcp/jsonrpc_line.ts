/**
 * One line of MCP's stdio transport, read as the protocol asks ([MCP-1]): a JSON-RPC 2.0
 * request, notification or response goes on to the server; anything else — not JSON, or
 * JSON that is not a JSON-RPC message (`null`, a number, an array, an object without
 * `jsonrpc: "2.0"`) — is answered with a JSON-RPC error, and the server carries on. Pure.
 *
 * @module
 */
import type { JSONRPCMessage } from "../deps/mcp.ts";
import { RPC } from "./rpc_error.ts";

/** What to do with a line: pass the message on, or send this error reply. */
export type LineVerdict = { message: JSONRPCMessage } | { reply: JSONRPCMessage };

function errorReply(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Reads one input line (without its newline). */
export function readLine(line: string): LineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reply: errorReply(null, RPC.parseError, "Parse error: the line is not JSON.") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      reply: errorReply(null, RPC.invalidRequest, "Invalid Request: not a JSON-RPC 2.0 message."),
    };
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  const invalid = (why: string) => ({
    reply: errorReply(id, RPC.invalidRequest, `Invalid Request: ${why}.`),
  });
  if (m.jsonrpc !== "2.0") return invalid(`'jsonrpc' must be "2.0"`);
  if ("method" in m) {
    if (typeof m.method !== "string") return invalid("'method' must be a string");
    if ("id" in m && !isId(m.id)) return invalid("'id' must be a string or a number");
    if ("params" in m && (typeof m.params !== "object" || m.params === null)) {
      return invalid("'params' must be an object or an array");
    }
    return { message: m as unknown as JSONRPCMessage };
  }
  if (isId(m.id) && ("result" in m || "error" in m)) {
    return { message: m as unknown as JSONRPCMessage };
  }
  return invalid("neither a request, a notification nor a response");
}
