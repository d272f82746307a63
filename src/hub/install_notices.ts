/**
 * The notices an install adds to its result ([HUB-8], [IO-5]): a skill installed under the
 * slug form of its declared name, and a skill that carries further skills in sub-folders.
 *
 * @module
 */
import { slugForm } from "./collection.ts";

/** The notice of a skill installed under the slug form of its declared name ([HUB-8]). */
export function slugNotice(candidate: { name: string; declaredName?: string }): string[] {
  const { declaredName, name } = candidate;
  // Renamed by --name: what the user asked for, no notice.
  return declaredName !== undefined && declaredName !== name && slugForm(declaredName) === name
    ? [
      `'${candidate.declaredName}' is not a valid skill name; installed as '${candidate.name}'.`,
    ]
    : [];
}

/**
 * The notice of a skill that carries further SKILL.md files in sub-folders ([IO-5]): they
 * are skills of their own once it is installed (the walk finds them, as Hermes's does).
 */
export function nestedNotice(name: string, nested: string[]): string[] {
  if (nested.length === 0) return [];
  return [
    `'${name}' holds ${nested.length} further skill${
      nested.length === 1 ? "" : "s"
    } in sub-folders, listed as skills once installed: ${nested.join(", ")}.`,
  ];
}
