/**
 * `config.yaml`, section `skills:` ([H-2]): a pure parser from text to a typed config
 * (with problems noted for `doctor`), and a loader cached by the file's identity.
 *
 * @module
 */
import { parseYaml } from "../deps/yaml.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { ValidationError } from "../errors.ts";
import { isMapping } from "../mapping.ts";
import { DEFAULT_WALK_LIMITS } from "../scan/walk.ts";
import { AGENT_NAMES, agentConvention } from "./agents.ts";
import { DEFAULT_ENV_PASSTHROUGH, isEnvName } from "../preprocess/env_access.ts";

/** The `skills:` section of config.yaml, with every default filled in. */
export interface SkillsConfig {
  /** `external_dirs`, as written (expanded later by the roots). */
  external_dirs: string[];
  /** Skill names hidden everywhere. */
  disabled: string[];
  /** Skill names hidden per platform (`cli`, `telegram`, …). */
  platform_disabled: Record<string, string[]>;
  /** Project roots whose `.hermes/skills` and `.agents/skills` are trusted ([H-4]). */
  trusted_project_dirs: string[];
  /** Whether project roots are looked for at all. */
  project_discovery: boolean;
  /** Whether `${HERMES_SKILL_DIR}` and friends are expanded ([P-2]). */
  template_vars: boolean;
  /** Whether inline shell runs ([P-3]). */
  inline_shell: boolean;
  /** Inline shell timeout in seconds (at least 1). */
  inline_shell_timeout: number;
  /** Programs inline shell may run ([P-4]). */
  inline_shell_allow: string[];
  /** Whether writes are staged for approval ([A-1]). */
  write_approval: boolean;
  /** Values for skill config ([P-6]). */
  config: Record<string, unknown>;
  /** Hub settings. */
  hub: Record<string, unknown>;
  /** Environment variables whose values a skill's config default may show ([P-7]). */
  env_passthrough: string[];
  /** Agents whose skill folders are read-only roots after the external dirs ([H-5]). */
  agents: string[];
  /** Deepest folder level walked below a root ([S-3]). */
  max_depth: number;
  /** Most folders walked in one root ([S-3]). */
  max_dirs: number;
  /** Largest file served at Level 2, in bytes ([F-3]). */
  max_file_bytes: number;
  /** MCP `skills_list` without a category answers with the category map over this many skills ([PERF-5]). */
  mcp_list_max_skills: number;
  /** … or over this many characters of JSON. */
  mcp_list_max_chars: number;
}

/** The default inline-shell allow list of [P-4]. */
export const DEFAULT_INLINE_SHELL_ALLOW: readonly string[] = ["date", "echo", "printf", "uname"];

/** A config with every default: what a missing config.yaml means. */
export function defaultConfig(): SkillsConfig {
  return {
    external_dirs: [],
    disabled: [],
    platform_disabled: {},
    trusted_project_dirs: [],
    project_discovery: true,
    template_vars: true,
    inline_shell: false,
    inline_shell_timeout: 10,
    inline_shell_allow: [...DEFAULT_INLINE_SHELL_ALLOW],
    write_approval: false,
    config: {},
    hub: {},
    env_passthrough: [...DEFAULT_ENV_PASSTHROUGH],
    agents: [],
    max_depth: DEFAULT_WALK_LIMITS.maxDepth,
    max_dirs: DEFAULT_WALK_LIMITS.maxDirs,
    max_file_bytes: 1024 * 1024,
    mcp_list_max_skills: 200,
    mcp_list_max_chars: 40_000,
  };
}

/** A parsed config and the problems found in its values. */
export interface LoadedConfig {
  /** The config, defaults filled in where a value was missing or wrong. */
  config: SkillsConfig;
  /** Values of the wrong type, each replaced by its default. */
  problems: Diagnostic[];
}

const TRUE = new Set(["true", "yes", "on", "1"]);
const FALSE = new Set(["false", "no", "off", "0"]);

/** Reads a boolean written as true/false/yes/no/on/off/1/0; undefined when it is none. */
export function parseBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  const s = String(value).trim().toLowerCase();
  return TRUE.has(s) ? true : FALSE.has(s) ? false : undefined;
}

