/**
 * Level 2 ([F-1..3]): one file inside a skill, only when it is needed. The path's form is
 * checked first (no `..`, no absolute path), then the file is opened and the opened
 * handle proved to lie inside the skill folder — no symlink out of it, no gap between
 * the check and the open ([S-9]).
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { basename, isAbsoluteAnywhere, joinPath } from "../home/paths.ts";
import { hasTraversal, quoted, suggestedNames } from "../resolve/name_guard.ts";
import type { Resolved } from "../resolve/resolve.ts";
import { listSkillFiles } from "../view/skill_files.ts";
import { openSkillFile, reachOf } from "../scan/containment.ts";
import { openedSize, openInside, PathEscapeError, readCapped } from "./open_inside.ts";

/** The success document of `view NAME PATH` ([F-3]). */
export interface FileResult {
  /** Always true. */
  success: true;
  /** The skill's name. */
  name: string;
  /** The path asked for, relative to the skill folder. */
  file: string;
  /** The text, or null for a binary file. */
  content: string | null;
  /** The file's extension (`md`, `py`, …), or `text` when it has none. */
  fileType: string;
  /** Size in bytes. */
  bytes: number;
  /** Present and true for binary files. */
  binary?: true;
  /** SHA-256 hex, for binary files. */
  sha256?: string;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Checks the form of a path inside a skill folder; throws the errors of [F-1]. */
export function checkSkillPath(path: string): void {
  if (typeof path !== "string" || path.trim() === "" || CONTROL.test(path)) {
    throw new ValidationError(
      `File path '${
        quoted(String(path))
      }' must be a non-empty relative path without control characters.`,
    );
  }
  if (hasTraversal(path)) throw new ValidationError("Path traversal ('..') is not allowed.");
  if (isAbsoluteAnywhere(path)) {
    throw new ValidationError(`Absolute paths are not allowed: '${path}'.`);
  }
}

/** A file of a skill read at Level 2: the result document and the bytes it was made from. */
export interface ReadFile {
  /** The success document of [F-3]. */
  result: FileResult;
  /** The file's bytes. */
  data: Uint8Array;
}

/** Reads one file of a resolved skill ([F-1..3]); `maxBytes` is the size limit. */
export function viewFile(
  resolved: Resolved,
  path: string,
  maxBytes: number,
  realRoots: readonly string[] = [resolved.record.root],
): FileResult {
  return readSkillFile(resolved, path, maxBytes, realRoots).result;
}

/**
 * Reads one file of a resolved skill with its bytes. The file is opened inside the skill
 * folder and checked on the opened handle ([S-9]); outside the local root the skill
 * folder must also lie inside one of `realRoots`.
 */
export function readSkillFile(
  resolved: Resolved,
  path: string,
  maxBytes: number,
  realRoots: readonly string[] = [resolved.record.root],
): ReadFile {
  const { record } = resolved;
  const reach = reachOf(record.source, realRoots);
  if (resolved.flat) {
    using file = openSkillFile(record.skillDir, basename(record.file), reach);
    return readOpened(record.name, file, record.path, maxBytes, record.file);
  }
  checkSkillPath(path);
  let file: Deno.FsFile | undefined;
  try {
    file = openInside(record.skillDir, path, { dirWithin: reach ?? undefined });
    if (isRegularFile(file, joinPath(record.skillDir, path))) {
      return readOpened(record.name, file, path, maxBytes, joinPath(record.skillDir, path));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
      throw error;
    }
    refuseDanglingEscape(record.skillDir, path);
  } finally {
    file?.close();
  }
  const availableFiles = listSkillFiles(record.skillDir, reach);
  // The closest of the skill's files, as a wrong skill name gets the closest names.
  const suggestions = suggestedNames(path, Object.values(availableFiles).flat(), 3);
  throw new NotFoundError(`File '${path}' not found in skill '${record.name}'.`, {
    availableFiles,
    ...(suggestions.length ? { suggestions } : {}),
  });
}

/**
 * A file that could not be opened: a dangling symlink inside the skill still must not
 * point outside it, and a regular file that is there now was swapped while it was opened
 * (a link out of the skill at that moment): both are refused as escapes, not "not found".
 */
function refuseDanglingEscape(skillDir: string, path: string): void {
  const full = joinPath(skillDir, path);
  let target: string;
  try {
    target = Deno.readLinkSync(full);
  } catch {
    let present = false;
    try {
      const now = Deno.lstatSync(full); // a link now, though none a moment ago: swapped too
      present = now.isFile || now.isSymlink;
    } catch {
      // Missing: not found.
    }
    if (present) throw new PathEscapeError(path);
    return;
  }
  if (isAbsoluteAnywhere(target) || hasTraversal(target)) throw new PathEscapeError(path);
}

function isRegularFile(file: Deno.FsFile, full: string): boolean {
  try {
    return file.statSync().isFile;
  } catch {
    return Deno.statSync(full).isFile;
  }
}

function readOpened(
  name: string,
  file: Deno.FsFile,
  path: string,
  maxBytes: number,
  full: string,
): ReadFile {
  const bytes = openedSize(file, full);
  const data = bytes > maxBytes ? null : readCapped(file, maxBytes);
  if (data === null) {
    throw new ValidationError(`File '${path}' is ${bytes} bytes; the limit is ${maxBytes} bytes.`, {
      bytes,
      limit: maxBytes,
    });
  }
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "text";
  const head = data.subarray(0, 8192);
  const doc = (content: string | null) => ({
    success: true as const,
    name,
    file: path,
    content,
    fileType: ext,
    bytes: data.length,
  });
  if (head.includes(0) || decodeUtf8(head, data.length > head.length).invalid) {
    return { result: { ...doc(null), binary: true, sha256: sha256Hex(data) }, data };
  }
  const decoded = decodeUtf8(data);
  if (decoded.invalid) throw new ValidationError(`File '${path}' is not valid UTF-8.`);
  return { result: doc(decoded.text), data };
}
