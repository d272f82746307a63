/**
 * The rules `validate` applies ([M-2], [M-5]): Hermes' content checks and the Agent
 * Skills and Claude Code profiles. Pure: text and folder name in, findings out.
 *
 * @module
 */
import type { Notice } from "../diagnostics.ts";
import { placeholderLines } from "../manage/skeleton_skill.ts";
import { type Fence, splitFrontmatter } from "../frontmatter/fence.ts";
import { type Frontmatter, parseFrontmatter } from "../frontmatter/parse.ts";
import { parseYaml } from "../deps/yaml.ts";
import {
  FRONTMATTER_PROBLEMS,
  type FrontmatterProblem,
  isYamlProblem,
} from "../frontmatter/problems.ts";
import { nameKey, sameName } from "../scan/name_key.ts";
import { firstParagraph, missingSections, saysWhenToUse } from "./sections.ts";

/** The validation profiles. */
export type Profile = "hermes" | "agentskills" | "claude";
/** Every profile name. */
export const PROFILES: readonly Profile[] = ["hermes", "agentskills", "claude"];

/** One finding of `validate` ([M-5]). */
export interface Finding extends Notice {
  /** The file checked. */
  file: string;
  /** 1-based line, or null when the finding is about the whole file. */
  line: number | null;
  /** Rule id, for example `agentskills.name-matches-folder`: what noticed it. */
  rule: string;
}

/** Most characters in a SKILL.md ([M-2]). */
export const MAX_SKILL_CHARS = 100_000;
const HERMES_NAME = /^[a-z0-9][a-z0-9._-]*$/;
const AGENTSKILLS_KEYS = new Set([
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
]);
const CLAUDE_KEYS = new Set([
  "name",
  "description",
  "license",
  "metadata",
  "allowed-tools",
  "model",
  "argument-hint",
  "disable-model-invocation",
  "user-invocable",
  "context",
  "agent",
  "hooks",
  "version",
  "when_to_use",
]);

/** What each profile checks beyond the shared content rules: a policy table. */
interface ProfileRules {
  nameOk(name: string): boolean;
  nameMessage(name: string): string;
  nameMatchesFolder: boolean;
  descriptionSeverity: Finding["severity"];
  descriptionLimit: string;
  compatibilityMax?: number;
  knownKeys?: ReadonlySet<string>;
  unknownKeySeverity: Finding["severity"];
  unknownKeyMessage(key: string): string;
  /** A frontmatter that is not valid YAML but reads after quoting `: ` values is an error ([S-6], [M-6]). */
  strictYaml: boolean;
}

const LOWER_HYPHEN = /^[a-z0-9-]+$/;
/** Letters of any script, digits and hyphens, as the Agent Skills reference allows. */
const LETTER_HYPHEN = /^[\p{L}\p{N}-]+$/u;

const PROFILE_RULES: Record<Profile, ProfileRules> = {
  hermes: {
    nameOk: (n) => HERMES_NAME.test(n) && n.length <= 64,
    nameMessage: (n) =>
      `Name '${n}' must match ^[a-z0-9][a-z0-9._-]*$ and be at most 64 characters.`,
    nameMatchesFolder: false,
    descriptionSeverity: "warning",
    descriptionLimit: "it is cut to 1024 when listed.",
    unknownKeySeverity: "warning",
    unknownKeyMessage: () => "",
    strictYaml: false,
  },
  agentskills: {
    nameOk: (name) => {
      const n = nameKey(name.trim());
      return n.length <= 64 && LETTER_HYPHEN.test(n) && n === n.toLowerCase() &&
        !n.startsWith("-") && !n.endsWith("-") && !n.includes("--");
    },
    nameMessage: (n) =>
      `Name '${n}' must be 1-64 lowercase letters, digits and hyphens, without a leading, trailing or double hyphen.`,
    nameMatchesFolder: true,
    descriptionSeverity: "error",
    descriptionLimit: "the limit is 1024.",
    compatibilityMax: 500,
    knownKeys: AGENTSKILLS_KEYS,
    unknownKeySeverity: "error",
    unknownKeyMessage: (k) =>
      `Field '${k}' is not allowed at the top level (allowed: ${
        [...AGENTSKILLS_KEYS].join(", ")
      }).`,
    strictYaml: true,
  },
  claude: {
    nameOk: (n) => n.length <= 64 && LOWER_HYPHEN.test(n),
    nameMessage: (n) => `Name '${n}' must be at most 64 lowercase letters, digits and hyphens.`,
    nameMatchesFolder: false,
    descriptionSeverity: "error",
    descriptionLimit: "the limit is 1024.",
    knownKeys: CLAUDE_KEYS,
    unknownKeySeverity: "warning",
    unknownKeyMessage: (k) => `Field '${k}' is not used by Claude Code.`,
    strictYaml: true,
  },
};

