/**
 * The permission plan of: for each command, exactly what its Worker may read,
 * write, run, reach and see. Pure: computed from what the command's row says it needs
 * ({@linkcode PlanNeeds}, handed in by the front end that holds the row: its plan, whether
 * it preprocesses, runs scripts or writes the user's files) and the setup, printed by
 * `sandbox` ([X-3]) and turned into Worker permissions.
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { usageWritePaths } from "../usage/usage.ts";
import type { PermissionPlan } from "./permission_plan.ts";
import { approvalsFile, approvalWritePaths } from "../run/consent.ts";
import { turnsFolderOf } from "../run/work_dir_turns.ts";
import { SANDBOX_PATH } from "../run/script_kind.ts";

export type { PermissionPlan } from "./permission_plan.ts";

/** What a command's row says its plan holds (the row's own fields, `src/cli/command_row.ts`). */
export interface PlanNeeds {
  /** Whether its Worker only reads or may write; absent: no Worker of its own (an empty plan). */
  plan?: "reads" | "writes";
  /** Its output is preprocessed and may run inline shell ([P-4]); it counts uses ([U-1]). */
  preprocesses?: boolean;
  /** It runs a skill's scripts in their sandbox ([RUN-1]). */
  runs?: boolean;
  /** It may write the user's own config.yaml and `<home>/.env`. */
  userFiles?: boolean;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)].sort();
}

/** The folders and files every reading command needs: roots, plugins, bundles, config, `.env`. */
export function readSet(setup: HomeLayout): string[] {
  return unique([
    ...setup.roots.map((r) => r.path),
    setup.localRoot,
    joinPath(setup.home, "plugins"),
    ...setup.plugins.map((p) => p.path),
    joinPath(setup.home, "skill-bundles"),
    setup.configFile,
    joinPath(setup.home, ".env"),
  ]);
}

/**
 * The plan for `command`, from what its row says it needs. `paths` are extra paths the command was given to read
 * (`validate PATH…`); `writes` are the paths a writing command's first step found it
 * will write; `preprocesses` says a command that does not usually preprocess does this
 * time (`prompt --preload`, [L0-10]): it may then run the inline-shell programs, and
 * still writes nothing.
 */
export function planOf(
  command: string,
  needs: PlanNeeds,
  setup: HomeLayout,
  paths: string[] = [],
  writes: string[] = [],
  preprocesses = false,
): PermissionPlan {
  const plan: PermissionPlan = { command, read: [], write: [], run: [], net: [], env: [] };
  if (needs.plan === undefined) return plan;
  const pending = needs.plan === "writes" || writes.length ? [joinPath(setup.home, "pending")] : [];
  plan.read = unique([...readSet(setup), ...pending, ...paths]);
  if (needs.preprocesses) {
    // Counting uses ([U-1]): exactly the home's counter file, its lock and its temp file.
    plan.write = unique(usageWritePaths(setup.localRoot));
  }
  if ((needs.preprocesses || preprocesses) && setup.config.inline_shell) {
    plan.run = unique(setup.config.inline_shell_allow);
  }
  if (needs.runs) Object.assign(plan, runGrants(plan, setup, true));
  if (writes.length) plan.write = unique([...plan.write, ...writes]);
  if (writes.length && needs.userFiles) {
    // Writing config.yaml or `.env` proves their folder, the home, real, and reads back
    // the lock and temporary files: the home is readable to these user commands only.
    plan.read = unique([...plan.read, setup.home]);
  }
  return plan;
}

/**
 * What running skills' scripts adds to a plan ([RUN-1], [RUN-2]): it may run `deno` and
 * `bwrap` (as found by the warden: `setup.host.sandbox`) and nothing else, read the
 * sandbox's PATH folders (to find an interpreter) and the approvals file, read and write
 * the warden's scratch folder for the skills' snapshots ([RUN-3]) and the user's folder of
 * the work dirs' turns, machine-wide (`work_dir_turns.ts`); the CLI's `run` may
 * also record approvals (`records`), MCP never.
 */
export function runGrants(
  plan: Pick<PermissionPlan, "read" | "write" | "run">,
  setup: HomeLayout,
  records: boolean,
): Pick<PermissionPlan, "read" | "write" | "run"> {
  const sandbox = setup.host.sandbox;
  const programs = [sandbox?.deno, sandbox?.bwrap].filter((p): p is string => p !== undefined);
  const scratch = sandbox?.scratch === undefined ? [] : [sandbox.scratch];
  return {
    read: unique([
      ...plan.read,
      ...SANDBOX_PATH.split(":"),
      approvalsFile(setup.localRoot),
      turnsFolderOf(setup),
      ...scratch,
    ]),
    write: unique([
      ...plan.write,
      ...(records ? approvalWritePaths(setup.localRoot) : []),
      turnsFolderOf(setup),
      ...scratch,
    ]),
    run: unique([...plan.run, ...programs]),
  };
}

/** The Deno Worker permissions of a plan: everything not listed is denied. */
export function workerPermissions(plan: PermissionPlan): Deno.PermissionOptionsObject {
  const list = (xs: string[]) => (xs.length ? xs : false);
  return {
    read: list(plan.read),
    write: list(plan.write),
    run: list(plan.run),
    net: list(plan.net),
    env: list(plan.env),
    ffi: false,
    sys: false,
    import: false,
  };
}

/** The `deno run` flags that grant the same as the plan ([X-3]). */
export function planFlags(plan: PermissionPlan): string[] {
  const flags: string[] = [];
  const add = (name: string, xs: string[]) => {
    if (xs.length) flags.push(`--allow-${name}=${xs.join(",")}`);
  };
  add("read", plan.read);
  add("write", plan.write);
  add("run", plan.run);
  add("net", plan.net);
  add("env", plan.env);
  flags.push("--no-prompt");
  return flags;
}

export { shellQuote } from "../run/shell_quote.ts";
