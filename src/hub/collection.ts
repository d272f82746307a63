/**
 * Collections ([HUB-8]): a hub source holding several skills. Finds the skill folders in
 * a fetched tree (a folder on disk, or an archive's files), with each one's declared name,
 * the slug it installs under, its description, and why it cannot be installed (a name
 * that would leave the skills folder, a name two skills share, a link). Reads only.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { parseFrontmatter } from "../frontmatter/parse.ts";
import { basename, joinPath } from "../home/paths.ts";
import { hasControlChar } from "../manage/file_names.ts";
import { NAME_PATTERN } from "../manage/validation.ts";
import { EXCLUDED_DIRS, SUPPORT_DIRS } from "../scan/walk.ts";
import { collisionKey } from "../scan/name_key.ts";
import type { ArchiveFile } from "./archive.ts";

/** One skill of a collection. */
export interface CollectionSkill {
  /** Its folder, relative to the source (`""` for the source itself). */
  path: string;
  /** The name it declares (frontmatter `name`, else its folder's name). */
  declaredName: string;
  /** The name it installs under (its slug form), or null when it has none. */
  name: string | null;
  /** Its description (frontmatter `description`). */
  description: string;
  /** Why it cannot be installed; undefined when it can. */
  problem?: string;
  /** True when the problem is only that other skills share its name (choosing it by path is enough). */
  shared?: boolean;
}

/** Folders of a skill that are never skills of their own ([S-2]). */
const NOT_SKILLS = new Set([...SUPPORT_DIRS, "evals", "_deprecated"]);
/** Build copies inside a source: never its skills, never a second skill of the name ([IO-5]). */
const BUILD_COPIES = new Set(["dist", "build", "out", "node_modules"]);

/**
 * The slug form of a declared name (`Hook Development` → `hook-development`), or null
 * when the name has none or would leave the folder it installs into (`../x`, `a/b`).
 */
export function slugForm(declared: string): string | null {
  const name = declared.normalize("NFKC").trim();
  if (name === "" || hasControlChar(name) || /[\\/]/.test(name) || name.includes("..")) {
    return null;
  }
  if (NAME_PATTERN.test(name) && name.length <= 64) return name;
  const slug = name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-._]+|[-._]+$/g, "")
    .slice(0, 64).replace(/[-._]+$/, "");
  return NAME_PATTERN.test(slug) ? slug : null;
}

/** Name and description of a SKILL.md text; the folder's name when it declares none. */
export function declaredOf(text: string, folder: string): { name: string; description: string } {
  const fence = splitFrontmatter(text);
  const fm = fence.kind === "ok" ? parseFrontmatter(fence.yaml).data : {};
  const name = typeof fm.name === "string" && fm.name.trim() ? fm.name.trim() : folder;
  const description = typeof fm.description === "string" ? fm.description.trim() : "";
  return { name, description };
}

/**
 * Gives the SKILL.md in `folder` (a quarantine or scratch folder of ours) the name
 * `slug` ([HUB-8]): a skill whose declared name is not a valid slug is installed under
 * its slug form, and the installed file must answer to that name (list, view, validate).
 * The frontmatter's top-level `name:` line is replaced (a line is added when it has
 * none); the rest of the file is kept byte for byte. The declared name stays in the lock.
 */
export function setSkillName(folder: string, slug: string): void {
  const file = `${folder}/SKILL.md`;
  if (!Deno.lstatSync(file).isFile) {
    throw new ValidationError("Refusing to install: SKILL.md is not a file.");
  }
  const text = Deno.readTextFileSync(file);
  const lines = text.split("\n");
  if (lines[0].replace(/\r$/, "") !== "---") return; // no frontmatter: the folder's name is the name
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\r?$/.test(line));
  if (end < 0) return;
  const at = lines.findIndex((line, i) => i > 0 && i < end && /^name\s*:/.test(line));
  const line = `name: ${slug}${lines[at >= 0 ? at : 0].endsWith("\r") ? "\r" : ""}`;
  if (at < 0) lines.splice(1, 0, line);
  else {
    // A value over several lines (`name: >`, a quoted or plain scalar continued) goes whole.
    let next = at + 1;
    while (next < end && /^[ \t]/.test(lines[next])) next++;
    lines.splice(at, next - at, line);
  }
  Deno.writeTextFileSync(file, lines.join("\n"));
}

