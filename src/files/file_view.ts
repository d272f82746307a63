/**
 * Level 2 ([F-1..3]): one file inside a skill, only when it is needed. Paths are
 * checked before any read: no `..`, no absolute path, no symlink out of the skill.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { SkillrtError } from "../errors.ts";
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { isAbsoluteAnywhere, isInside, joinPath } from "../home/paths.ts";
import { hasTraversal, quoted } from "../resolve/name_guard.ts";
import type { Resolved } from "../resolve/resolve.ts";
import { listSkillFiles } from "../view/skill_files.ts";

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
  file_type: string;
  /** Size in bytes. */
  bytes: number;
  /** Present and true for binary files. */
  binary?: true;
  /** SHA-256 hex, for binary files. */
  sha256?: string;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks a path inside a skill folder and returns its real path. Throws the errors of
 * [F-1]; returns undefined when nothing exists there.
 */
export function safeSkillPath(skillDir: string, path: string): string | undefined {
  if (typeof path !== "string" || path.trim() === "" || CONTROL.test(path)) {
    throw new SkillrtError(
      `File path '${
        quoted(String(path))
      }' must be a non-empty relative path without control characters.`,
    );
  }
  if (hasTraversal(path)) throw new SkillrtError("Path traversal ('..') is not allowed.");
  if (isAbsoluteAnywhere(path)) {
    throw new SkillrtError(`Absolute paths are not allowed: '${path}'.`);
  }
  const realDir = Deno.realPathSync(skillDir);
  let real: string;
  try {
    real = Deno.realPathSync(joinPath(skillDir, path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      // A dangling symlink inside the skill still must not point outside it.
      try {
        const target = Deno.readLinkSync(joinPath(skillDir, path));
        if (isAbsoluteAnywhere(target) || hasTraversal(target)) {
          throw new SkillrtError(`Path escapes allowed directory: ${path}`);
        }
      } catch (inner) {
        if (inner instanceof SkillrtError) throw inner;
      }
      return undefined;
    }
    throw error;
  }
  if (!isInside(realDir, real)) throw new SkillrtError(`Path escapes allowed directory: ${path}`);
  return real;
}

/** Reads one file of a resolved skill ([F-1..3]); `maxBytes` is the size limit. */
export function viewFile(resolved: Resolved, path: string, maxBytes: number): FileResult {
  const { record } = resolved;
  if (resolved.flat) return readFileResult(record.name, record.file, record.path, maxBytes);
  const real = safeSkillPath(record.skill_dir, path);
  let isFile = false;
  if (real !== undefined) {
    try {
      isFile = Deno.statSync(real).isFile;
    } catch {
      isFile = false;
    }
  }
  if (!isFile) {
    const files = listSkillFiles(record.skill_dir);
    throw new SkillrtError(`File '${path}' not found in skill '${record.name}'.`, {
      available_files: files,
    });
  }
  return readFileResult(record.name, real!, path, maxBytes);
}

function readFileResult(name: string, real: string, path: string, maxBytes: number): FileResult {
  const bytes = Deno.statSync(real).size;
  if (bytes > maxBytes) {
    throw new SkillrtError(`File '${path}' is ${bytes} bytes; the limit is ${maxBytes} bytes.`, {
      bytes,
      limit: maxBytes,
    });
  }
  const data = Deno.readFileSync(real);
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "text";
  const head = data.subarray(0, 8192);
  if (head.includes(0) || decodeUtf8(head, data.length > head.length).invalid) {
    return {
      success: true,
      name,
      file: path,
      content: null,
      file_type: ext,
      bytes,
      binary: true,
      sha256: sha256Hex(data),
    };
  }
  const decoded = decodeUtf8(data);
  if (decoded.invalid) throw new SkillrtError(`File '${path}' is not valid UTF-8.`);
  return { success: true, name, file: path, content: decoded.text, file_type: ext, bytes };
}
