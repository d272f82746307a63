/**
 * Who sees a skill at Level 0 ([L0-2..5]): platform, environments, disabled lists and
 * toolset conditions. Pure functions over frontmatter and facts.
 *
 * @module
 */
import type { Frontmatter } from "../frontmatter/parse.ts";
import type { SkillsConfig } from "../home/config.ts";
import { hermesMetadata, listField, type SkillRecord } from "../scan/record.ts";
import { nameKey } from "../scan/name_key.ts";
import { SkillrtError } from "../errors.ts";

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

/**
 * The disabled names for a platform ([L0-4]): `disabled` ∪ `platform_disabled[P]`, each
 * in its compared form ([M-6]); ask {@linkcode isDisabled}.
 */
export function disabledNames(config: SkillsConfig, platform?: string): Set<string> {
  const names = new Set(config.disabled.map(nameKey));
  if (platform) { for (const n of config.platform_disabled[platform] ?? []) names.add(nameKey(n)); }
  return names;
}

/** A skill the config disables, refused by a view ([L0-4]): family `failed`, exit 1. */
export class SkillDisabledError extends SkillrtError {
  /** Refuses the skill `name`, with the hint that says how to enable it. */
  constructor(name: string) {
    super(`Skill '${name}' is disabled.`, {
      hint:
        "Remove it from skills.disabled (or skills.platform_disabled) in config.yaml to use it.",
    });
    this.name = "SkillDisabledError";
  }
}

/** True when `name` is among the {@linkcode disabledNames} (compared after NFKC, [M-6]). */
export function isDisabled(disabled: ReadonlySet<string>, name: string): boolean {
  return disabled.has(nameKey(name));
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

/** Everything {@linkcode hiddenReason} weighs. */
export interface VisibilityFacts extends Availability {
  /** The current platform (`linux`, `darwin`, `win32`). */
  platform: string;
  /** Detected environments. */
  environments: readonly string[];
  /** Disabled names, from {@linkcode disabledNames}. */
  disabled: ReadonlySet<string>;
}

/** Why a skill is hidden at Level 0 ([L0-9]): the first rule of [L0-1] it fails. */
export type HiddenReason = "disabled" | "platform" | "environment" | "conditions";

/** Why a skill does not show at Level 0 ([L0-1], [L0-9]), or null when it shows. */
export function hiddenReason(record: SkillRecord, facts: VisibilityFacts): HiddenReason | null {
  if (isDisabled(facts.disabled, record.name)) return "disabled";
  if (!platformMatches(record.frontmatter, facts.platform)) return "platform";
  if (!environmentMatches(record.frontmatter, facts.environments)) return "environment";
  if (!conditionsHold(record.frontmatter, facts)) return "conditions";
  return null;
}

/** True when a skill shows at Level 0 ([L0-1]). */
export function isVisible(record: SkillRecord, facts: VisibilityFacts): boolean {
  return hiddenReason(record, facts) === null;
}
