/**
 * Planning a request ([X-1], [X-6]): the paths it names that its plan must read, and its
 * permission plan — a writing command's write grant worked out first by a Worker that may
 * only read. Used by the warden before it runs a command and by `sandbox COMMAND`, which
 * shows the plan without running it.
 *
 * @module
 */
import { dirname, realPathOrUndefined, resolvePath } from "../home/paths.ts";
import type { Setup } from "../home/setup.ts";
import { type PermissionPlan, planFor, preloads } from "../sandbox/plan.ts";
import { isWriting, RUNNING_COMMANDS } from "./command_table.ts";
import { hubRoot } from "../hub/hub_root.ts";
import { localCollectionPaths } from "../hub/collection_paths.ts";
import { runInWorker } from "../sandbox/run_worker.ts";
import { workDirPaths } from "./run_host.ts";
import { checkWrites } from "../sandbox/write_guard.ts";
import { namedOutputs } from "./commands/hub_publish.ts";
import type { CommandRequest, Outcome } from "./request.ts";

/** The extra read paths a request names (`validate PATH…`, `hub scan PATH`), absolute. */
export async function requestPaths(
  request: CommandRequest,
  cwd: string,
  localRoot?: string,
): Promise<string[]> {
  if (request.command === "validate") return request.args.map((p) => resolvePath(cwd, p));
  if (RUNNING_COMMANDS.includes(request.command)) return workDirPaths(request.options, cwd);
  if (request.command === "sync" && typeof request.options.from === "string") {
    return [resolvePath(cwd, request.options.from)];
  }
  if (
    request.command === "hub" && (request.args[0] === "check" || request.args[0] === "update") &&
    localRoot
  ) {
    // Local sources are read again from where they were installed from.
    const { readLockDocument } = await import("../hub/lockfile_write.ts");
    try {
      return Object.values(readLockDocument(localRoot).installed).map((r) => r.identifier).filter((
        id,
      ) => id.startsWith("/"));
    } catch {
      return [];
    }
  }
  return request.command === "hub" ? hubPaths(request, cwd) : [];
}

/** The paths a `hub` action names: a folder to scan or publish, a key, a lock, a local source. */
function hubPaths(request: CommandRequest, cwd: string): string[] {
  const [action, source] = request.args;
  const fromLock = request.options.fromLock;
  if (action === "scan" && source) return [resolvePath(cwd, source)];
  // The named file is written atomically: beside it, in its folder, proved real ([T-4]).
  if (action === "lock") return namedOutputs(request, cwd).slice(0, 1).map(dirname);
  if (action === "install" && typeof fromLock === "string") return [resolvePath(cwd, fromLock)];
  if (action === "publish" || action === "keygen") {
    // The folders to publish, the signing key, and the named output (read back to re-publish).
    const sign = action === "publish" && typeof request.options.sign === "string"
      ? [resolvePath(cwd, request.options.sign)]
      : [];
    const dirs = action === "publish" ? request.args.slice(1).map((p) => resolvePath(cwd, p)) : [];
    return [...dirs, ...sign, ...namedOutputs(request, cwd)];
  }
  if (action === "install" && source) {
    // A URL or `user@host:` address is fetched, not read; a local source is read, and a
    // folder here named like a shorthand is looked at only to say it was not installed ([IO-5]).
    return /^[^/]*:/.test(source) ? [] : [resolvePath(cwd, source)];
  }
  return [];
}

/** What the read-only step found a writing request needs. */
interface Targets {
  paths: string[];
  net?: string[];
  run?: string[];
  /** Environment variables: only the GitHub token's, by the name config gives it ([T-4]). */
  env?: string[];
  /** Hosts the step must read from to find the rest (a discovery index, [IO-1]). */
  planWith?: string[];
}

/**
 * Runs the read-only step that finds a writing request's targets; once more, with the
 * network hosts it asks for, when it must read something there to find them (the
 * artifact host of a discovery index's entry: two-phase planning, [IO-1]).
 */
async function targetsOf(
  request: CommandRequest,
  setup: Setup,
  read: PermissionPlan,
): Promise<Targets | { outcome: Outcome }> {
  const step: CommandRequest = {
    ...request,
    command: "targets",
    options: { ...request.options, for: request.command },
  };
  let plan = read;
  for (let phase = 0;; phase++) {
    const found = await runInWorker({ request: step, setup, plan });
    if (found.exitCode !== 0) return { outcome: found };
    const targets = JSON.parse(found.stdout) as Targets;
    const more = (targets.planWith ?? []).filter((host) => !plan.net.includes(host));
    if (more.length === 0 || phase > 0) return targets;
    plan = { ...plan, net: [...plan.net, ...more] };
  }
}

/**
 * The plan of a request. A writing command's write grant is worked out first by a
 * Worker that may only read; its error (not found, invalid content, …) is the outcome.
 */
export async function planOf(
  request: CommandRequest,
  setup: Setup,
): Promise<{ plan: PermissionPlan } | { outcome: Outcome }> {
  // `hub … --agent NAME` works in that agent's folder ([HUB-8]): it reads it, even before it exists.
  const agentTarget = request.command === "hub" && setup.agentOptions.length
    ? hubRoot(setup).root
    : undefined;
  const paths = [
    ...await requestPaths(request, setup.host.cwd, agentTarget ?? setup.localRoot),
    ...(agentTarget ? [agentTarget] : []),
    // Collections that are folders here are read by hub search and bare-name installs ([HUB-8]).
    ...(request.command === "hub" ? localCollectionPaths(setup) : []),
  ];
  const read = planFor(request.command, setup, paths, [], preloads(request));
  if (!isWriting(request.command, request.args)) return { plan: read };
  const found = await targetsOf(request, setup, read);
  if ("outcome" in found) return found;
  const { paths: writes, net = [], run = [], env = [] } = found;
  checkWrites(
    request.command,
    writes,
    setup,
    realPathOrUndefined,
    namedOutputs(request, setup.host.cwd),
    agentTarget,
  );
  const plan = planFor(request.command, setup, paths, writes);
  return {
    plan: {
      ...plan,
      net: [...new Set([...plan.net, ...net])],
      run: [...new Set([...plan.run, ...run])],
      env: [...new Set([...plan.env, ...env])],
    },
  };
}