/**
 * True when a folder path (relative, `/`-separated) of a source may hold a skill or lead to
 * one: none of its folders is excluded ([S-2]), a skill's support folder or a build copy
 * ([IO-5]). `.github` is entered only for `.github/skills` (as `.claude/skills` and
 * `.agents/skills`, which no rule excludes, are).
 */
export function walkable(rel: string): boolean {
  const parts = rel.split("/");
  return !parts.some((p, i) =>
    BUILD_COPIES.has(p) || NOT_SKILLS.has(p) ||
    (EXCLUDED_DIRS.has(p) && !(p === ".github" && (parts[i + 1] ?? "skills") === "skills"))
  );
}

/** The skill folders among SKILL.md paths: the outermost ones, never inside another skill. */
export function outermost(folders: string[]): string[] {
  const sorted = [...new Set(folders)].filter(walkable).sort((a, b) =>
    a.split("/").length - b.split("/").length || (a < b ? -1 : 1)
  );
  const out: string[] = [];
  for (const f of sorted) {
    if (!out.some((o) => o === "" || f.startsWith(`${o}/`))) out.push(f);
  }
  return out.sort();
}

/** Builds the entries of a collection and marks names that cannot be installed. */
export function collectionOf(found: { path: string; text: string }[]): CollectionSkill[] {
  const skills: CollectionSkill[] = found.map(({ path, text }) => {
    const declared = declaredOf(text, path === "" ? "" : basename(path));
    const name = slugForm(declared.name);
    return {
      path,
      declaredName: declared.name,
      name,
      description: declared.description,
      ...(name === null
        ? { problem: `its name '${declared.name}' is not a skill name and has no safe slug form` }
        : {}),
    };
  });
  for (const s of skills) {
    const same = skills.filter((o) =>
      o.name !== null && s.name !== null && collisionKey(o.name) === collisionKey(s.name)
    );
    if (same.length > 1 && !s.problem) {
      s.problem = `${same.length} skills of this source are named '${s.name}' (${
        same.map((o) => o.path).join(", ")
      }); choose one by its path`;
      s.shared = true;
    }
  }
  return skills;
}

/** The SKILL.md folders of an archive's files. */
export function skillFoldersOfFiles(files: ArchiveFile[]): string[] {
  return outermost(
    files.map((f) => f.path).filter((p) => p === "SKILL.md" || p.endsWith("/SKILL.md"))
      .map((p) => p.slice(0, -"SKILL.md".length).replace(/\/$/, "")),
  );
}

/** A folder or link of a source folder that was not looked into, and why. */
export interface Skipped {
  /** Its path relative to the source. */
  path: string;
  /** Why. */
  reason: string;
}

/**
 * The SKILL.md folders below a source folder, never through a symbolic link (a link is
 * reported, not followed); at most `maxDirs` folders and depth 8 are looked at. Only the
 * outermost ones, unless `nested`: then also those inside another (listed once installed).
 */
export function skillFoldersOfDir(
  dir: string,
  maxDirs = 5000,
  nested = false,
): { folders: string[]; skipped: Skipped[] } {
  const folders: string[] = [];
  const skipped: Skipped[] = [];
  let seen = 0;
  const visit = (rel: string, depth: number) => {
    if (++seen > maxDirs || depth > 8) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(rel ? joinPath(dir, rel) : dir)];
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === "SKILL.md" && e.isFile) folders.push(rel);
      if (e.isSymlink && !EXCLUDED_DIRS.has(e.name)) {
        skipped.push({ path, reason: "a symbolic link; not followed" });
      }
      if (e.isDirectory && walkable(path)) visit(path, depth + 1);
    }
  };
  visit("", 0);
  return { folders: nested ? folders : outermost(folders), skipped };
}

/**
 * The folders below a skill's own folder `dir` that hold a SKILL.md of their own: further
 * skills it carries, which are listed as skills once it is installed ([IO-5]).
 */
export function nestedSkillFolders(dir: string): string[] {
  return skillFoldersOfDir(dir, undefined, true).folders.filter((f) => f !== "").sort();
}
