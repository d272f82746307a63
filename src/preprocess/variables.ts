/**
 * The variables of preprocessing ([P-2], [P-5], [P-8]): template variables (`${HERMES_SKILL_DIR}`,
 * `${HERMES_SESSION_ID}` and their aliases, one table) and the user's arguments
 * (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`). One pattern finds them and one function gives
 * their values, for the text and for inline-shell commands alike. Pure.
 *
 * @module
 */
import { splitArguments } from "./shell_words.ts";

/** What the variables stand for. */
export interface VariableValues {
  /** The skill folder, absolute: `${HERMES_SKILL_DIR}` and `${CLAUDE_SKILL_DIR}`. */
  skillDir: string;
  /** `${HERMES_SESSION_ID}` and `${CLAUDE_SESSION_ID}`; left as written when absent. */
  sessionId?: string;
  /** Expand template variables (`skills.template_vars`). */
  templateVars: boolean;
  /** `--args` text for `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`; left as written when absent. */
  args?: string;
}

/** One variable found in a text. */
export type Variable =
  | { kind: "skill-dir" }
  | { kind: "session-id" }
  | { kind: "argument"; index: number }
  | { kind: "arguments" };

/** One way a skill may write a template variable ([P-2], [P-8]). */
export interface TemplateAlias {
  /** Exactly as written in a skill. */
  written: string;
  /** What it stands for. */
  kind: "skill-dir" | "session-id";
  /** Its value, in words (the table in docs/preprocessing.md shows this). */
  means: string;
  /** Who writes it. */
  from: string;
}

/**
 * Every template alias: the one table the pattern, the values and the table of
 * docs/preprocessing.md ([P-8]) come from. `{baseDir}` counts only where no `$` stands before it.
 */
export const TEMPLATE_ALIASES: readonly TemplateAlias[] = [
  {
    written: "${HERMES_SKILL_DIR}",
    kind: "skill-dir",
    means: "the skill folder (absolute)",
    from: "Hermes",
  },
  {
    written: "${CLAUDE_SKILL_DIR}",
    kind: "skill-dir",
    means: "the skill folder (absolute)",
    from: "Claude Code",
  },
  {
    written: "{baseDir}",
    kind: "skill-dir",
    means: "the skill folder (absolute)",
    from: "public skill collections",
  },
  {
    written: "${HERMES_SESSION_ID}",
    kind: "session-id",
    means: "`--session-id` (left as written without it)",
    from: "Hermes",
  },
  {
    written: "${CLAUDE_SESSION_ID}",
    kind: "session-id",
    means: "`--session-id` (left as written without it)",
    from: "Claude Code",
  },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The pattern of a variable; its three groups are read by {@linkcode variableOf}. */
export const VARIABLE_PATTERN: string =
  `(${
    TEMPLATE_ALIASES.map((a) =>
      a.written.startsWith("$") ? escapeRegExp(a.written) : `(?<!\\$)${escapeRegExp(a.written)}`
    ).join("|")
  })` + String.raw`|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)`;

/** The variable a match of {@linkcode VARIABLE_PATTERN} names, from its three groups. */
export function variableOf(
  template: string | undefined,
  index: string | undefined,
  positional: string | undefined,
): Variable {
  if (template !== undefined) {
    // The pattern's first group is one of the table's forms.
    return { kind: TEMPLATE_ALIASES.find((a) => a.written === template)!.kind };
  }
  if (index !== undefined) return { kind: "argument", index: Number(index) };
  if (positional !== undefined) return { kind: "argument", index: Number(positional) };
  return { kind: "arguments" };
}

/** Whether a variable carries the user's arguments (data from whoever invokes the skill). */
export function isArgument(variable: Variable): boolean {
  return variable.kind === "argument" || variable.kind === "arguments";
}

/** The argument words of `--args` (shell-style splitting), or undefined without `--args`. */
export function argumentWords(values: VariableValues): string[] | undefined {
  return values.args === undefined ? undefined : splitArguments(values.args);
}

/** The value of a variable, or undefined to leave it as written. */
export function valueOf(
  variable: Variable,
  values: VariableValues,
  words = argumentWords(values),
): string | undefined {
  switch (variable.kind) {
    case "skill-dir":
      return values.templateVars ? values.skillDir : undefined;
    case "session-id":
      return values.templateVars ? values.sessionId : undefined;
    case "argument":
      return words === undefined ? undefined : words[variable.index] ?? "";
    case "arguments":
      return values.args;
  }
}
