/**
 * Names of files written or installed ([X-7]): no control characters (C0 including
 * newline and ESC, DEL, and C1) and no bidirectional controls (a right-to-left override
 * makes `evil\u202Edm.sh` show as `evilhs.md`), so no name can break a line of output, a manifest or an
 * audit line, or send a terminal escape. One predicate for every writing path: `write-file`,
 * `create`, hub installs (archives, folders, git checkouts) and `sync`.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** True when `name` holds a control character. */
export function hasControlChar(name: string): boolean {
  return CONTROL.test(name);
}

/** `name` with its control characters shown as `\xNN`, for messages. */
export function showControls(name: string): string {
  return name.replace(
    new RegExp(CONTROL.source, "g"),
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

/**
 * Throws when a file or folder name (or a `/`-separated path) holds a control character.
 * @throws {SkillrtError} naming the path with its control characters made visible.
 */
export function assertCleanFileName(name: string): void {
  if (hasControlChar(name)) {
    throw new ValidationError(
      `Refusing the file name '${showControls(name)}': names may not contain control characters.`,
    );
  }
}