/**
 * Parses config.yaml text. Throws a {@linkcode SkillrtError} naming the file and line
 * when it is not YAML; wrong values become problems and keep their defaults.
 */
export function parseConfig(text: string, file = "config.yaml"): LoadedConfig {
  const parsed = parseYaml(text);
  if ("failure" in parsed) {
    const where = parsed.failure.line ? `${file}:${parsed.failure.line}` : file;
    throw new ValidationError(`Config file '${where}' does not parse: ${parsed.failure.message}.`, {
      file,
      line: parsed.failure.line ?? null,
    });
  }
  const config = defaultConfig();
  const problems: Diagnostic[] = [];
  const top = parsed.value ?? {};
  if (!isMapping(top)) {
    throw new ValidationError(`Config file '${file}' must be a YAML mapping.`, { file });
  }
  const skills = top.skills ?? {};
  if (!isMapping(skills)) {
    problems.push(
      diagnostic("error", "config.type", "'skills' must be a mapping; it was ignored.", {
        path: file,
      }),
    );
    return { config, problems };
  }
  const read = new SkillsReader(skills, config, problems, file);
  readLists(read);
  readScalars(read);
  readHub(read);
  return { config, problems };
}

/** Reads the values of the `skills` mapping into a config; a wrong value is a problem. */
class SkillsReader {
  readonly skills: Record<string, unknown>;
  readonly config: SkillsConfig;
  readonly problems: Diagnostic[];
  readonly file: string;

  constructor(
    skills: Record<string, unknown>,
    config: SkillsConfig,
    problems: Diagnostic[],
    file: string,
  ) {
    this.skills = skills;
    this.config = config;
    this.problems = problems;
    this.file = file;
  }

  /** Notes that `skills.<key>` is not what it must be. */
  bad(key: string, want: string): void {
    this.problems.push(
      diagnostic("error", "config.type", `'skills.${key}' must be ${want}; the default is used.`, {
        path: this.file,
      }),
    );
  }

  /** A list of strings (a lone string is a list of one); undefined when absent or wrong. */
  list(key: string, value: unknown): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return [value];
    if (
      Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")
    ) {
      return value.map(String);
    }
    this.bad(key, "a list of strings");
    return undefined;
  }

  /** Sets a boolean key when it is given as one. */
  bool(key: keyof SkillsConfig): void {
    if (this.skills[key] === undefined || this.skills[key] === null) return;
    const b = parseBool(this.skills[key]);
    if (b === undefined) this.bad(key, "true or false");
    else (this.config as unknown as Record<string, unknown>)[key] = b;
  }

  /** Sets a whole-number key when it is given as one of at least `min`. */
  int(key: keyof SkillsConfig, min: number): void {
    const v = this.skills[key];
    if (v === undefined || v === null) return;
    const n = typeof v === "number" ? v : Number(String(v));
    if (!Number.isFinite(n) || n < min) this.bad(key, `a number of at least ${min}`);
    else (this.config as unknown as Record<string, unknown>)[key] = Math.floor(n);
  }
}

/** The list-valued keys: roots, disabled names, allowed programs and variables. */
function readLists(read: SkillsReader): void {
  const { skills, config } = read;
  config.external_dirs = read.list("external_dirs", skills.external_dirs) ?? [];
  config.disabled = read.list("disabled", skills.disabled) ?? [];
  config.trusted_project_dirs = read.list("trusted_project_dirs", skills.trusted_project_dirs) ??
    [];
  config.inline_shell_allow = read.list("inline_shell_allow", skills.inline_shell_allow) ??
    config.inline_shell_allow;
  const passthrough = read.list("env_passthrough", skills.env_passthrough);
  if (passthrough) {
    config.env_passthrough = passthrough.filter(isEnvName);
    const invalid = passthrough.filter((n) => !isEnvName(n));
    if (invalid.length) {
      read.problems.push(
        diagnostic(
          "error",
          "config.type",
          `'skills.env_passthrough' names invalid variables (${
            invalid.join(", ")
          }); they were ignored.`,
          { path: read.file },
        ),
      );
    }
  }
  const agents = read.list("agents", skills.agents);
  if (agents) {
    config.agents = [...new Set(agents.filter((a) => agentConvention(a)))];
    const unknown = agents.filter((a) => !agentConvention(a));
    if (unknown.length) {
      read.problems.push(
        diagnostic(
          "error",
          "config.type",
          `'skills.agents' names unknown agents (${unknown.join(", ")}); use ${
            AGENT_NAMES.join(", ")
          }.`,
          { path: read.file },
        ),
      );
    }
  }
  const pd = skills.platform_disabled;
  if (isMapping(pd)) {
    for (const [platform, names] of Object.entries(pd)) {
      const l = read.list(`platform_disabled.${platform}`, names);
      if (l) config.platform_disabled[platform] = l;
    }
  } else if (pd !== undefined && pd !== null) {
    read.bad("platform_disabled", "a mapping of platform to names");
  }
}

