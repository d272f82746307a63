/**
 * The CLI's Worker entry ([X-1]): the Worker's side of the call protocol
 * (`src/worker/worker.ts`) serving the command table's commands (`execute.ts`). The warden
 * starts it with exactly the command's plan (`worker_host.ts`); `mcp` has its own entry,
 * `mcp_worker.ts`, which imports this one.
 *
 * @module
 */
import { serveWorker } from "../worker/worker.ts";
import { executeCommand } from "./execute.ts";

serveWorker(executeCommand);