/** The line of a top-level key in a SKILL.md, or null. */
export function keyLine(text: string, key: string): number | null {
  const lines = text.split(/\r?\n/);
  for (let i = 1; i < lines.length && lines[i].trim() !== "---"; i++) {
    if (lines[i].startsWith(`${key}:`)) return i + 1;
  }
  return null;
}

/** Adds one finding of the file being checked. */
type Add = (
  rule: string,
  severity: Finding["severity"],
  message: string,
  line?: number | null,
) => void;

/** Checks the text of one SKILL.md in a folder named `folder` under a profile. */
export function checkSkill(
  text: string,
  file: string,
  folder: string,
  profile: Profile,
): Finding[] {
  const findings: Finding[] = [];
  const add: Add = (rule, severity, message, line = null) =>
    findings.push({ file, line, rule, severity, message });
  if (text.trim() === "") {
    add("content.empty", "error", "Content cannot be empty.");
    return findings;
  }
  if (text.length > MAX_SKILL_CHARS) {
    add(
      "content.too_long",
      "error",
      `SKILL.md is ${text.length} characters; the limit is ${MAX_SKILL_CHARS}.`,
    );
  }
  const fence = checkFence(text, add);
  if (!fence) return findings;
  // Fields are checked on what could be read, even after a repair.
  const fm = checkYaml(fence.yaml, file, PROFILE_RULES[profile], add);
  checkRequired(fm, fence.body, fence.bodyLine, add);
  if (profile === "hermes" && fence.body.trim() !== "") {
    for (const note of bodyNotes(fence.body)) add(note.rule, "info", note.message, fence.bodyLine);
  }
  checkProfile(text, fm, folder, profile, add);
  for (const line of placeholderLines(text)) {
    add(
      "skeleton.placeholder",
      "error",
      "This line is still the placeholder of 'skillrt init'; write the skill's own text.",
      line,
    );
  }
  return findings;
}

/** The frontmatter block, or undefined (and a finding) when there is none to read. */
function checkFence(text: string, add: Add): Extract<Fence, { kind: "ok" }> | undefined {
  const fence = splitFrontmatter(text, true);
  if (fence.kind === "ok") return fence;
  const [code, message]: [FrontmatterProblem, string] = fence.kind === "missing"
    ? ["frontmatter.missing", "SKILL.md must start with YAML frontmatter (---)."]
    : fence.kind === "too_large"
    ? ["frontmatter.too_large", "Frontmatter is larger than 64 KiB."]
    : ["frontmatter.unclosed", "SKILL.md frontmatter is not closed."];
  add(code, FRONTMATTER_PROBLEMS[code], message, 1);
  return undefined;
}

