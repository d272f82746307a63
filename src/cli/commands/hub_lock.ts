/**
 * `hub lock export [--out FILE]` and `hub install --from-lock FILE [--frozen]` ([T-4]):
 * the home's hub installs as a portable lock, and every skill of a lock restored.
 *
 * @module
 */
import { resolvePath } from "../../home/paths.ts";
import { hubRoot } from "../../hub/hub_root.ts";
import { exportLock, lockText } from "../../hub/lock_export.ts";
import { differenceLine, restoreFromLock, type RestoreResult } from "../../hub/lock_restore.ts";
import { atomicWrite } from "../../manage/atomic.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";
import { installedLine } from "./hub_install.ts";

/** Runs `hub lock export`: the lock on stdout, or written to `--out FILE`. */
export function runLockExport(runtime: SkillRuntime, request: CommandRequest): Outcome {
  const { lock, skipped } = exportLock(hubRoot(runtime.setup).root);
  const skippedLines = skipped.map((s) => `Left out '${s.name}': ${s.reason}.`);
  const out = request.options.out;
  if (typeof out !== "string" || out === "") {
    const stderr = skippedLines.map((l) => `skillrt: ${l}\n`).join("");
    return respond(
      request.global,
      { success: true, lock, skipped },
      () => lockText(lock),
      0,
      stderr,
    );
  }
  const file = resolvePath(runtime.setup.host.cwd, out);
  atomicWrite(file, lockText(lock), { fixedTemp: true });
  const count = Object.keys(lock.skills).length;
  return respond(
    request.global,
    { success: true, file, skills: count, skipped },
    () => [`Wrote ${plural(count, "skill")} to ${file}.`, ...skippedLines].join("\n"),
  );
}

function restoreText(doc: RestoreResult, where: string): string {
  return [
    ...doc.installed.flatMap((i) => installedLine(i, where)),
    ...doc.unchanged.map((name) => `Unchanged: '${name}' is installed as the lock says.`),
    ...doc.differences.map((d) => `Differs: ${differenceLine(d)}.`),
    ...doc.failed.map((f) => `${f.blocked ? "Blocked" : "Failed"}: '${f.name}': ${f.error}`),
    ...doc.skipped.map((s) => `Skipped: '${s.name}': ${s.reason}.`),
    `${doc.installed.length} installed, ${doc.unchanged.length} unchanged, ${doc.failed.length} not installed.`,
  ].join("\n");
}

/** Runs `hub install --from-lock FILE [--frozen] [--force]`. */
export async function runRestore(
  runtime: SkillRuntime,
  request: CommandRequest,
  file: string,
): Promise<Outcome> {
  const target = hubRoot(runtime.setup);
  const doc = await restoreFromLock(runtime.setup, resolvePath(runtime.setup.host.cwd, file), {
    frozen: request.options.frozen === true,
    force: request.options.force === true,
    root: target.root,
  });
  const where = target.agent ? `${target.root}/` : "";
  return respond(request.global, doc, () => restoreText(doc, where), doc.success ? 0 : 1);
}