/** The switches, the bounds, and the `config` and `hub` mappings. */
function readScalars(read: SkillsReader): void {
  for (
    const key of ["project_discovery", "template_vars", "inline_shell", "write_approval"] as const
  ) read.bool(key);
  read.int("inline_shell_timeout", 1);
  read.int("max_depth", 0);
  read.int("max_dirs", 1);
  read.int("max_file_bytes", 1);
  read.int("mcp_list_max_skills", 1);
  read.int("mcp_list_max_chars", 1);
  for (const key of ["config", "hub"] as const) {
    const v = read.skills[key];
    if (isMapping(v)) read.config[key] = v;
    else if (v !== undefined && v !== null) read.bad(key, "a mapping");
  }
}

/** `hub.indexes`, `hub.collections` and `hub.trusted_keys`: a wrong one is dropped. */
function readHub(read: SkillsReader): void {
  const hub = read.config.hub;
  for (
    const [key, want] of [
      ["indexes", "a URL or a list of URLs"],
      ["collections", "a repository or a list of repositories"],
    ] as const
  ) {
    const value = hub[key];
    if (
      value !== undefined && value !== null && typeof value !== "string" &&
      !(Array.isArray(value) && value.every((i) => typeof i === "string"))
    ) {
      read.bad(`hub.${key}`, want);
      delete hub[key];
    }
  }
  // [T-2]: label → public key line (`ed25519:<base64 of 32 bytes>`); a bad entry is dropped.
  const keys = hub.trusted_keys;
  if (keys !== undefined && keys !== null) {
    const lines = isMapping(keys) ? Object.entries(keys) : [];
    const good = lines.filter(([, line]) =>
      typeof line === "string" && /^ed25519:[A-Za-z0-9+/]{43}=$/.test(line.trim())
    );
    if (!isMapping(keys) || good.length !== lines.length) {
      read.bad("hub.trusted_keys", "a mapping of label to an 'ed25519:<base64>' key line");
    }
    hub.trusted_keys = Object.fromEntries(good);
  }
}

interface CacheEntry {
  key: string;
  loaded: LoadedConfig;
}
const cache = new Map<string, CacheEntry>();
let parses = 0;

/**
 * How many times {@linkcode loadConfig} has read and parsed a file in this isolate (its
 * cache misses): a diagnostic counter, so that a test can observe a cache hit.
 */
export function configParses(): number {
  return parses;
}

/**
 * Loads `<home>/config.yaml`. A missing file is an empty config. The parse is cached
 * by (path, mtime, ctime, size, inode) and callers always get a copy.
 */
export function loadConfig(file: string): LoadedConfig & { exists: boolean } {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { config: defaultConfig(), problems: [], exists: false };
    }
    throw error;
  }
  const key = [info.mtime?.getTime(), info.ctime?.getTime(), info.size, info.ino].join(":");
  let entry = cache.get(file);
  if (!entry || entry.key !== key) {
    entry = { key, loaded: parseConfig(Deno.readTextFileSync(file), file) };
    parses++;
    cache.set(file, entry);
  }
  return { ...structuredClone(entry.loaded), exists: true };
}
