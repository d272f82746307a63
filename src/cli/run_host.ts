/**
 * The machine's sandboxes for skills' scripts ([RUN-4]), looked at before planning by the
 * commands whose row says so (`sandboxes`: those that run scripts — `run`, `mcp` for
 * `--allow-run` —, report them — `doctor` — or show their line — `sandbox`). The others do
 * not pay for starting bubblewrap once.
 *
 * @module
 */
import { realPathOrUndefined, resolvePath } from "../home/paths.ts";
import type { Setup } from "../home/setup.ts";
import { probeSandboxHost } from "../run/sandbox_host.ts";
import { looksAtSandboxes } from "./command_table.ts";
import type { CommandRequest } from "./request.ts";

/** The setup with the machine's sandboxes looked at, for the commands above. */
export function withSandboxHost(request: CommandRequest, setup: Setup): Setup {
  if (!looksAtSandboxes(request)) return setup;
  return { ...setup, host: { ...setup.host, sandbox: probeSandboxHost() } };
}

/** The work dir a `run` request reads (the Worker proves it real and a folder; the script writes it). */
export function workDirPaths(options: CommandRequest["options"], cwd: string): string[] {
  const dir = resolvePath(
    cwd,
    typeof options.workdir === "string" ? options.workdir : ".",
  );
  return [realPathOrUndefined(dir) ?? dir];
}

/** The work dir of `mcp --allow-run [--workdir DIR]`'s scripts; undefined without `--allow-run`. */
export function runWorkDir(options: CommandRequest["options"], cwd: string): string | undefined {
  return options.allowRun === true ? workDirPaths(options, cwd)[0] : undefined;
}
