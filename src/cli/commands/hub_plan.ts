/**
 * What the warden plans each `hub` action with before any Worker runs ([X-1], [X-6],
 * [HUB-8]): the paths its line names that its plan reads, whether it needs the local root
 * made first, and the outputs it names, which the write fence admits. Each action's other
 * half — how it runs and what it writes — is its row in `hub.ts`. Light: the warden loads it.
 *
 * @module
 */
import { dirname, resolvePath } from "../../home/paths.ts";
import type { HomeLayout } from "../../home/layout.ts";
import { hubRoot } from "../../hub/hub_root.ts";
import { localCollectionPaths } from "../../hub/collection_paths.ts";
import { tempPathFor } from "../../manage/atomic.ts";
import { UsageError } from "../../errors.ts";
import { unknownChoice } from "../unknown_choice.ts";
import type { CommandRow, PlannedLine } from "../command_row.ts";
import type { CommandRequest } from "../../worker/request.ts";

/** One action of `hub` as the warden plans it. */
interface HubPlanRow {
  /** The paths its line names that its plan reads (absolute). */
  paths?: (
    request: CommandRequest,
    setup: HomeLayout,
    root: string,
  ) => string[] | Promise<string[]>;
  /** It needs the local root to exist (`.hub` itself is made by the action, inside its grant). */
  skills?: true;
  /** What it cannot do without, as its usage error names it (the word after the action). */
  needs?: string;
}

/**
 * The outputs a request names explicitly (absolute): `hub publish --out SITE` the site
 * folder, `hub keygen --out KEYFILE` the key file and `KEYFILE.pub`, `hub lock export
 * --out FILE` the file and its temporary file ([T-4]). The sandbox may
 * grant writes there ([X-6]).
 */
export function namedOutputs(request: CommandRequest, cwd: string): string[] {
  const out = request.options.out;
  if (typeof out !== "string" || out === "") return [];
  const path = resolvePath(cwd, out);
  if (request.args[0] === "publish") return [path];
  if (request.args[0] === "keygen") return [path, `${path}.pub`];
  if (request.args[0] === "lock") return [path, tempPathFor(path)];
  return [];
}

/** `hub install SOURCE|--from-lock FILE`: the lock file, or a local source. */
function installPaths(request: CommandRequest, setup: HomeLayout): string[] {
  const cwd = setup.host.cwd;
  const [, source] = request.args;
  const fromLock = request.options.fromLock;
  if (typeof fromLock === "string") return [resolvePath(cwd, fromLock)];
  // A URL or `user@host:` address is fetched, not read; a local source is read, and a
  // folder here named like a shorthand is looked at only to say it was not installed ([IO-5]).
  if (!source || /^[^/]*:/.test(source)) return [];
  return [resolvePath(cwd, source)];
}

/** `hub check|update`: local sources are read again from where they were installed from. */
async function sourcePaths(_: CommandRequest, __: HomeLayout, root: string): Promise<string[]> {
  const { readLockDocument } = await import("../../hub/lockfile.ts");
  try {
    return Object.values(readLockDocument(root).installed).map((r) => r.identifier)
      .filter((id) => id.startsWith("/"));
  } catch {
    return [];
  }
}

/** `hub publish DIR… [--sign KEY]|keygen`: the folders, the key, the named output (read back to re-publish). */
function publishPaths(request: CommandRequest, setup: HomeLayout): string[] {
  const cwd = setup.host.cwd;
  const [action, ...dirs] = request.args;
  const sign = action === "publish" && typeof request.options.sign === "string"
    ? [resolvePath(cwd, request.options.sign)]
    : [];
  const folders = action === "publish" ? dirs.map((p) => resolvePath(cwd, p)) : [];
  return [...folders, ...sign, ...namedOutputs(request, cwd)];
}

