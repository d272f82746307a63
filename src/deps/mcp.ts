/**
 * The one place skillrt touches the MCP TypeScript SDK (server side).
 *
 * @module
 */
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
export type {
  CallToolRequest,
  GetPromptRequest,
  ReadResourceRequest,
} from "@modelcontextprotocol/sdk/types.js";
export {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
