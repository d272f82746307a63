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
  GetPromptRequest,
  ReadResourceRequest,
} from "npm:@modelcontextprotocol/sdk@^1.32.2/types.js";
export {
  CallToolRequestSchema,
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