/** Parses the frontmatter; a YAML error is told in the strict parser's words. */
function checkYaml(yaml: string, file: string, rules: ProfileRules, add: Add): Frontmatter {
  const parsed = parseFrontmatter(yaml, 2, file);
  for (const d of parsed.diagnostics) {
    if (isYamlProblem(d.code)) {
      const strict = parseYaml(yaml);
      const detail = "failure" in strict ? strict.failure.message : d.message;
      // Listing repairs it ([S-6]); only the Hermes profile forgives it ([M-6]).
      const severity = d.code === "frontmatter.yaml_repaired" && rules.strictYaml
        ? "error"
        : d.severity;
      add(d.code, severity, `YAML frontmatter parse error: ${detail}`, d.line ?? null);
    } else if (d.code === "frontmatter.not_mapping") {
      add(d.code, d.severity, "Frontmatter must be a YAML mapping.", d.line ?? null);
    } else add(d.code, d.severity, d.message, d.line ?? null);
  }
  return parsed.data;
}

/** `name`, `description` and a body are there. */
function checkRequired(fm: Frontmatter, body: string, bodyLine: number, add: Add): void {
  if (fm.name === undefined || fm.name === null || fm.name === "") {
    add("frontmatter.name", "error", "Frontmatter must include 'name' field.", 1);
  }
  if (fm.description === undefined || fm.description === null || fm.description === "") {
    add("frontmatter.description", "error", "Frontmatter must include 'description' field.", 1);
  }
  if (body.trim() === "") {
    add("content.body", "error", "SKILL.md must have content after the frontmatter.", bodyLine);
  }
}

/** A frontmatter value as text: empty when absent. */
const textOf = (value: unknown) =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);

/** The rules of the profile: name form and folder, lengths, known fields. */
function checkProfile(
  text: string,
  fm: Frontmatter,
  folder: string,
  profile: Profile,
  add: Add,
): void {
  const rules = PROFILE_RULES[profile];
  const nameText = textOf(fm.name);
  const descText = textOf(fm.description);
  const nameLine = keyLine(text, "name");
  if (nameText && !rules.nameOk(nameText)) {
    add(`${profile}.name-format`, "error", rules.nameMessage(nameText), nameLine);
  }
  if (nameText && rules.nameMatchesFolder && !sameName(nameText.trim(), folder)) {
    add(
      `${profile}.name-matches-folder`,
      "error",
      `Name '${nameText}' must equal its folder name '${folder}'.`,
      nameLine,
    );
  }
  if (descText.length > 1024) {
    add(
      `${profile}.description-length`,
      rules.descriptionSeverity,
      `Description is ${descText.length} characters; ${rules.descriptionLimit}`,
      keyLine(text, "description"),
    );
  }
  const compat = fm.compatibility;
  if (
    rules.compatibilityMax !== undefined && typeof compat === "string" &&
    compat.length > rules.compatibilityMax
  ) {
    add(
      `${profile}.compatibility-length`,
      "error",
      `Compatibility is ${compat.length} characters; the limit is ${rules.compatibilityMax}.`,
      keyLine(text, "compatibility"),
    );
  }
  const known = rules.knownKeys;
  for (const key of known ? Object.keys(fm) : []) {
    if (!known?.has(key)) {
      add(
        `${profile}.unknown-field`,
        rules.unknownKeySeverity,
        rules.unknownKeyMessage(key),
        keyLine(text, key),
      );
    }
  }
}

/**
 * The recommendations of [M-6] for a body, as info notes: the recommended sections it
 * lacks (one note), and a first paragraph that does not say when to use the skill.
 */
export function bodyNotes(body: string): { rule: string; message: string }[] {
  const notes: { rule: string; message: string }[] = [];
  const missing = missingSections(body);
  if (missing.length) {
    notes.push({
      rule: "hermes.sections",
      message: `Recommended sections missing: ${missing.join(", ")} (skillrt init writes them).`,
    });
  }
  if (!saysWhenToUse(firstParagraph(body))) {
    notes.push({
      rule: "hermes.when-to-use",
      message: "The first paragraph does not say when to use the skill ('Use this skill when …').",
    });
  }
  return notes;
}
