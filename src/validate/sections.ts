/**
 * The body the seeds recommend for a skill ([M-6]): the sections When to Use, Quick
 * Reference, Procedure, Pitfalls and Verification, and a first paragraph that says when to
 * use the skill. `validate --profile hermes` notes (as info, never an error) a skill that
 * lacks them; `init` writes a skeleton that has them.
 *
 * @module
 */

/** The recommended sections, in the order a skeleton lists them. */
export const RECOMMENDED_SECTIONS: readonly string[] = [
  "When to Use",
  "Quick Reference",
  "Procedure",
  "Pitfalls",
  "Verification",
];

/** Heading words that count as each recommended section (lowercase, punctuation dropped). */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  "When to Use": ["when to use", "use when", "when to use this skill", "usage", "overview"],
  "Quick Reference": ["quick reference", "quick start", "quickstart", "cheat sheet", "reference"],
  "Procedure": ["procedure", "steps", "workflow", "instructions", "how to", "process"],
  "Pitfalls": ["pitfalls", "common pitfalls", "gotchas", "caveats", "common mistakes"],
  "Verification": ["verification", "verify", "validation", "testing", "checklist"],
};

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*)$/;

/** A heading's text without its closing `#`s and spaces (by hand: `(.*?)\s*#*\s*$` is quadratic). */
function headingText(rest: string): string {
  let text = rest.trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  text = text.slice(0, end);
  return text.trimEnd();
}

/** The headings of a Markdown body (those inside code fences are not headings). */
export function headings(body: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1][0];
      else if (f[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = HEADING.exec(line);
    if (h) out.push(headingText(h[2]));
  }
  return out;
}

function normal(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9 ]+/g, " ").replace(/\s+/g, " ").trim();
}

/** The recommended sections a body lacks. */
export function missingSections(body: string): string[] {
  const seen = headings(body).map(normal);
  return RECOMMENDED_SECTIONS.filter((section) =>
    !SYNONYMS[section].some((word) => seen.some((h) => h === word || h.startsWith(`${word} `)))
  );
}

/** The first paragraph of prose of a body: headings, fences and blank lines before it skipped. */
export function firstParagraph(body: string): string {
  const lines: string[] = [];
  let fence = false;
  for (const line of body.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      if (lines.length) break;
      fence = !fence;
      continue;
    }
    if (fence) continue;
    if (line.trim() === "" || HEADING.test(line)) {
      if (lines.length) break;
      continue;
    }
    lines.push(line.trim());
  }
  return lines.join(" ");
}

const WHEN =
  /\b(use (this|it|them)\b|use (when|for|whenever|if)\b|when (you|the|a|an|to|asked|working|dealing|writing|handling|using|building)\b|whenever\b|if you (need|want|are)\b)/i;

/** True when a paragraph says when to use the skill ("Use this skill when …"). */
export function saysWhenToUse(paragraph: string): boolean {
  return WHEN.test(paragraph);
}
