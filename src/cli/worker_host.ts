/**
 * What the CLI lends the warden for the Workers it starts (`src/warden/run_worker.ts`): its
 * Worker entries, its terminal for a command's questions, and the words of an interruption.
 * The library's sandboxed runtime runs the same commands, so it starts them the same way.
 *
 * @module
 */
import type { WorkerHost } from "../warden/run_worker.ts";
import { failure } from "./render.ts";
import { askAtTerminal, askSetupQuestion, readLineAtTerminal } from "./terminal_prompt.ts";
import { visibleControls } from "./terminal_text.ts";
import { walksRoots } from "./command_table.ts";

/** The CLI's host: `command_worker.ts` (or `mcp_worker.ts`, the SDK's one graph) at the terminal. */
export const CLI_HOST: WorkerHost = {
  entry: (mcp) => new URL(mcp ? "./mcp_worker.ts" : "./command_worker.ts", import.meta.url),
  confirm: askAtTerminal,
  ask: askSetupQuestion,
  line: (question) => readLineAtTerminal(visibleControls(question)),
  failed: (request, error) => failure(request.global, error),
  walksRoots,
};
