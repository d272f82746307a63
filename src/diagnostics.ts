/**
 * Diagnostics: what skillrt noticed but did not fail on (a repaired frontmatter, a
 * shadowed skill, a root it could not read). Every skill that is not listed is
 * explained by one of these.
 *
 * @module
 */

/** How serious a diagnostic is; `validate` exits 1 when any is an error. */
export type Severity = "error" | "warning" | "info";

/**
 * A thing noticed about a skill, a root or the configuration: what every kind of notice has,
 * a severity and one sentence for people. Each kind adds what noticed it and where:
 * {@linkcode Diagnostic} (discovery, `doctor`), `validate`'s `Finding` (its rule and file);
 * the security scanner's findings keep their own severity scale (`critical` … `low`).
 */
export interface Notice<S extends string = Severity> {
  /** How serious it is: `error`, `warning` or `info` unless the kind says otherwise. */
  severity: S;
  /** One sentence for people. */
  message: string;
}

/** A notice of discovery or `doctor` about a skill, a root or the configuration. */
export interface Diagnostic extends Notice {
  /** A stable rule id, for example `frontmatter.unclosed`: what noticed it. */
  code: string;
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
