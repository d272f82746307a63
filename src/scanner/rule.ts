/**
 * The shape of a guard-scanner rule ([HUB-4]): its categories, the rule, a text rule's
 * pattern and the table row the rule tables are written in. Types only: the tables
 * (`../rules.ts`, `injection.ts`) and the engine share them without importing each other.
 *
 * @module
 */
import type { RuleSeverity } from "./severity.ts";
import type { Sequence } from "./linear.ts";

/** How bad a finding is. */
export type { RuleSeverity } from "./severity.ts";

/** The categories of [HUB-4]. */
export type RuleCategory =
  | "exfiltration"
  | "prompt_injection"
  | "destructive"
  | "persistence"
  | "network"
  | "obfuscation"
  | "execution"
  | "path_traversal"
  | "crypto_mining"
  | "supply_chain"
  | "privilege_escalation"
  | "credential_exposure"
  | "structural";

/** A further judgement of a match on its line: a severity and a reason, or null (no finding). */
export type Judge = (line: string) => { severity: RuleSeverity; reason: string } | null;

/** One rule. */
export interface Rule {
  /** Stable id, `category.name`. */
  id: string;
  /** Its category. */
  category: RuleCategory;
  /** Its severity. */
  severity: RuleSeverity;
  /** What it looks for, for people. */
  description: string;
  /**
   * The pattern's alternatives (text rules only), matched on the original text and on its
   * normal form: bounded regular expressions and sequences of them ({@linkcode Sequence}),
   * so no rule can backtrack beyond a bounded window.
   */
  patterns?: readonly (RegExp | Sequence)[];
  /** A match is let go when the matched text also matches this (placeholders, examples). */
  unless?: RegExp;
  /** A match is let go when the text before it on its line matches this (`ssh-keygen -f`). */
  notAfter?: RegExp;
  /** A match counts only when the text before it on its line matches this (command position). */
  onlyAfter?: RegExp;
  /** The line after a match must match this too (a key header must be followed by key material). */
  next?: RegExp;
  /** A phrase rule: also matched with line breaks taken as spaces (a phrase split over lines). */
  flow?: boolean;
  /** Judges each matching line further (who receives a secret). */
  judge?: Judge;
}

/** A text rule's pattern: one bounded regular expression, a sequence, or alternatives of them. */
export type Pattern = RegExp | Sequence | readonly (RegExp | Sequence)[];

/** A text rule's row: id, severity, description, pattern and its further conditions. */
export type Row = [
  string,
  RuleSeverity,
  string,
  Pattern,
  Pick<Rule, "unless" | "notAfter" | "onlyAfter" | "next" | "flow" | "judge">?,
];
