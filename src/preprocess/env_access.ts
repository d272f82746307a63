/**
 * Which environment variables a skill's output may show ([P-7]): the one rule that
 * decides, for a `${VAR}` in a config value, whether the value of VAR may be read, and on
 * what ground. A `${VAR}` the user wrote in config.yaml (`skills.config`) expands; one
 * that comes from a skill (a config `default`) expands only for names in
 * `skills.env_passthrough` or, for skills not of `community` trust, names the skill
 * declares in `required_environment_variables` — and never, on a skill's claim, a name the
 * environment policy refuses (`env_policy.ts`: one that steers programs). The view asks with a ground per name;
 * whoever holds the values (the warden, or the library reading its own environment)
 * checks the ground again with {@linkcode admitsAsk} before answering. Pure.
 *
 * @module
 */
import { isMapping } from "../mapping.ts";
import { envNameAllowed, envNamePolicy } from "./env_policy.ts";

/** The variables a skill may read by default: no secrets, only where the user lives. */
export const DEFAULT_ENV_PASSTHROUGH: readonly string[] = [
  "HOME",
  "USER",
  "LANG",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
];

/**
 * Why a value may be read: the user wrote `${VAR}` in config.yaml (`config`), the name
 * is in `skills.env_passthrough` (`passthrough`), or a skill not of community trust
 * declares it in `required_environment_variables` (`declared`).
 */
export type EnvGround = "config" | "passthrough" | "declared";

/** One environment question: a name and the ground it is asked on. */
export interface EnvAsk {
  /** The variable name. */
  name: string;
  /** Why it is asked. */
  why: EnvGround;
}

/** What the user's config says about environment access. */
export interface EnvRules {
  /** `skills.env_passthrough`. */
  passthrough: readonly string[];
  /** `skills.config`: the user's own values; a `${VAR}` written there may expand. */
  userConfig: Record<string, unknown>;
}

/** What a skill brings to the question: its declared names and its trust. */
export interface SkillEnvFacts {
  /** The skill's name, for the note. */
  skill: string;
  /** Names in its `required_environment_variables` (and the other [V-4] places). */
  declared: readonly string[];
  /** Its hub trust level, when it was installed from the hub. */
  trust?: string;
}

/** Where a string with `${VAR}` came from: the user's config.yaml, or a skill. */
export type ValueOrigin = "user" | SkillEnvFacts;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Whether a string is a valid environment variable name. */
export function isEnvName(name: unknown): name is string {
  return typeof name === "string" && NAME.test(name);
}

/** The `${VAR}` names in the strings of a value (nested lists and mappings included). */
export function referencedNames(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string") { for (const m of value.matchAll(VAR)) into.add(m[1]); }
  else if (Array.isArray(value)) { for (const v of value) referencedNames(v, into); }
  else if (isMapping(value)) { for (const v of Object.values(value)) referencedNames(v, into); }
  return into;
}

/**
 * The one rule: whether `ground` holds for `name`. `skill` is the skill whose value asks;
 * when it is absent (the warden, which reads no skill content), a `declared` claim is
 * taken as made by the view, which checked it against the skill.
 */
export function groundHolds(
  name: string,
  ground: EnvGround,
  rules: EnvRules,
  skill?: SkillEnvFacts,
): boolean {
  if (!isEnvName(name)) return false;
  switch (ground) {
    case "config":
      return referencedNames(rules.userConfig).has(name);
    case "passthrough":
      return rules.passthrough.includes(name);
    case "declared":
      // A skill's claim never reaches a variable that steers programs (env_policy.ts).
      return envNameAllowed(name) && (skill === undefined ||
        (skill.trust !== "community" && skill.declared.includes(name)));
  }
}

/** The ground on which a `${name}` from `origin` may expand, or why it may not (one sentence). */
export function envGround(
  name: string,
  origin: ValueOrigin,
  rules: EnvRules,
): { why: EnvGround } | { refused: string } {
  const grounds: EnvGround[] = origin === "user"
    ? ["config", "passthrough"]
    : ["passthrough", "declared"];
  const skill = origin === "user" ? undefined : origin;
  for (const why of grounds) {
    if (groundHolds(name, why, rules, skill ?? NO_SKILL)) return { why };
  }
  if (!isEnvName(name)) return { refused: `'${name}' is not a valid variable name` };
  const policy = envNamePolicy(name);
  if (!policy.allowed && skill !== undefined) {
    return {
      refused:
        `${name} is not in skills.env_passthrough, and no skill may claim it: ${policy.reason}`,
    };
  }
  if (skill?.trust === "community") {
    return {
      refused:
        `skill '${skill.skill}' has community trust, so only names in skills.env_passthrough expand`,
    };
  }
  return {
    refused: `${name} is not in skills.env_passthrough and skill '${
      skill?.skill ?? "?"
    }' does not declare it in required_environment_variables`,
  };
}

/** A skill that declares nothing: for user values, which never stand on a declaration. */
const NO_SKILL: SkillEnvFacts = { skill: "", declared: [] };

/** Whether an ask may be answered (the warden's check, and the library's). */
export function admitsAsk(ask: EnvAsk, rules: EnvRules): boolean {
  return groundHolds(ask.name, ask.why, rules);
}
