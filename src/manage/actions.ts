/**
 * The management actions of [M-1] and their rules ([M-2], [M-3]), prepared without
 * writing: each action becomes a {@linkcode PreparedChange} (the files before and after,
 * the folders to remove), which can be staged for approval, shown as a diff, or applied.
 *
 * @module
 */
import { agentOfSource } from "../home/agents.ts";
import { NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { openInside, PathEscapeError, readCapped } from "../files/open_inside.ts";
import { basename, dirname, isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { Resolved } from "../resolve/resolve.ts";
import { resolveSkill } from "../resolve/resolve.ts";
import type { Catalog } from "../scan/catalog.ts";
import { SUPPORT_DIRS } from "../scan/walk.ts";
import { prepareBundle } from "./bundle_actions.ts";
import { declaredNameWarnings, NameTakenError } from "./name_taken.ts";
import type { FileChange, ManageAction, PreparedChange } from "./change.ts";
import {
  validateName,
  validateSkillContent,
  validateSupportContent,
  validateSupportPath,
} from "./validation.ts";

export type { FileChange, ManageAction, PreparedChange, SkillAction } from "./change.ts";

const PREVIEW = 500;

/** A file of a skill, read through a handle proved inside the skill folder ([S-9]). */
function readInside(dir: string, rel: string): Uint8Array {
  using file = openInside(dir, rel);
  return readCapped(file, Number.MAX_SAFE_INTEGER) ?? new Uint8Array();
}

function readText(dir: string, rel: string): string {
  const decoded = decodeUtf8(readInside(dir, rel));
  if (decoded.invalid) {
    throw new ValidationError(
      `File '${joinPath(dir, rel)}' is not valid UTF-8 text; it cannot be patched.`,
    );
  }
  return decoded.text;
}

/** The text a delete shows as removed: none for a `SKILL.md` linked out of its folder. */
function deletedText(r: Resolved, file: string): string | null {
  try {
    return readText(r.record.skillDir, basename(file));
  } catch (error) {
    if (error instanceof PathEscapeError) return null;
    throw error;
  }
}

function preview(text: string): string {
  return text.length > PREVIEW ? text.slice(0, PREVIEW) + "..." : text;
}

/** Throws when any existing component of `rel` below `dir` is a symbolic link. */
export function refuseLinks(dir: string, rel: string): void {
  let path = dir;
  for (const part of rel.split("/")) {
    path = joinPath(path, part);
    try {
      if (Deno.lstatSync(path).isSymlink) {
        throw new ValidationError(`Refusing to write through a symbolic link: '${path}'.`);
      }
    } catch (error) {
      if (error instanceof SkillrtError) throw error;
      return; // Does not exist yet: nothing below it can be a link.
    }
  }
}

/** Resolves the skill an action changes and checks it may be written: a folder skill, inside its root, not a link. */
export function writableSkill(name: string, catalog: Catalog): Resolved {
  const resolved = resolveSkill(name, catalog);
  const { record } = resolved;
  if (resolved.flat) {
    throw new ValidationError(
      `Skill '${name}' is a legacy flat file (${record.path}); move it into a folder with a SKILL.md to manage it.`,
    );
  }
  const agent = agentOfSource(record.source);
  if (agent !== undefined) {
    throw new SkillrtError(
      `Skill '${record.name}' is in the skill folder of agent '${agent}' (${record.root}), which skillrt only reads; copy it into the local root to change it.`,
    );
  }
  if (Deno.lstatSync(record.skillDir).isSymlink) {
    throw new ValidationError(`Refusing to write through a symbolic link: '${record.skillDir}'.`);
  }
  const realRoot = realPathOrUndefined(record.root) ?? record.root;
  const realDir = realPathOrUndefined(record.skillDir) ?? record.skillDir;
  if (realDir === realRoot || !isInside(realRoot, realDir)) {
    throw new ValidationError(
      `Skill folder '${record.skillDir}' is not inside its root '${record.root}'; it will not be changed.`,
    );
  }
  return resolved;
}

function folderOf(resolved: Resolved): string {
  return resolved.record.path === ""
    ? basename(resolved.record.skillDir)
    : resolved.record.path.split("/").pop()!;
}

/** Checks an action and computes its change ([M-2], [M-3]); writes nothing. */
export function prepareAction(action: ManageAction, catalog: Catalog): PreparedChange {
  switch (action.action) {
    case "bundle-create":
    case "bundle-edit":
    case "bundle-delete":
      return prepareBundle(action, catalog);
    case "create":
      return prepareCreate(action, catalog);
    case "edit":
      return prepareEdit(action, catalog);
    case "patch":
      return preparePatch(action, catalog);
    case "delete":
      return prepareDelete(action, catalog);
    case "write-file":
      return prepareWriteFile(action, catalog);
    case "remove-file":
      return prepareRemoveFile(action, catalog);
  }
}

function prepareEdit(
  action: Extract<ManageAction, { action: "edit" }>,
  catalog: Catalog,
): PreparedChange {
  const r = writableSkill(action.name, catalog);
  validateSkillContent(action.content);
  const warnings = declaredNameWarnings(action.content, folderOf(r), catalog, r.record.skillDir);
  const file = r.record.file;
  const prepared = change(
    action,
    r,
    `edit SKILL.md of '${r.record.name}' (${action.content.length} characters)`,
    [
      {
        path: file,
        rel: "SKILL.md",
        before: readText(r.record.skillDir, basename(file)),
        after: action.content,
      },
    ],
  );
  return warnings.length ? { ...prepared, warnings } : prepared;
}

function prepareWriteFile(
  action: Extract<ManageAction, { action: "write-file" }>,
  catalog: Catalog,
): PreparedChange {
  const r = writableSkill(action.name, catalog);
  validateSupportPath(action.path);
  const bytes = action.encoding === "base64"
    ? Uint8Array.from(atob(action.content), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(action.content);
  validateSupportContent(bytes);
  refuseLinks(r.record.skillDir, action.path);
  const path = joinPath(r.record.skillDir, action.path);
  let before: string | null = null;
  try {
    before = decodeUtf8(readInside(r.record.skillDir, action.path)).text;
  } catch {
    before = null; // new, or not the skill's own: the write proves what it writes
  }
  const after = action.encoding === "base64" ? bytes : action.content;
  return change(
    action,
    r,
    `write ${action.path} in '${r.record.name}' (${bytes.length} bytes)`,
    [
      { path, rel: action.path, before, after },
    ],
  );
}

function prepareRemoveFile(
  action: Extract<ManageAction, { action: "remove-file" }>,
  catalog: Catalog,
): PreparedChange {
  const r = writableSkill(action.name, catalog);
  validateSupportPath(action.path);
  refuseLinks(r.record.skillDir, action.path.split("/").slice(0, -1).join("/") || ".");
  const path = joinPath(r.record.skillDir, action.path);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    throw new NotFoundError(`File '${action.path}' not found in skill '${r.record.name}'.`);
  }
  if (info.isDirectory) {
    throw new ValidationError(
      `'${action.path}' is a folder in skill '${r.record.name}', not a file.`,
    );
  }
  const before = info.isFile ? decodeUtf8(readInside(r.record.skillDir, action.path)).text : null;
  return change(action, r, `remove ${action.path} from '${r.record.name}'`, [{
    path,
    rel: action.path,
    before,
    after: null,
  }]);
}

function change(
  action: ManageAction,
  r: Resolved,
  summary: string,
  files: FileChange[],
): PreparedChange {
  return {
    action,
    name: r.record.name,
    summary,
    root: r.record.root,
    skillDir: r.record.skillDir,
    files,
    usage: "patch",
  };
}

function prepareCreate(
  action: Extract<ManageAction, { action: "create" }>,
  catalog: Catalog,
): PreparedChange {
  validateName(action.name);
  if (action.category !== undefined) validateName(action.category, "Category");
  validateSkillContent(action.content);
  const index = catalog.index();
  const existing = [...index.records, ...index.shadowed].find((r) =>
    (r.path === "" ? basename(r.skillDir) : r.path.split("/").pop()) === action.name
  );
  if (existing) {
    throw new NameTakenError(
      `A skill named '${action.name}' already exists at ${existing.skillDir}.`,
      existing,
    );
  }
  const root = catalog.setup.localRoot;
  const dir = action.category
    ? joinPath(root, action.category, action.name)
    : joinPath(root, action.name);
  try {
    Deno.lstatSync(dir);
    throw new SkillrtError(`A skill named '${action.name}' already exists at ${dir}.`);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
  }
  if (action.category) refuseLinks(root, action.category);
  const dirs = action.dirs ?? [];
  if (!Array.isArray(dirs) || dirs.some((d) => !SUPPORT_DIRS.includes(d))) {
    throw new ValidationError(
      `Folders made with a skill must be among: ${SUPPORT_DIRS.join(", ")}.`,
    );
  }
  const where = action.category ? ` in category '${action.category}'` : "";
  const warnings = declaredNameWarnings(action.content, action.name, catalog);
  return {
    ...(warnings.length ? { warnings } : {}),
    action,
    name: action.name,
    summary: `create skill '${action.name}'${where} (${action.content.length} characters)`,
    root,
    skillDir: dir,
    files: [{
      path: joinPath(dir, "SKILL.md"),
      rel: "SKILL.md",
      before: null,
      after: action.content,
    }],
    ...(dirs.length ? { dirs } : {}),
    usage: "create",
  };
}

function preparePatch(
  action: Extract<ManageAction, { action: "patch" }>,
  catalog: Catalog,
): PreparedChange {
  const r = writableSkill(action.name, catalog);
  const rel = action.file_path === undefined || action.file_path === "SKILL.md"
    ? "SKILL.md"
    : validateSupportPath(action.file_path);
  if (rel !== "SKILL.md") refuseLinks(r.record.skillDir, rel);
  const path = joinPath(r.record.skillDir, rel);
  if (typeof action.old !== "string" || action.old === "") {
    throw new ValidationError("The text to replace (--old) cannot be empty.");
  }
  let before: string;
  try {
    before = readText(r.record.skillDir, rel);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    throw new NotFoundError(`File '${rel}' not found in skill '${r.record.name}'.`);
  }
  const count = before.split(action.old).length - 1;
  if (count === 0) {
    throw new ValidationError(
      `The text to replace was not found in ${rel} of skill '${r.record.name}'.`,
      { preview: preview(before) },
    );
  }
  if (count > 1 && !action.replace_all) {
    throw new ValidationError(
      `The text to replace occurs ${count} times in ${rel} of skill '${r.record.name}'; pass --replace-all or include more context.`,
      { preview: preview(before) },
    );
  }
  const after = action.replace_all
    ? before.split(action.old).join(action.new)
    : before.replace(action.old, () => action.new);
  if (rel === "SKILL.md") {
    try {
      validateSkillContent(after);
    } catch (error) {
      throw new ValidationError(
        `The patched SKILL.md would be invalid, so it was not written: ${(error as Error).message}`,
      );
    }
  } else validateSupportContent(new TextEncoder().encode(after));
  const warnings = rel === "SKILL.md"
    ? declaredNameWarnings(after, folderOf(r), catalog, r.record.skillDir)
    : [];
  const n = action.replace_all ? `${count} replacement${count === 1 ? "" : "s"}` : "1 replacement";
  const prepared = change(action, r, `patch ${rel} of '${r.record.name}' (${n})`, [{
    path,
    rel,
    before,
    after,
  }]);
  return warnings.length ? { ...prepared, warnings } : prepared;
}

function prepareDelete(
  action: Extract<ManageAction, { action: "delete" }>,
  catalog: Catalog,
): PreparedChange {
  const r = writableSkill(action.name, catalog);
  if (action.absorbed_into !== undefined) {
    let into: Resolved;
    try {
      into = resolveSkill(action.absorbed_into, catalog);
    } catch {
      throw new NotFoundError(
        `Skill '${action.absorbed_into}' given as --absorbed-into does not exist.`,
      );
    }
    if (
      (realPathOrUndefined(into.record.skillDir) ?? into.record.skillDir) ===
        (realPathOrUndefined(r.record.skillDir) ?? r.record.skillDir)
    ) {
      throw new ValidationError(
        `--absorbed-into must name another skill, not '${action.name}' itself.`,
      );
    }
  }
  const parent = dirname(r.record.skillDir);
  const into = action.absorbed_into ? ` (absorbed into '${action.absorbed_into}')` : "";
  const skillFile = r.record.file;
  return {
    action,
    name: r.record.name,
    summary: `delete skill '${r.record.name}' at ${r.record.path}${into}`,
    root: r.record.root,
    skillDir: r.record.skillDir,
    files: [{ path: skillFile, rel: "SKILL.md", before: deletedText(r, skillFile), after: null }],
    removeDir: r.record.skillDir,
    removeIfEmpty: parent !== r.record.root && folderOf(r) !== "" ? parent : undefined,
    usage: "forget",
  };
}
