/**
 * Readiness beyond environment variables ([V-9]): the programs a skill needs on PATH
 * (`required_commands`, and Hermes's `prerequisites.commands`) and the credential files
 * it needs under the home (`required_credential_files`). A skill is hostile input: a
 * program must be a bare name, and a credential file a relative path that stays below
 * the home (no absolute path, no `~`, no `..`, no backslash, no control character);
 * anything else is refused, never looked up. Pure.
 *
 * @module
 */
import type { Frontmatter } from "../frontmatter/parse.ts";
import { isMapping } from "../mapping.ts";

/** One program a skill needs on PATH. */
export interface RequiredCommand {
  /** The program's name (no path). */
  name: string;
  /** How to get it, when the skill says. */
  help?: string;
}

/** One file a skill needs under the home. */
export interface RequiredCredentialFile {
  /** The path relative to the home, normalised (`a/./b` → `a/b`). */
  path: string;
  /** What it is and how it is made, when the skill says. */
  description?: string;
}

/** An entry a skill declared that is not looked up, and why. */
export interface RefusedRequirement {
  /** `required_commands` or `required_credential_files`. */
  field: string;
  /** The entry as written (cut to 200 characters). */
  value: string;
  /** Why it was refused. */
  reason: string;
}

const COMMAND = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,127}$/;

/** Whether `name` is a program name that may be looked up on PATH: a bare name, no path. */
export function isCommandName(name: unknown): name is string {
  return typeof name === "string" && COMMAND.test(name) && name !== "." && name !== "..";
}

/** Why a credential path may not be looked up, or undefined when it may. */
export function credentialPathProblem(path: unknown): string | undefined {
  if (typeof path !== "string" || path.trim() === "") return "not a non-empty string";
  if (path.length > 1024) return "longer than 1024 characters";
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return "holds a control character";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.startsWith("~")) {
    return "not relative to the home";
  }
  if (path.includes("\\")) return "holds a backslash";
  if (path.split("/").includes("..")) return "has a '..' component";
  if (normalPath(path) === "") return "names the home itself";
  return undefined;
}

/** A relative path without empty and `.` components. */
export function normalPath(path: string): string {
  return path.split("/").filter((p) => p !== "" && p !== ".").join("/");
}

function entriesOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

const shown = (value: unknown) =>
  (typeof value === "string" ? value : JSON.stringify(value) ?? String(value)).slice(0, 200);

/** The programs a skill needs: `required_commands`, then `prerequisites.commands`; first wins. */
export function requiredCommands(
  frontmatter: Frontmatter,
): { commands: RequiredCommand[]; refused: RefusedRequirement[] } {
  const raw = [...entriesOf(frontmatter.required_commands)];
  if (isMapping(frontmatter.prerequisites)) {
    raw.push(...entriesOf(frontmatter.prerequisites.commands));
  }
  const commands: RequiredCommand[] = [];
  const refused: RefusedRequirement[] = [];
  for (const item of raw) {
    const name = isMapping(item) ? item.name ?? item.command : item;
    const trimmed = typeof name === "string" ? name.trim() : name;
    if (!isCommandName(trimmed)) {
      refused.push({
        field: "required_commands",
        value: shown(name),
        reason: "not a bare program name (letters, digits, '.', '_', '+', '-'; no path)",
      });
      continue;
    }
    if (commands.some((c) => c.name === trimmed)) continue;
    const help = isMapping(item) && typeof item.help === "string" ? { help: item.help } : {};
    commands.push({ name: trimmed, ...help });
  }
  return { commands, refused };
}

/** The credential files a skill needs under the home (`required_credential_files`); first wins. */
export function requiredCredentialFiles(
  frontmatter: Frontmatter,
): { files: RequiredCredentialFile[]; refused: RefusedRequirement[] } {
  const files: RequiredCredentialFile[] = [];
  const refused: RefusedRequirement[] = [];
  for (const item of entriesOf(frontmatter.required_credential_files)) {
    const path = isMapping(item) ? item.path : item;
    const problem = credentialPathProblem(path);
    if (problem !== undefined) {
      refused.push({ field: "required_credential_files", value: shown(path), reason: problem });
      continue;
    }
    const normal = normalPath(path as string);
    if (files.some((f) => f.path === normal)) continue;
    const description = isMapping(item) && typeof item.description === "string"
      ? { description: item.description }
      : {};
    files.push({ path: normal, ...description });
  }
  return { files, refused };
}
