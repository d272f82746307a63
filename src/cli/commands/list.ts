/**
 * `list [--category C] [--categories]` ([L0-1], [L0-6]).
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import type { ListedSkill, ListResult } from "../../level0/list.ts";
import { entryFor, type SkillIndex } from "../../scan/skill_index.ts";
import { paint, plural, respond, table } from "../render.ts";
import type { CommandRequest, GlobalOptions, Outcome } from "../../worker/request.ts";

/** What a person is told beside a skill's name: ambiguity, why it is hidden, who may invoke it ([IO-3]). */
function marks(s: ListedSkill): string[] {
  return [
    ...(s.ambiguous ? ["ambiguous"] : []),
    ...(s.hidden ? [`hidden: ${s.hidden}`] : []),
    ...(s.disableModelInvocation ? ["by name only: not shown to the model"] : []),
    ...(s.userInvocable === false ? ["not a slash command"] : []),
  ];
}

/** Renders a list document as a table for people. */
export function listText(doc: ListResult, global: GlobalOptions, withScore = false): string {
  if (doc.count === 0) return doc.message ?? "No skills found.";
  const rows = doc.skills.map((s) => [
    ...(withScore ? [String(s.score ?? 0)] : []),
    s.name + marks(s).map((m) => ` ${paint(global.color, "yellow", `(${m})`)}`).join(""),
    s.category ?? "-",
    s.ambiguous ? `matches: ${s.matches!.join(", ")}` : s.description,
  ]);
  const header = [...(withScore ? ["SCORE"] : []), "NAME", "CATEGORY", "DESCRIPTION"];
  const hidden = doc.skills.filter((s) => s.hidden).length;
  // A name that looks like an option is shown with the way to pass it.
  const dashed = doc.skills.find((s) => s.name.startsWith("-"));
  return `${table(header, rows, global.color, 80)}\n\n${plural(doc.count, "skill")}${
    hidden ? ` (${hidden} hidden)` : ""
  }${
    dashed ? `\nA name that begins with '-' goes after '--': skillrt view -- ${dashed.name}` : ""
  }`;
}

/** Runs `list`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const { global, options } = request;
  if (options.categories) {
    const doc = await runtime.categories();
    return respond(
      global,
      doc,
      () =>
        doc.count === 0 ? "No categories found." : table(
          ["CATEGORY", "COUNT", "DESCRIPTION"],
          doc.categories.map((
            c,
          ) => [c.category, String(c.count), c.description ?? "-"]),
          global.color,
          80,
        ),
    );
  }
  const category = typeof options.category === "string" ? options.category : undefined;
  const all = options.all === true || options.hidden === true; // [L0-9]
  if (options.names === true) {
    // One name per line, for scripts and shell completion ([C-5]).
    const names = (await runtime.list({ category, all })).skills.map((s) => s.name);
    return respond(global, { success: true, names }, () => names.join("\n"));
  }
  const catalog = await runtime.currentCatalog();
  const doc: ListResult & { home?: string } = await runtime.list({ category, all, catalog });
  const home = runtime.setup.home;
  let start = "";
  if (doc.count === 0 && !runtime.setup.homeExists) {
    // Say where we looked and how to start ([C-8]).
    doc.home = home;
    doc.message = `No skills found: the home '${home}' does not exist.`;
    // Only the default home gets here (the warden refuses a named one that is missing).
    doc.hint =
      start =
        "Create a skill with 'skillrt create NAME --file SKILL.md' (the default home is made on the first write), or pass --home DIR.";
  }
  const outcome = respond(global, doc, () => listText(doc, global) + (start ? `\n${start}` : ""));
  return { ...outcome, stderr: outcome.stderr + malformedNote(doc, catalog.index()) };
}

/**
 * One stderr line when listed skills have problems (no frontmatter, no description, YAML
 * repaired, …): how many, and where to see them — they are listed all the same ([S-6]).
 */
export function malformedNote(doc: ListResult, index: SkillIndex): string {
  const bad = doc.skills.filter((s) => {
    const entry = s.ambiguous ? undefined : entryFor(index, s.name);
    return entry?.record.diagnostics.some((d) => d.severity !== "info") ?? false;
  }).length;
  if (bad === 0) return "";
  return `skillrt: ${plural(bad, "skill")} ${
    bad === 1 ? "has" : "have"
  } problems (missing frontmatter or description, repaired YAML, …); see 'skillrt doctor' or 'skillrt validate NAME'.\n`;
}
