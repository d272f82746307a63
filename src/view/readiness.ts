/**
 * A skill's readiness beyond environment variables ([V-9]): what it declares, and what of
 * that is missing, looked up through a {@linkcode ReadinessProbe} (the warden's, for a
 * sandboxed Worker). Shared by `view`, `invoke` and `doctor`.
 *
 * @module
 */
import type { Frontmatter } from "../frontmatter/parse.ts";
import type { ReadinessProbe } from "../home/readiness_probe.ts";
import {
  type RefusedRequirement,
  type RequiredCommand,
  requiredCommands,
  type RequiredCredentialFile,
  requiredCredentialFiles,
} from "./requirements.ts";

/** What a skill needs besides environment variables, and what of it is missing. */
export interface Readiness {
  /** Programs it needs on PATH. */
  requiredCommands: RequiredCommand[];
  /** Those not found on PATH. */
  missingRequiredCommands: string[];
  /** Files it needs under the home. */
  requiredCredentialFiles: RequiredCredentialFile[];
  /** Those not present. */
  missingRequiredCredentialFiles: string[];
  /** Entries refused as unsafe or malformed (never looked up). */
  refused: RefusedRequirement[];
}

/** The requirements of a frontmatter (no lookup). */
export function requirementsOf(
  frontmatter: Frontmatter,
): Pick<Readiness, "requiredCommands" | "requiredCredentialFiles" | "refused"> {
  const commands = requiredCommands(frontmatter);
  const files = requiredCredentialFiles(frontmatter);
  return {
    requiredCommands: commands.commands,
    requiredCredentialFiles: files.files,
    refused: [...commands.refused, ...files.refused],
  };
}

/** The readiness of one skill; without a probe, everything it declares counts as missing. */
export async function readinessOf(
  frontmatter: Frontmatter,
  probe?: ReadinessProbe,
): Promise<Readiness> {
  const needs = requirementsOf(frontmatter);
  const commands = needs.requiredCommands.map((c) => c.name);
  const files = needs.requiredCredentialFiles.map((f) => f.path);
  const found = commands.length || files.length
    ? await probe?.({ commands, files }) ?? { commands: [], files: [] }
    : { commands: [], files: [] };
  return {
    ...needs,
    missingRequiredCommands: commands.filter((c) => !found.commands.includes(c)),
    missingRequiredCredentialFiles: files.filter((f) => !found.files.includes(f)),
  };
}

/** A refused entry as one line for notes and diagnostics. */
export function refusedNote(r: RefusedRequirement): string {
  return `${r.field} entry '${r.value}' was not checked: ${r.reason}.`;
}

/** What is missing, for a setup note. */
export interface Missing {
  /** Environment variables not set. */
  env: readonly string[];
  /** Programs not on PATH. */
  commands: readonly string[];
  /** Credential files not under the home. */
  files: readonly string[];
}

/** The missing parts of a view. */
export function missingOf(view: {
  missingRequiredEnvironmentVariables: string[];
  missingRequiredCommands: string[];
  missingRequiredCredentialFiles: string[];
}): Missing {
  return {
    env: view.missingRequiredEnvironmentVariables,
    commands: view.missingRequiredCommands,
    files: view.missingRequiredCredentialFiles,
  };
}

const isAre = (xs: readonly string[]) => (xs.length === 1 ? "is" : "are");

/** The setup note of an invocation message ([V-7], [V-9]); empty when nothing is missing. */
export function setupNote(missing: Missing, home: string): string {
  const clauses: string[] = [];
  if (missing.env.length) {
    clauses.push(
      `${missing.env.join(", ")} ${
        isAre(missing.env)
      } not set (in the environment or ${home}/.env)`,
    );
  }
  if (missing.commands.length) {
    clauses.push(`${missing.commands.join(", ")} ${isAre(missing.commands)} not on PATH`);
  }
  if (missing.files.length) {
    clauses.push(`${missing.files.join(", ")} ${isAre(missing.files)} missing under ${home}`);
  }
  if (clauses.length === 0) return "";
  const count = missing.env.length + missing.commands.length + missing.files.length;
  return `[Skill setup note: ${clauses.join("; ")}; the skill still loads, but what needs ${
    count === 1 ? "it" : "them"
  } will not work until then.]`;
}

/** What to do, for `view`'s note on stderr; empty when nothing is missing. */
export function setupAdvice(missing: Missing, home: string): string {
  const steps: string[] = [];
  if (missing.env.length) {
    steps.push(`set ${missing.env.join(", ")} (in the environment or ${home}/.env)`);
  }
  if (missing.commands.length) steps.push(`install ${missing.commands.join(", ")} (not on PATH)`);
  if (missing.files.length) steps.push(`create ${missing.files.join(", ")} (under ${home})`);
  return steps.length ? `setup needed: ${steps.join("; ")}.` : "";
}
