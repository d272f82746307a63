/**
 * `sync --from DIR` ([SY-1]).
 *
 * @module
 */
import { joinPath, resolvePath } from "../../home/paths.ts";
import { descriptionTargets, syncBundled, upstreamSkills } from "../../hub/sync.ts";
import { bundledWritePaths } from "../../hub/bundled_manifest.ts";
import { creationTarget } from "../../manage/apply.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs `sync`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const doc = await syncBundled(
    runtime.setup,
    resolvePath(runtime.setup.host.cwd, String(request.options.from)),
  );
  const line = (
    label: string,
    names: string[],
  ) => (names.length ? [`${label}: ${names.join(", ")}`] : []);
  return respond(request.global, doc, () =>
    [
      ...line("Copied", doc.copied),
      ...line("Updated", doc.updated),
      ...line("Left alone (changed by you)", doc.userModified),
      ...line("Not restored (deleted by you)", doc.userDeleted),
      ...line("Skipped (an external dir provides it)", doc.external),
      ...line("Unchanged", doc.unchanged),
      ...line("Category descriptions copied", doc.descriptions),
    ].join("\n") || "Nothing to sync.");
}

/**
 * `sync --from DIR`'s write targets: each upstream skill's folder in the local root, the
 * category descriptions it may add, the manifest and the synced folders' file.
 */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const local = runtime.setup.localRoot;
  const from = resolvePath(runtime.setup.host.cwd, String(request.options.from ?? ""));
  return [
    ...new Set([
      ...upstreamSkills(from).map((s) => creationTarget(local, joinPath(local, s.rel))),
      ...descriptionTargets(local, from),
      ...bundledWritePaths(local),
    ]),
  ];
}
