/**
 * `view NAME [PATH] [--strict] [--brief] [--section SLUG…]` ([V-1..8], [F-1..3]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { missingOf, setupAdvice } from "../../view/readiness.ts";
import { paint, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs `view`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [name, path] = request.args;
  const { global } = request;
  const brief = request.options.brief === true;
  const section = request.options.section;
  const sections = Array.isArray(section) ? section : typeof section === "string" ? [section] : [];
  if (path !== undefined && (brief || sections.length)) {
    throw new UsageError("--brief and --section read SKILL.md; they take no file path.");
  }
  if (brief && sections.length) {
    throw new UsageError("Use --brief or --section, not both: the brief lists the section slugs.");
  }
  if (path !== undefined) {
    const doc = await runtime.viewFile(name, path, {
      allowUntrusted: request.options.allowUntrusted === true,
    });
    return respond(
      global,
      doc,
      () => doc.content ?? `Binary file '${doc.file}' (${doc.bytes} bytes, sha256 ${doc.sha256}).`,
    );
  }
  const args = typeof request.options.args === "string" ? request.options.args : undefined;
  const doc = await runtime.view(name, {
    strict: request.options.strict === true,
    allowUntrusted: request.options.allowUntrusted === true,
    args,
    brief,
    sections,
  });
  const notes = doc.warnings.map((w) =>
    `${paint(global.color, "yellow", "warning:")} ${w.message}`
  );
  for (const note of doc.notes ?? []) notes.push(`note: ${note}`);
  const advice = setupAdvice(missingOf(doc), runtime.setup.home);
  if (advice) notes.push(advice);
  return respond(global, doc, () => doc.content, 0, notes.length ? notes.join("\n") + "\n" : "");
}
