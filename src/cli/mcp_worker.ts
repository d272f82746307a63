/**
 * The sandbox Worker of `mcp` ([MCP-1]): the CLI's Worker entry (`command_worker.ts`) with the MCP
 * command's module registered first, so the MCP SDK is in this entry's module graph only.
 * A server views skills from its first calls on: the view's modules, which the runtime
 * loads on a command's first view ([PERF-7]: `list` never loads them), are loaded here at
 * start, so that no first view waits for them ([PERF-6]).
 *
 * @module
 */
import * as mcp from "./commands/mcp.ts";
import { registerModule } from "./worker_modules.ts";
import "./command_worker.ts";
import "../view/view.ts";
import "../view/untrusted.ts";

registerModule("mcp", mcp);
