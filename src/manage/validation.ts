/**
 * The validation of [M-2] for every write: names, categories, SKILL.md content and
 * support files, with Hermes-compatible messages. Pure: text in, error out.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { isYamlProblem } from "../frontmatter/problems.ts";
import { hasTraversal } from "../resolve/name_guard.ts";
import { isAbsoluteAnywhere } from "../home/paths.ts";
import { assertCleanFileName } from "./file_names.ts";
import { SUPPORT_DIRS } from "../scan/walk.ts";
import { checkSkill, MAX_SKILL_CHARS } from "../validate/rules.ts";

/** A skill or category name: lowercase letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
/** Largest support file, in bytes ([M-2]). */
export const MAX_SUPPORT_BYTES = 1024 * 1024;

/** Throws unless `name` is a valid skill (or, with `what`, category) name. */
export function validateName(
  name: unknown,
  what: "Skill name" | "Category" = "Skill name",
): string {
  if (typeof name !== "string" || name === "") throw new ValidationError(`${what} is required.`);
  if (name.length > 64) {
    throw new ValidationError(`${what} exceeds 64 characters.`); // Hermes's words ([M-2])
  }
  if (!NAME_PATTERN.test(name)) {
    throw new ValidationError(
      `Invalid ${
        what === "Category" ? "category" : "skill name"
      } '${name}'. Use lowercase letters, digits, dots, hyphens and underscores, starting with a letter or digit (^[a-z0-9][a-z0-9._-]*$).`,
    );
  }
  return name;
}

/** Throws the first content error of [M-2] (YAML is checked strictly: a repairable error is still refused). */
export function validateSkillContent(text: string): void {
  if (text.trim() === "") throw new ValidationError("Content cannot be empty.");
  if (text.length > MAX_SKILL_CHARS) {
    throw new ValidationError(
      `SKILL.md is ${text.length} characters; the limit is ${MAX_SKILL_CHARS}.`,
    );
  }
  const findings = checkSkill(text, "SKILL.md", "", "hermes").filter((f) =>
    f.severity === "error" || isYamlProblem(f.rule)
  ).filter((f) => !f.rule.startsWith("hermes.") && f.rule !== "skeleton.placeholder");
  const first = findings[0];
  if (!first) return;
  // A YAML error says where: the line in the SKILL.md as given.
  const where = isYamlProblem(first.rule) && first.line !== null
    ? ` (SKILL.md line ${first.line})`
    : "";
  throw new ValidationError(`${first.message}${where}`);
}

/** Throws unless `path` is a relative path under one of the support folders. */
export function validateSupportPath(path: unknown): string {
  if (typeof path !== "string" || path.trim() === "") {
    throw new ValidationError("File path is required.");
  }
  assertCleanFileName(path);
  if (hasTraversal(path)) throw new ValidationError("Path traversal ('..') is not allowed.");
  if (isAbsoluteAnywhere(path)) {
    throw new ValidationError(`Absolute paths are not allowed: '${path}'.`);
  }
  const parts = path.split("/");
  if (
    parts.length < 2 || !SUPPORT_DIRS.includes(parts[0]) || parts.some((p) => p === "" || p === ".")
  ) {
    throw new ValidationError(
      `File must be under one of: ${[...SUPPORT_DIRS].sort().join(", ")}. Got: '${path}'`,
    );
  }
  return path;
}

/** Throws when a support file's content is larger than {@linkcode MAX_SUPPORT_BYTES}. */
export function validateSupportContent(bytes: Uint8Array): void {
  if (bytes.length > MAX_SUPPORT_BYTES) {
    throw new ValidationError(
      `File is ${bytes.length} bytes; the limit is ${MAX_SUPPORT_BYTES} bytes.`,
    );
  }
}
