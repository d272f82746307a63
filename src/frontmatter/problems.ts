/**
 * The one table of frontmatter problems: each code and how serious it is. The scan (and so
 * `list`, `doctor` and the MCP server's log) and `validate` take both from here, so two
 * commands never name or weigh the same problem differently.
 *
 * @module
 */
import { type Diagnostic, diagnostic, type Severity } from "../diagnostics.ts";

/** Every frontmatter problem's code and severity. */
export const FRONTMATTER_PROBLEMS = {
  "frontmatter.missing": "error",
  "frontmatter.unclosed": "error",
  "frontmatter.too_large": "error",
  "frontmatter.yaml_invalid": "error",
  "frontmatter.yaml_repaired": "warning",
  "frontmatter.not_mapping": "error",
  "frontmatter.alias_bomb": "error",
} as const satisfies Record<string, Severity>;

/** A frontmatter problem's code. */
export type FrontmatterProblem = keyof typeof FRONTMATTER_PROBLEMS;

/** The codes of a frontmatter that is not valid YAML (repaired or not). */
export const YAML_PROBLEMS: readonly FrontmatterProblem[] = [
  "frontmatter.yaml_invalid",
  "frontmatter.yaml_repaired",
];

/** The diagnostic of a frontmatter problem, at the table's severity. */
export function frontmatterProblem(
  code: FrontmatterProblem,
  message: string,
  where: { path?: string; line?: number } = {},
): Diagnostic {
  return diagnostic(FRONTMATTER_PROBLEMS[code], code, message, where);
}

/** True for the code of a frontmatter that is not valid YAML. */
export function isYamlProblem(code: string): boolean {
  return (YAML_PROBLEMS as readonly string[]).includes(code);
}
