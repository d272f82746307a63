/**
 * The skeleton `init NAME` writes ([M-6]): a SKILL.md whose frontmatter passes every
 * validate profile and whose body has the recommended sections, with empty
 * `references/` and `scripts/` folders beside it.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { hasControlChar } from "./file_names.ts";
import { RECOMMENDED_SECTIONS } from "../validate/sections.ts";

/** The support folders a skeleton starts with (empty). */
export const SKELETON_DIRS: readonly string[] = ["references", "scripts"];

const PLACEHOLDER: Readonly<Record<string, string>> = {
  "When to Use": "- The situation or request that calls for this skill.",
  "Quick Reference": "- The one command or fact needed most often.",
  "Procedure": "1. The first step.\n2. The next step.",
  "Pitfalls": "- What goes wrong, and how to avoid it.",
  "Verification": "- How to tell the task was done right.",
};

/** The skeleton's first line, to be replaced: `validate` fails while it is there. */
export const PLACEHOLDER_LINE =
  "Use this skill when … (replace this line with the situation that calls for it).";

const PLACEHOLDER_DESCRIPTION =
  /^description: "What .* does, and when to use it \(one or two sentences\)\."\s*$/;

/**
 * The 1-based lines of `text` that are still the skeleton's placeholders (its first line,
 * its description): a skill started by `init` and not yet written.
 */
export function placeholderLines(text: string): number[] {
  return text.split(/\r?\n/).flatMap((line, i) =>
    line.trim() === PLACEHOLDER_LINE || PLACEHOLDER_DESCRIPTION.test(line) ? [i + 1] : []
  );
}

function title(name: string): string {
  return name.split(/[-_.]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

/** The SKILL.md of a new skill named `name` (a valid name, [M-2]). */
export function skeletonSkill(name: string, description?: string): string {
  if (
    description !== undefined &&
    (hasControlChar(description) || description.length > 1024)
  ) {
    throw new ValidationError("The description must be one line of at most 1024 characters.");
  }
  const said = description?.trim() ||
    `What ${name} does, and when to use it (one or two sentences).`;
  const sections = RECOMMENDED_SECTIONS.map((s) => `## ${s}\n\n${PLACEHOLDER[s]}\n`);
  return [
    "---",
    `name: ${name}`,
    `description: ${JSON.stringify(said)}`,
    "---",
    "",
    `# ${title(name)}`,
    "",
    PLACEHOLDER_LINE,
    "",
    ...sections,
  ].join("\n");
}
