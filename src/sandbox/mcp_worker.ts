/**
 * The sandbox Worker of `mcp` ([MCP-1]): the general Worker (`worker.ts`) with the MCP
 * command's module registered first, so the MCP SDK is in this entry's module graph only.
 *
 * @module
 */
import * as mcp from "../cli/commands/mcp.ts";
import { registerModule } from "../cli/worker_modules.ts";
import "./worker.ts";

registerModule("mcp", mcp);
