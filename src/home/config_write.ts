/**
 * Writing the user's own files: config.yaml ([V-10] `enable`/`disable`, [V-9] `setup`)
 * and `<home>/.env` ([V-9]). Each is changed under its inter-process lock, read afresh,
 * edited ({@linkcode editConfigText} keeps comments and other keys; `.env` keeps its
 * other lines) and written through the atomic writer — never through a link, `.env`
 * with mode 0600. Only the commands the user runs at the CLI are granted these files
 * (`src/warden/write_guard.ts`).
 *
 * @module
 */
import { NotFoundError, ValidationError } from "../errors.ts";
import { atomicWrite } from "../manage/atomic.ts";
import { hasControlChar } from "../manage/file_names.ts";
import { envNamePolicy } from "../preprocess/env_policy.ts";
import { withLock } from "../manage/mutex.ts";
import { type ConfigChange, editConfigText } from "./config_edit.ts";
import { joinPath } from "./paths.ts";
import type { HomeLayout } from "./layout.ts";

/** One change of config.yaml: the value at a key path. */
export interface ConfigEdit {
  /** Keys from the top, e.g. `["skills", "disabled"]`. */
  path: string[];
  /** What happens to the value. */
  change: ConfigChange;
}

/** A file's text and permission bits; empty when it does not exist; a link is refused. */
function readOwn(file: string): { text: string; mode: number | undefined } {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { text: "", mode: undefined };
    throw error;
  }
  if (info.isSymlink) {
    throw new ValidationError(
      `'${file}' is a symbolic link; skillrt does not write through links. Edit it by hand.`,
    );
  }
  if (!info.isFile) throw new ValidationError(`'${file}' is not a regular file.`);
  return {
    text: Deno.readTextFileSync(file),
    mode: info.mode === null ? undefined : info.mode & 0o777,
  };
}

/** The real home folder the user's files are written in (the plan lets these commands read it). */
function homeOf(setup: HomeLayout): string {
  if (!setup.homeExists) {
    throw new NotFoundError(`The home '${setup.home}' does not exist; nothing was written.`);
  }
  return Deno.realPathSync(setup.home);
}

/** The text config.yaml would have after `edits` (the text itself when nothing changes). */
export function configAfter(
  setup: HomeLayout,
  edits: ConfigEdit[],
): { before: string; after: string } {
  const { text } = readOwn(setup.configFile);
  let after = text;
  for (const edit of edits) {
    after = editConfigText(after, edit.path, edit.change, setup.configFile);
  }
  return { before: text, after };
}

/** Applies `edits` to config.yaml under its lock; returns false when nothing changed. */
export async function writeConfigEdits(setup: HomeLayout, edits: ConfigEdit[]): Promise<boolean> {
  const first = configAfter(setup, edits);
  if (first.after === first.before) return false;
  const within = homeOf(setup);
  const file = setup.configFile;
  return await withLock(file, () => {
    const { mode } = readOwn(file);
    const { before, after } = configAfter(setup, edits);
    if (after === before) return false;
    atomicWrite(file, after, { fixedTemp: true, within, mode: mode ?? 0o644 });
    return true;
  });
}

/** `<home>/.env`. */
export function dotenvFile(home: string): string {
  return joinPath(home, ".env");
}

/**
 * A `.env` value: bare when plain; else single-quoted (taken literally by dotenv
 * readers); else double-quoted with `\` and `"` escaped.
 */
export function dotenvValue(value: string): string {
  if (/^[A-Za-z0-9_./:@+,=-]*$/.test(value)) return value;
  if (!/['\\]/.test(value)) return `'${value}'`;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * `.env` text with `values` set: a line that names a variable with an empty value is
 * replaced, other variables are added at the end; every other line is kept. A name the
 * environment policy refuses (one that steers programs: `envNamePolicy`) is never written.
 */
export function dotenvWith(text: string, values: Record<string, string>): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  for (const [name, value] of Object.entries(values)) {
    const policy = envNamePolicy(name);
    if (policy.family === "invalid") throw new ValidationError(`Invalid variable name '${name}'.`);
    if (!policy.allowed) {
      throw new ValidationError(`Refusing to store ${name} in .env: ${policy.reason}.`);
    }
    if (hasControlChar(value)) {
      throw new ValidationError(
        `The value of ${name} must be one line without control characters.`,
      );
    }
    const line = `${name}=${dotenvValue(value)}`;
    const empty = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=\\s*(""|'')?\\s*$`);
    const at = lines.findIndex((l) => empty.test(l));
    if (at >= 0) lines[at] = line;
    else lines.push(line);
  }
  return lines.join(eol) + eol;
}

/** Sets variables in `<home>/.env` under its lock: written atomically with mode 0600. */
export async function writeDotenv(
  setup: HomeLayout,
  values: Record<string, string>,
): Promise<void> {
  const within = homeOf(setup);
  const file = dotenvFile(setup.home);
  await withLock(file, () => {
    const { text } = readOwn(file);
    atomicWrite(file, dotenvWith(text, values), { fixedTemp: true, within, mode: 0o600 });
  });
}
