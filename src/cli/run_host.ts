/**
 * The machine's sandboxes for skills' scripts ([RUN-4]), looked at before planning by the
 * commands whose row says so (`sandboxes`: those that run scripts — `run`, `mcp` for
 * `--allow-run` —, report them — `doctor` — or show their line — `sandbox`). The others do
 * not pay for starting bubblewrap once.
 *
 * @module
 */
import type { HomeLayout } from "../home/layout.ts";
import { probeSandboxHost } from "../run/sandbox_host.ts";
import { looksAtSandboxes, runsScripts } from "./command_table.ts";
import type { CommandRequest } from "../worker/request.ts";

/**
 * The setup with the machine's sandboxes looked at, for the commands above; a request that
 * runs scripts (`run`, `mcp --allow-run`) also gets its private scratch folder for the
 * skills' snapshots ([RUN-3]), the same however often it is set up, removed by
 * {@linkcode dropScratch}.
 */
export function withSandboxHost(request: CommandRequest, setup: HomeLayout): HomeLayout {
  if (!looksAtSandboxes(request)) return setup;
  const sandbox = probeSandboxHost();
  if (runsScripts(request)) sandbox.scratch = scratchOf(request);
  return { ...setup, host: { ...setup.host, sandbox } };
}

const scratches = new WeakMap<CommandRequest, string>();

function scratchOf(request: CommandRequest): string {
  let dir = scratches.get(request);
  if (dir === undefined) {
    dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "skillrt-run-" }));
    scratches.set(request, dir);
  }
  return dir;
}

/** Removes the scratch folder of a request, when it had one. */
export function dropScratch(request: CommandRequest): void {
  const dir = scratches.get(request);
  if (dir === undefined) return;
  scratches.delete(request);
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    // Already gone.
  }
}
