/**
 * Skill config injection ([P-6]): the values of the entries a skill declares in
 * `metadata.hermes.config`, looked up by dot path in `skills.config`, with defaults,
 * `~` and `${VAR}` expanded under the environment rule of [P-7], and the block that is
 * prepended to the content.
 *
 * @module
 */
import { isMapping } from "../mapping.ts";
import { hermesMetadata, type SkillRecord } from "../scan/record.ts";
import {
  type EnvAsk,
  envGround,
  type EnvRules,
  referencedNames,
  type SkillEnvFacts,
} from "./env_access.ts";

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

/** Expands `~` (at the start) and `${VAR}` in a string; variables not in `env` are left as written. */
export function expandConfigString(
  s: string,
  env: Record<string, string>,
  userHome?: string,
): string {
  let out = s.replace(VAR, (whole, name) => Object.hasOwn(env, name) ? env[name] : whole);
  if (userHome && (out === "~" || out.startsWith("~/"))) out = userHome + out.slice(1);
  return out;
}

/** One entry's value before expansion, and who wrote it: the user (config.yaml) or the skill (its default). */
export interface RawConfigValue {
  /** The value; null when neither config.yaml nor the default gives one. */
  value: unknown;
  /** `user` for a value from config.yaml, `skill` for the skill's default. */
  origin: "user" | "skill";
}

/** The raw (unexpanded) value of each entry: config.yaml first, else the default. */
export function rawConfigValues(
  entries: ConfigEntry[],
  values: Record<string, unknown>,
): Record<string, RawConfigValue> {
  const out: Record<string, RawConfigValue> = {};
  for (const entry of entries) {
    const value = dotPath(values, entry.key);
    out[entry.key] = value === undefined || value === null || value === ""
      ? { value: entry.default ?? null, origin: "skill" }
      : { value, origin: "user" };
  }
  return out;
}

/** The resolved values of a skill's config and the notes about `${VAR}` left as written. */
export interface ResolvedConfig {
  /** Value by key, strings expanded. */
  values: Record<string, unknown>;
  /** One sentence per variable that was not expanded, naming it (never its value). */
  notes: string[];
}

/**
 * Resolves a skill's config values ([P-6]) under the environment rule of [P-7]: each
 * `${VAR}` is asked for on the ground {@linkcode envGround} finds for its entry's origin,
 * values are fetched once, and each entry expands only the names its own origin allows.
 */
export async function resolveConfig(
  raw: Record<string, RawConfigValue>,
  skill: SkillEnvFacts,
  rules: EnvRules,
  fetch: (asks: EnvAsk[]) => Promise<Record<string, string>>,
  userHome?: string,
): Promise<ResolvedConfig> {
  const asks = new Map<string, EnvAsk>();
  const allowed = new Map<string, Set<string>>();
  const notes: string[] = [];
  for (const [key, { value, origin }] of Object.entries(raw)) {
    const names = new Set<string>();
    for (const name of typeof value === "string" ? referencedNames(value) : []) {
      const ground = envGround(name, origin === "user" ? "user" : skill, rules);
      if ("why" in ground) {
        names.add(name);
        asks.set(`${ground.why}:${name}`, { name, why: ground.why });
      } else {
        notes.push(
          `Config '${key}' of skill '${skill.skill}': \${${name}} was left as written: ${ground.refused} ([P-7]).`,
        );
      }
    }
    allowed.set(key, names);
  }
  const env = asks.size ? await fetch([...asks.values()]) : {};
  const values: Record<string, unknown> = {};
  for (const [key, { value }] of Object.entries(raw)) {
    if (typeof value !== "string") {
      values[key] = value;
      continue;
    }
    const own: Record<string, string> = {};
    for (const name of allowed.get(key) ?? []) if (Object.hasOwn(env, name)) own[name] = env[name];
    values[key] = expandConfigString(value, own, userHome);
  }
  return { values, notes };
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
