/**
 * Which commands look at the machine's sandboxes for skills' scripts ([RUN-4]) before
 * they are planned: the ones that run scripts (`run`, `mcp --allow-run`) or report or show
 * them (`doctor`, `sandbox run`, `sandbox mcp`). The others do not pay for starting
 * bubblewrap once.
 *
 * @module
 */
import type { Setup } from "../home/setup.ts";
import { probeSandboxHost } from "../run/sandbox_host.ts";
import { RUNNING_COMMANDS } from "./command_table.ts";
import type { CommandRequest } from "./request.ts";

/** The setup with the machine's sandboxes looked at, for the commands above. */
export function withSandboxHost(request: CommandRequest, setup: Setup): Setup {
  const wants = RUNNING_COMMANDS.includes(request.command) || request.command === "doctor" ||
    (request.command === "mcp" && request.options.allowRun === true) ||
    (request.command === "sandbox" && ["run", "mcp"].includes(request.args[0] ?? ""));
  return wants ? { ...setup, host: { ...setup.host, sandbox: probeSandboxHost() } } : setup;
}
