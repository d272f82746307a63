/**
 * Skill config injection ([P-6]): the values of the entries a skill declares in
 * `metadata.hermes.config`, looked up by dot path in `skills.config`, with defaults,
 * `~` and `${VAR}` expanded, and the block that is prepended to the content.
 *
 * @module
 */
import { isMapping } from "../frontmatter/parse.ts";
import { hermesMetadata, type SkillRecord } from "../scan/record.ts";

/** One declared config entry. */
export interface ConfigEntry {
  /** Dot path in `skills.config`. */
  key: string;
  /** What it is for. */
  description?: string;
  /** Value when config.yaml has none. */
  default?: unknown;
  /** What to ask the user. */
  prompt?: string;
}

/** The entries a skill declares. */
export function configEntries(record: SkillRecord): ConfigEntry[] {
  const declared = hermesMetadata(record.frontmatter).config;
  const out: ConfigEntry[] = [];
  for (const entry of Array.isArray(declared) ? declared : []) {
    if (isMapping(entry) && typeof entry.key === "string" && entry.key.trim()) {
      out.push(entry as unknown as ConfigEntry);
    }
  }
  return out;
}

/** Looks up a dot path (`a.b.c`) in nested mappings. */
export function dotPath(values: Record<string, unknown>, key: string): unknown {
  let cur: unknown = values;
  for (const part of key.split(".")) {
    if (!isMapping(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The `${VAR}` names a string refers to. */
export function referencedVars(values: unknown[]): string[] {
  const names = new Set<string>();
  for (const v of values) {
    if (typeof v === "string") { for (const m of v.matchAll(VAR)) names.add(m[1]); }
  }
  return [...names];
}

/** Expands `~` (at the start) and `${VAR}` in a string; unknown variables are left as written. */
export function expandConfigString(
  s: string,
  env: Record<string, string>,
  userHome?: string,
): string {
  let out = s.replace(VAR, (whole, name) => env[name] ?? whole);
  if (userHome && (out === "~" || out.startsWith("~/"))) out = userHome + out.slice(1);
  return out;
}

/** The raw (unexpanded) value of each entry: config.yaml first, else the default; null when neither. */
export function rawConfigValues(
  entries: ConfigEntry[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of entries) {
    let value = dotPath(values, entry.key);
    if (value === undefined || value === null || value === "") value = entry.default ?? null;
    out[entry.key] = value;
  }
  return out;
}

/** Expands every string value. */
export function expandConfigValues(
  raw: Record<string, unknown>,
  env: Record<string, string>,
  userHome?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    out[k] = typeof v === "string" ? expandConfigString(v, env, userHome) : v;
  }
  return out;
}

/** Formats one value for the block: text as is, other values as JSON, empty as `(not set)`. */
export function formatConfigValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(not set)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The block of [P-6] (without the blank line that follows it); empty when nothing is declared. */
export function configBlock(values: Record<string, unknown>, configFile: string): string {
  const keys = Object.keys(values);
  if (keys.length === 0) return "";
  return `[Skill config (from ${configFile}):\n${
    keys.map((k) => `  ${k} = ${formatConfigValue(values[k])}`).join("\n")
  }\n]`;
}
