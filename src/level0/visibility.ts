/**
 * Who sees a skill at Level 0 ([L0-2..5]): platform, environments, disabled lists and
 * toolset conditions. Pure functions over frontmatter and facts.
 *
 * @module
 */
import type { Frontmatter } from "../frontmatter/parse.ts";
import type { SkillsConfig } from "../home/config.ts";
import { hermesMetadata, listField, type SkillRecord } from "../scan/record.ts";

const PLATFORM_ALIASES: Record<string, string> = {
  macos: "darwin",
  windows: "win32",
  linux: "linux",
};

/** True when the skill's `platforms` (list or string) includes the current platform ([L0-2]). */
export function platformMatches(frontmatter: Frontmatter, platform: string): boolean {
  const declared = frontmatter.platforms;
  if (declared === undefined || declared === null || declared === "") return true;
  const list = Array.isArray(declared) ? declared : [declared];
  if (list.length === 0) return true;
  const current = platform.toLowerCase();
  // As Hermes: Termux (Android) and FreeBSD count as linux; termux and android name Android.
  const alike = current === "android"
    ? [current, "linux", "termux"]
    : current === "freebsd"
    ? [current, "linux"]
    : [current];
  return list.some((p) => {
    const name = String(p).trim().toLowerCase();
    return alike.some((c) => c.startsWith(PLATFORM_ALIASES[name] ?? name));
  });
}

const KNOWN_ENVIRONMENTS = new Set(["kanban", "docker", "s6"]);

/** True when the skill declares no `environments`, or any of them matches ([L0-3]). */
export function environmentMatches(frontmatter: Frontmatter, detected: readonly string[]): boolean {
  const declared = listField(frontmatter.environments);
  if (declared.length === 0) return true;
  return declared.some((tag) => {
    const t = tag.toLowerCase();
    return !KNOWN_ENVIRONMENTS.has(t) || detected.includes(t);
  });
}

/** The disabled names for a platform ([L0-4]): `disabled` ∪ `platform_disabled[P]`. */
export function disabledNames(config: SkillsConfig, platform?: string): Set<string> {
  const names = new Set(config.disabled);
  if (platform) { for (const n of config.platform_disabled[platform] ?? []) names.add(n); }
  return names;
}

/** What the caller says is available ([L0-5]); conditions apply only when given. */
export interface Availability {
  /** Available toolsets (`--toolsets`). */
  toolsets?: string[];
  /** Available tools (`--tools`). */
  tools?: string[];
}

/** True when the skill's `requires_*` hold and no `fallback_for_*` is available ([L0-5]). */
export function conditionsHold(frontmatter: Frontmatter, available: Availability): boolean {
  const hermes = hermesMetadata(frontmatter);
  const check = (have: string[] | undefined, requires: unknown, fallbackFor: unknown): boolean => {
    if (have === undefined) return true;
    const set = new Set(have);
    if (!listField(requires).every((x) => set.has(x))) return false;
    return !listField(fallbackFor).some((x) => set.has(x));
  };
  return check(available.toolsets, hermes.requires_toolsets, hermes.fallback_for_toolsets) &&
    check(available.tools, hermes.requires_tools, hermes.fallback_for_tools);
}

/** Everything {@linkcode isVisible} weighs. */
export interface VisibilityFacts extends Availability {
  /** The current platform (`linux`, `darwin`, `win32`). */
  platform: string;
  /** Detected environments. */
  environments: readonly string[];
  /** Disabled names. */
  disabled: ReadonlySet<string>;
}

/** True when a skill shows at Level 0 ([L0-1]). */
export function isVisible(record: SkillRecord, facts: VisibilityFacts): boolean {
  return !facts.disabled.has(record.name) &&
    platformMatches(record.frontmatter, facts.platform) &&
    environmentMatches(record.frontmatter, facts.environments) &&
    conditionsHold(record.frontmatter, facts);
}
