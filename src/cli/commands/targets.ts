/**
 * The first step of every writing command ([X-1]): inside a Worker that may only read,
 * check the request and work out exactly which paths it will write. The warden then
 * runs the command in a second Worker granted write to those paths and nothing else.
 *
 * @module
 */
import { joinPath, resolvePath } from "../../home/paths.ts";
import { SkillrtError } from "../../errors.ts";
import { fetchLocal, installName, installPath } from "../../hub/install.ts";
import { readLockDocument } from "../../hub/lock_write.ts";
import { firstMissing } from "../../manage/apply.ts";
import { SkillManager } from "../../manage/manager.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { readUsage, usageWritePaths } from "../../usage/usage.ts";
import { actionOf, MANAGE_COMMANDS } from "../manage_args.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** The paths a writing request will write. */
export async function writePathsFor(
  runtime: SkillRuntime,
  request: CommandRequest,
): Promise<string[]> {
  const manager = new SkillManager(runtime.setup);
  const local = runtime.setup.local_root;
  const [action, arg] = request.args;
  if (MANAGE_COMMANDS.includes(request.command)) return manager.targets(actionOf(request));
  if (request.command === "pending") {
    if (action === "approve" && arg) return manager.approveTargets(arg);
    if (action === "reject" && arg) return manager.queueTargets();
    return [];
  }
  if (request.command === "hub" && arg) {
    const hubDir = joinPath(local, ".hub");
    if (action === "install") {
      const fetched = await fetchLocal(resolvePath(runtime.setup.host.cwd, arg)).catch((error) => {
        if (
          error instanceof SkillrtError && !/does not exist|has no SKILL\.md/.test(error.message)
        ) throw error;
        throw new SkillrtError(`Source '${arg}' is not a skill folder or a readable archive.`);
      });
      const name = installName(
        fetched.folder,
        fetched.text,
        typeof request.options.name === "string" ? request.options.name : undefined,
      );
      const category = typeof request.options.category === "string"
        ? request.options.category
        : undefined;
      return [firstMissing(hubDir), firstMissing(joinPath(local, installPath(name, category)))];
    }
    if (action === "uninstall") {
      const record = readLockDocument(local).installed[arg];
      return record ? [hubDir, joinPath(local, record.install_path)] : [];
    }
  }
  if (request.command === "curator") {
    if (action === "run") return request.options.dryRun === true ? [] : [local];
    if ((action === "pin" || action === "unpin") && arg) return usageWritePaths(local);
    if (action === "restore" && arg) {
      let origin = arg;
      try {
        origin = readUsage(local)[arg]?.origin_path ?? arg;
      } catch {
        // A corrupt usage file is reported by the command itself.
      }
      return [
        joinPath(local, ".archive", arg),
        firstMissing(joinPath(local, origin)),
        ...usageWritePaths(local),
      ];
    }
  }
  return [];
}

/** Runs the plan step: prints `{"success":true,"paths":[…]}`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const inner = { ...request, command: String(request.options.for) };
  const paths = [...new Set(await writePathsFor(runtime, inner))].sort();
  return { exitCode: 0, stdout: JSON.stringify({ success: true, paths }), stderr: "" };
}
