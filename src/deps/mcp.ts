// deno-lint-ignore-file no-import-prefix -- full npm: specifiers, so the module imports with no import map ([C-7])
/**
 * The one place skillrt touches the MCP TypeScript SDK (server side).
 *
 * @module
 */
export { Server } from "npm:@modelcontextprotocol/sdk@^1.32.2/server/index.js";
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@^1.32.2/server/webStandardStreamableHttp.js";
export type { Transport } from "npm:@modelcontextprotocol/sdk@^1.32.2/shared/transport.js";
export type {
  CallToolRequest,
  CompleteRequest,
  GetPromptRequest,
  ListPromptsRequest,
  ListResourcesRequest,
  ReadResourceRequest,
} from "npm:@modelcontextprotocol/sdk@^1.32.2/types.js";
export {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "npm:@modelcontextprotocol/sdk@^1.32.2/types.js";
import {
  RequestSchema,
  SetLevelRequestSchema,
} from "npm:@modelcontextprotocol/sdk@^1.32.2/types.js";

/**
 * `logging/setLevel` with its params unchecked: the server checks the level itself, so an
 * unknown one is the protocol's invalid-params error, not an internal one.
 */
export const SetLevelAnyRequestSchema = RequestSchema.extend({
  method: SetLevelRequestSchema.shape.method,
});
