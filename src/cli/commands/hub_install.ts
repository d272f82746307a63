/**
 * `hub install SOURCE` ([HUB-2], [HUB-8]): one skill, or the chosen skills of a
 * collection, into the local root or (with `--agent NAME`) that agent's skill folder.
 *
 * @module
 */
import { hubRoot } from "../../hub/hub_root.ts";
import { type CollectionResult, installFromSource } from "../../hub/install_collection.ts";
import type { InstallResult } from "../../hub/install.ts";
import { listOf } from "../grammar.ts";
import type { ExecuteContext } from "../context.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The lines of one installed skill. */
export function installedLine(doc: InstallResult, where: string): string[] {
  return [
    `Installed '${doc.name}' at ${where}${doc.installPath} (${doc.trustLevel}, ${doc.scanVerdict}).`,
    ...doc.warnings.map((w) => `Warning: ${w}`),
  ];
}

function collectionText(doc: CollectionResult, where: string): string {
  return [
    ...doc.installed.flatMap((i) => installedLine(i, where)),
    ...doc.failed.map((f) =>
      `${f.blocked ? "Blocked" : "Failed"}: '${f.name}' (${f.path}): ${f.error}`
    ),
    ...doc.skipped.map((s) => `Skipped: ${s.path} (${s.reason})`),
    `${doc.installed.length} installed, ${doc.failed.length} not installed${
      doc.failed.length ? ` (${doc.failed.map((f) => f.name).join(", ")})` : ""
    }.`,
  ].join("\n");
}

/** Runs `hub install SOURCE`. */
export async function runInstall(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
  source: string,
): Promise<Outcome> {
  const { global } = request;
  const target = hubRoot(runtime.setup);
  const doc = await installFromSource(runtime.setup, source, {
    name: str(request.options.name),
    category: str(request.options.category),
    force: request.options.force === true,
    yes: request.options.yes === true,
    index: str(request.options.index),
    confirm: ctx.confirm,
    ask: ctx.choose,
    root: target.root,
    skills: listOf(request.options.skill),
    all: request.options.all === true,
  });
  const where = target.agent ? `${target.root}/` : "";
  if ("collection" in doc) {
    return respond(global, doc, () => collectionText(doc, where), doc.success ? 0 : 1);
  }
  return respond(global, doc, () => installedLine(doc, where).join("\n"));
}
