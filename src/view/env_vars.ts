/**
 * Required environment variables of a skill ([V-4]): merged from three places in the
 * frontmatter, checked against the process environment and `<home>/.env` by name only —
 * values are never read into the result.
 *
 * @module
 */
import { type Frontmatter, stripQuotes } from "../frontmatter/parse.ts";
import { isMapping } from "../mapping.ts";

/** One required variable. */
export interface RequiredEnvVar {
  /** The variable name. */
  name: string;
  /** What to ask the user. */
  prompt: string;
  /** Where to get a value, when the skill says. */
  help?: string;
  /** What needs it, when the skill says. */
  requiredFor?: string;
}

const VALID = /^[A-Za-z_][A-Za-z0-9_]*$/;

function entriesOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** Merges `required_environment_variables`, `setup.collect_secrets` and `prerequisites.env_vars`; first wins. */
export function requiredEnvVars(
  frontmatter: Frontmatter,
): { vars: RequiredEnvVar[]; invalid: string[] } {
  const raw: unknown[] = [...entriesOf(frontmatter.required_environment_variables)];
  if (isMapping(frontmatter.setup)) raw.push(...entriesOf(frontmatter.setup.collect_secrets));
  if (isMapping(frontmatter.prerequisites)) {
    raw.push(...entriesOf(frontmatter.prerequisites.env_vars));
  }
  const vars: RequiredEnvVar[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    let v: RequiredEnvVar | undefined;
    if (typeof item === "string") v = { name: item.trim(), prompt: "" };
    else if (isMapping(item)) {
      const name = item.name ?? item.env_var ?? item.key;
      if (typeof name !== "string") continue;
      v = { name: name.trim(), prompt: typeof item.prompt === "string" ? item.prompt : "" };
      if (typeof item.help === "string") v.help = item.help;
      if (typeof item.required_for === "string") v.requiredFor = item.required_for;
    }
    if (!v) continue;
    if (!VALID.test(v.name)) {
      invalid.push(v.name);
      continue;
    }
    if (seen.has(v.name)) continue;
    seen.add(v.name);
    if (!v.prompt) v.prompt = `Enter value for ${v.name}`;
    vars.push(v);
  }
  return { vars, invalid };
}

/** Names set to a non-empty value in a `.env` file's text. */
export function dotenvNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(raw);
    if (m && stripQuotes(m[2].trim()) !== "") names.add(m[1]);
  }
  return names;
}
