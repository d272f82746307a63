/**
 * `prompt` ([L0-8], [L0-10]): the Level-0 block an agent puts in its system prompt, in the
 * Agent Skills XML of `skills-ref to-prompt`, Markdown or JSON, within a budget, and the
 * full content of the skills preloaded for the session after it.
 *
 * @module
 */
import { basename, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { SkillRecord } from "../scan/record.ts";

/** One skill in a prompt block. */
export interface PromptSkill {
  /** Name. */
  name: string;
  /** Description (dropped first, least used first, when over budget). */
  description: string;
  /** The absolute path of its SKILL.md. */
  location: string;
  /** How often it was used; decides which descriptions go first. */
  uses: number;
}

/**
 * Where a prompt says a skill's SKILL.md is ([L0-8]): in its real folder, links resolved,
 * as `skills-ref to-prompt` prints it (the file keeps its own name).
 */
export function promptLocation(record: SkillRecord): string {
  const real = realPathOrUndefined(record.skillDir);
  return real === undefined ? record.file : joinPath(real, basename(record.file));
}

/** A skill whose whole content follows the Level-0 block ([L0-10]). */
export interface PreloadedSkill {
  /** Name. */
  name: string;
  /** Its content as `view` gives it: preprocessed, sanitised, with its banners. */
  content: string;
}

/** The prompt formats. */
export type PromptFormat = "xml" | "markdown" | "json";

/** What `prompt` returns. */
export interface PromptResult {
  /** Always true. */
  success: true;
  /** The format used. */
  format: PromptFormat;
  /** The block itself. */
  prompt: string;
  /** Its size in characters. */
  chars: number;
  /** Its estimated size in tokens (characters / 4, rounded up). */
  estimatedTokens: number;
  /** Number of skills in it. */
  count: number;
  /** The budget asked for, or null. */
  budgetChars: number | null;
  /** Skills whose descriptions were dropped to fit the budget, in the order dropped. */
  descriptionsDropped: string[];
  /** True when the block is still over budget with every description dropped. */
  overBudget: boolean;
  /** Skills whose full content follows the block ([L0-10]), in order. */
  preloaded: string[];
}

/** Escapes like Python's `html.escape` (quotes included), as `skills-ref` does. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

/** The text of preloaded skills after a Markdown or XML block: each between two marker lines. */
function preloadText(preloaded: readonly PreloadedSkill[]): string {
  return preloaded.map((p) =>
    `\n\n[Preloaded skill "${p.name}": its full content follows; use it without loading it again.]\n${
      p.content.replace(/\n+$/, "")
    }\n[End of preloaded skill "${p.name}"]`
  ).join("");
}

/**
 * Renders skills in one format, then the preloaded skills' content ([L0-10]): after the
 * block in `xml` and `markdown`, as `preloaded_skills` in `json`. A skill with an empty
 * description keeps its name.
 */
export function renderPrompt(
  skills: PromptSkill[],
  format: PromptFormat,
  preloaded: readonly PreloadedSkill[] = [],
): string {
  if (format === "json") {
    return JSON.stringify({
      available_skills: skills.map((s) => ({
        name: s.name,
        description: s.description,
        location: s.location,
      })),
      ...(preloaded.length ? { preloaded_skills: preloaded } : {}),
    });
  }
  if (format === "markdown") {
    const lines = ["## Available skills", ""];
    for (const s of skills) {
      lines.push(
        s.description
          ? `- **${s.name}**: ${s.description} (\`${s.location}\`)`
          : `- **${s.name}** (\`${s.location}\`)`,
      );
    }
    return lines.join("\n") + preloadText(preloaded);
  }
  const lines = ["<available_skills>"];
  for (const s of skills) {
    lines.push(
      "<skill>",
      "<name>",
      escapeHtml(s.name),
      "</name>",
      "<description>",
      escapeHtml(s.description),
      "</description>",
      "<location>",
      escapeHtml(s.location),
      "</location>",
      "</skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n") + preloadText(preloaded);
}

/**
 * Builds the prompt block and the preloaded skills after it. Over `budget` (which counts
 * both), descriptions of the least-used skills are dropped first (ties: the later name
 * first), never names, never preloaded content.
 */
export function buildPrompt(
  skills: PromptSkill[],
  format: PromptFormat,
  budget?: number,
  preloaded: readonly PreloadedSkill[] = [],
): PromptResult {
  const current = skills.map((s) => ({ ...s }));
  let size = renderPrompt(current, format, preloaded).length;
  const dropped: string[] = [];
  if (budget !== undefined && size > budget) {
    const order = [...current].sort((a, b) =>
      a.uses - b.uses || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)
    );
    for (const s of order) {
      if (size <= budget) break;
      if (s.description === "") continue;
      // Formats are concatenations of per-skill parts: the saving is that skill's share.
      const before = renderPrompt([s], format).length;
      s.description = "";
      size -= before - renderPrompt([s], format).length;
      dropped.push(s.name);
    }
  }
  const prompt = renderPrompt(current, format, preloaded);
  return {
    success: true,
    format,
    prompt,
    chars: prompt.length,
    estimatedTokens: Math.ceil(prompt.length / 4),
    count: skills.length,
    budgetChars: budget ?? null,
    descriptionsDropped: dropped,
    overBudget: budget !== undefined && prompt.length > budget,
    preloaded: preloaded.map((p) => p.name),
  };
}
