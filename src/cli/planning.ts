/**
 * Planning a request ([X-1], [X-6]): its permission plan, from its row of the command
 * table — the paths its line names that its plan reads (`paths`), a writing command's
 * write grant worked out first by a Worker that may only read (its module's `targets`),
 * what the fence admits for it (`fence`) — and the skeleton it needs made first
 * (`skeleton`). Used by the warden before it runs a command and by `sandbox COMMAND`,
 * which shows the plan without running it.
 *
 * @module
 */
import { realPathOrUndefined } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { PermissionPlan } from "../warden/plan.ts";
import { planFor, preloads } from "./plan_for.ts";
import { isWriting, rowOf } from "./command_table.ts";
import type { PlannedLine } from "./command_row.ts";
import { runInWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "./worker_host.ts";
import { checkWrites } from "../warden/write_guard.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";

/** The folders below the home a request needs made before it is planned: its row's skeleton. */
export function skeletonOf(request: PlannedLine, setup: HomeLayout): string[] {
  return rowOf(request.command)?.skeleton?.(request, setup) ?? [];
}

/** What the read-only step found a writing request needs. */
interface FoundTargets {
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
  setup: HomeLayout,
  read: PermissionPlan,
): Promise<FoundTargets | { outcome: Outcome }> {
  const step: CommandRequest = {
    ...request,
    command: "targets",
    options: { ...request.options, for: request.command },
  };
  let plan = read;
  for (let phase = 0;; phase++) {
    const found = await runInWorker({ request: step, setup, plan }, CLI_HOST);
    if (found.exitCode !== 0) return { outcome: found };
    const targets = found.result as unknown as FoundTargets;
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
  setup: HomeLayout,
): Promise<{ plan: PermissionPlan } | { outcome: Outcome }> {
  const row = rowOf(request.command);
  const paths = await row?.paths?.(request, setup) ?? [];
  const read = planFor(request.command, setup, paths, [], preloads(request));
  if (!isWriting(request.command, request.args)) return { plan: read };
  const found = await targetsOf(request, setup, read);
  if ("outcome" in found) return found;
  const { paths: writes, net = [], run = [], env = [] } = found;
  const fence = row?.fence?.(request, setup) ?? {};
  checkWrites(request.command, writes, setup, realPathOrUndefined, {
    outputs: fence.outputs,
    agentTarget: fence.agentTarget,
    userFiles: row?.userFiles === true,
  });
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