/**
 * Every action of `hub`, by name, as the warden plans it, in the order help lists them;
 * `hub.ts` (its dispatcher and the targets step), the completions and the usage errors
 * read the names from here.
 */
const PLANS = {
  install: { paths: installPaths, skills: true, needs: "a folder" },
  search: {},
  list: {},
  uninstall: { skills: true, needs: "a skill name" },
  verify: {},
  check: { paths: sourcePaths, skills: true },
  update: { paths: sourcePaths, skills: true },
  scan: {
    needs: "a folder",
    paths: (request, setup) =>
      request.args[1] ? [resolvePath(setup.host.cwd, request.args[1])] : [],
  },
  audit: {},
  publish: { paths: publishPaths },
  keygen: { paths: publishPaths },
  // The named file is written atomically: beside it, in its folder, proved real ([T-4]).
  lock: {
    needs: "'export'",
    paths: (request, setup) => namedOutputs(request, setup.host.cwd).slice(0, 1).map(dirname),
  },
} satisfies Record<string, HubPlanRow>;

/** An action of `hub`. */
export type HubAction = keyof typeof PLANS;

/** The actions of `hub`, in the order help lists them. */
export const HUB_ACTIONS: readonly HubAction[] = Object.keys(PLANS) as HubAction[];

/**
 * The rules of a `hub` line the grammar cannot state — a known action, with the target it
 * needs (its row's `needs`) — checked where it runs and where `sandbox hub …` plans it
 * (the same errors).
 * @throws {UsageError} (exit 2).
 */
export function checkHubLine(
  args: readonly string[],
  options: Readonly<Record<string, unknown>> = {},
): HubAction {
  const [action, target] = args;
  if (!Object.hasOwn(PLANS, action ?? "")) throw unknownChoice("hub action", action, HUB_ACTIONS);
  const fromLock = action === "install" && options.fromLock !== undefined;
  if (fromLock && target !== undefined) {
    throw new UsageError("'hub install --from-lock FILE' takes no source; the lock names them.");
  }
  if (options.frozen === true && !fromLock) {
    throw new UsageError("--frozen goes with 'hub install --from-lock FILE'.");
  }
  const needs: string | undefined = (PLANS[action as HubAction] as HubPlanRow).needs;
  if (needs !== undefined && !target && !fromLock) {
    throw new UsageError(`'hub ${action}' needs ${needs}.`);
  }
  if (action === "lock" && target !== "export") {
    throw new UsageError(`Unknown hub lock action '${target}'; use export.`);
  }
  return action as HubAction;
}

/** The row of a request's action; none for an action `hub` does not have (refused when planned). */
function planOfAction(request: PlannedLine): HubPlanRow {
  const action = request.args[0] ?? "";
  return Object.hasOwn(PLANS, action) ? PLANS[action as HubAction] as HubPlanRow : {};
}

/** `hub … --agent NAME` works in that agent's folder ([HUB-8]), which it reads even before it exists. */
function agentTarget(setup: HomeLayout): string | undefined {
  return setup.agentOptions.length ? hubRoot(setup).root : undefined;
}

/**
 * The hub's row's plan: the paths its action names, the agent folder it works in, and
 * the collections that are folders here (read by hub search and bare-name installs,
 * [HUB-8]); the local root for the actions that need it; the outputs it names and the
 * agent folder, admitted by the fence.
 */
export const HUB_PLAN: Pick<CommandRow, "paths" | "skeleton" | "fence"> = {
  paths: async (request, setup) => {
    const agent = agentTarget(setup);
    const own = await planOfAction(request).paths?.(request, setup, agent ?? setup.localRoot);
    return [...own ?? [], ...(agent ? [agent] : []), ...localCollectionPaths(setup)];
  },
  skeleton: (request) => planOfAction(request).skills ? ["skills"] : [],
  fence: (request, setup) => ({
    outputs: namedOutputs(request, setup.host.cwd),
    agentTarget: agentTarget(setup),
  }),
};
