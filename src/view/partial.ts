/**
 * A skill a piece at a time ([V-8]): the brief (outline with slugs and sizes, and the
 * first paragraph) or only the sections asked for, made from a loaded skill — so the
 * text is already sanitised ([V-10]) and preprocessed, and an injection refusal has
 * already happened on the whole file. Pure.
 *
 * @module
 */
import { NotFoundError, ValidationError } from "../errors.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { type Brief, firstParagraph, outline, selectSections } from "./outline.ts";
import type { LoadedSkill, ViewResult } from "./view.ts";

/** What part of a skill to return. */
export interface PartOptions {
  /** The brief instead of the content. */
  brief?: boolean;
  /** Only these sections (slugs). */
  sections?: readonly string[];
}

/** The Markdown body of a preprocessed SKILL.md: without its frontmatter. */
export function bodyOf(text: string): string {
  const fence = splitFrontmatter(text, true);
  return fence.kind === "ok" || fence.kind === "missing" ? fence.body : text;
}

/** The brief of a body. */
export function briefOf(body: string): Brief {
  return {
    outline: outline(body).map((h) => ({
      level: h.level,
      title: h.title,
      slug: h.slug,
      chars: h.chars,
    })),
    paragraph: firstParagraph(body),
    chars: body.length,
  };
}

/** The brief as text: the paragraph, the outline (indented by level) and how to load a section. */
export function renderBrief(name: string, brief: Brief): string {
  const lines = [brief.paragraph, "", `Sections of '${name}' (${brief.chars} characters in all):`];
  for (const h of brief.outline) {
    lines.push(`${"  ".repeat(h.level - 1)}- ${h.title} [${h.slug}] (${h.chars} chars)`);
  }
  if (brief.outline.length === 0) lines.push("(no headings)");
  lines.push(
    "",
    `Load one with: view ${name} --section SLUG (MCP: skill_view with section, or skill://${name}#SLUG).`,
  );
  return lines.join("\n") + "\n";
}

/**
 * The view document with only the part asked for: `brief` (content = the rendered brief,
 * and the `outline` and `firstParagraph` fields) or `sections` (content = the banners, the config block and those
 * sections). Without either, the view unchanged.
 * @throws {NotFoundError} naming the unknown slugs and listing the available ones.
 * @throws {ValidationError} when both the brief and sections are asked for.
 */
export function partialView(loaded: LoadedSkill, options: PartOptions): ViewResult {
  const { view } = loaded;
  const sections = options.sections ?? [];
  if (!options.brief && sections.length === 0) return view;
  if (options.brief && sections.length) {
    throw new ValidationError(
      "Ask for the brief or for sections, not both: the brief lists the section slugs.",
    );
  }
  const body = bodyOf(loaded.body);
  if (options.brief && sections.length === 0) {
    const brief = briefOf(body);
    return {
      ...view,
      content: loaded.banner + renderBrief(view.name, brief),
      outline: brief.outline,
      firstParagraph: brief.paragraph,
    };
  }
  const chosen = selectSections(body, sections);
  if (chosen.kind === "unknown") {
    const list = chosen.available.length ? chosen.available.join(", ") : "(none: no headings)";
    throw new NotFoundError(
      `Section${chosen.unknown.length > 1 ? "s" : ""} ${
        chosen.unknown.map((s) => `'${s}'`).join(", ")
      } not found in skill '${view.name}'. Available: ${list}.`,
      { unknown_sections: chosen.unknown, available_sections: chosen.available },
    );
  }
  const block = loaded.configBlock ? `${loaded.configBlock}\n\n` : "";
  const content = loaded.banner + block + chosen.text;
  return {
    ...view,
    content,
    sections: chosen.slugs,
    ...(options.brief
      ? { outline: briefOf(body).outline, firstParagraph: briefOf(body).paragraph }
      : {}),
  };
}
