/**
 * Diagnostics: what skillrt noticed but did not fail on (a repaired frontmatter, a
 * shadowed skill, a root it could not read). Every skill that is not listed is
 * explained by one of these.
 *
 * @module
 */

/** How serious a diagnostic is; `validate` exits 1 when any is an error. */
export type Severity = "error" | "warning" | "info";

/** One finding about a skill, a root or the configuration. */
export interface Diagnostic {
  /** `error`, `warning` or `info`. */
  severity: Severity;
  /** A stable rule id, for example `frontmatter.unclosed`. */
  code: string;
  /** One sentence for people. */
  message: string;
  /** The file or folder concerned, when there is one. */
  path?: string;
  /** 1-based line in that file, when known. */
  line?: number;
}

/** Builds a diagnostic; a shorthand used across the scanner and the validators. */
export function diagnostic(
  severity: Severity,
  code: string,
  message: string,
  where: { path?: string; line?: number } = {},
): Diagnostic {
  const d: Diagnostic = { severity, code, message };
  if (where.path !== undefined) d.path = where.path;
  if (where.line !== undefined) d.line = where.line;
  return d;
}
