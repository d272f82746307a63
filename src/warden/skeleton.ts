/**
 * The home's skeleton ([H-1], [X-6]): the empty folders a writing command needs as the
 * base of its grant (`skills/`, and `pending/skills/` for the approval queue), made by the warden
 * before the command is planned — making an empty folder reads no skill content — so
 * that no plan ever needs write access to the home or above it. The default home
 * (`$HERMES_HOME` or `~/.hermes`) is created on the first write, as Hermes does; an
 * explicit `--home` that does not exist is refused with a hint.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { isDirectory, joinPath } from "../home/paths.ts";
import type { Setup } from "../home/setup.ts";
import { RUNNING_COMMANDS } from "../cli/command_table.ts";
import { BUNDLE_WRITE_ACTIONS, isSkillAction } from "../manage/change.ts";

/** What a command is about to do, as far as the skeleton is concerned. */
export interface SkeletonRequest {
  /** The command name. */
  command: string;
  /** Its positional arguments (the sub-action first for `hub`, `pending`, `curator`). */
  args: readonly string[];
  /** Its options (`dryRun`, `allowWrites`). */
  options: Readonly<Record<string, unknown>>;
}

/** The folders below the home that `request` needs before it can be planned (none for a read). */
export function skeletonFor(request: SkeletonRequest, setup: Setup): string[] {
  const { command, args, options } = request;
  const action = args[0];
  const skills = "skills";
  const pending = setup.config.write_approval ? ["pending/skills"] : [];
  if (isSkillAction(command) || command === "init") return [skills, ...pending];
  if (command === "bundle" && BUNDLE_WRITE_ACTIONS.includes(action ?? "")) return pending;
  if (command === "mcp") {
    if (options.allowWrites !== true) return [];
    return setup.config.write_approval ? [skills, ...pending] : [skills, "skill-bundles"];
  }
  if (command === "sync") return [skills];
  // Approving a script records it in the local root ([RUN-3]).
  if (RUNNING_COMMANDS.includes(command)) return [skills];
  if (command === "pending") {
    return action === "approve" || action === "reject" ? [skills, "pending/skills"] : [];
  }
  if (command === "curator") {
    if (action === "run" || action === "restore") return options.dryRun === true ? [] : [skills];
    return action === "pin" || action === "unpin" ? [skills] : [];
  }
  if (command === "hub" && ["install", "update", "uninstall", "check"].includes(action ?? "")) {
    return [skills]; // `.hub` itself is made by the install, inside its grant
  }
  return [];
}

/**
 * Makes the skeleton `request` needs; returns true when a folder was made.
 * @throws {SkillrtError} when the home was named with `--home` and does not exist.
 */
export function ensureSkeleton(
  request: SkeletonRequest,
  setup: Setup,
  explicitHome: boolean,
): boolean {
  const folders = skeletonFor(request, setup);
  if (folders.length === 0) return false;
  if (explicitHome && !isDirectory(setup.home)) {
    throw new SkillrtError(
      `The home '${setup.home}' does not exist; nothing was written.`,
      {
        hint:
          `Create it first (mkdir -p '${setup.home}'), or leave out --home to use the default home.`,
      },
    );
  }
  let made = false;
  for (const folder of folders) {
    const path = joinPath(setup.home, folder);
    if (isDirectory(path)) continue;
    Deno.mkdirSync(path, { recursive: true });
    made = true;
  }
  return made;
}
