/**
 * A guard scanner finding ([HUB-4]) and the verdict of a set of them.
 *
 * @module
 */
import type { RuleCategory, RuleSeverity } from "../hub/rules.ts";
import type { FindingContext } from "./context.ts";

/** One finding. */
export interface ScanFinding {
  /** The rule's id. */
  rule: string;
  /** Its category. */
  category: RuleCategory;
  /** Its severity here (after its context, see `original_severity`). */
  severity: RuleSeverity;
  /** The file, relative to the scanned folder (`.` for the folder as a whole). */
  file: string;
  /** 1-based line, or null for file-level findings. */
  line: number | null;
  /** The original line (trimmed, at most 120 characters), or what was measured. */
  excerpt: string;
  /** Where the match stands: `code`, `instruction`, `mention`, `detect` or `example`. */
  context: FindingContext;
  /** The rule's severity when the context lowered it. */
  original_severity?: RuleSeverity;
  /** Why the severity is what it is, when not simply the rule's. */
  reason?: string;
}

/** `dangerous` with any critical finding, `caution` with any high one, else `safe`. */
export type Verdict = "safe" | "caution" | "dangerous";

/** The verdict of a set of findings. */
export function verdictOf(findings: readonly { severity: RuleSeverity }[]): Verdict {
  if (findings.some((f) => f.severity === "critical")) return "dangerous";
  if (findings.some((f) => f.severity === "high")) return "caution";
  return "safe";
}
