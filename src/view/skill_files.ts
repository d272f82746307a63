/**
 * The files inside one skill folder, walked once and grouped ([V-2], [F-2]), and the
 * short summaries an agent reads before paying for a whole file.
 *
 * @module
 */
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { EXCLUDED_DIRS } from "../scan/walk.ts";
import { isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import { HEAD_ROUNDS, openedSize, openInside } from "../files/open_inside.ts";
import { follows, type Reach } from "../scan/containment.ts";

/** Files of a skill grouped by support folder, paths relative to the skill folder. */
export interface SkillFiles {
  /** `references/…` */
  references: string[];
  /** `templates/…` */
  templates: string[];
  /** `assets/…` */
  assets: string[];
  /** `scripts/…` */
  scripts: string[];
  /** Anything else but SKILL.md. */
  other: string[];
}

/** The `linked_files` of [V-2]; null when the skill links none. */
export type LinkedFiles = Omit<SkillFiles, "other"> | null;

const MAX_LISTED = 5000;
/** Folders read at most (the skill's own included): a hostile skill's endless empty folders. */
const MAX_FOLDERS = 5000;

/**
 * Walks a skill folder once (not entering excluded folders or nested skills; at most
 * 5000 files listed and 5000 folders read). A link whose real target leaves the skill
 * folder, or points nowhere, is never listed, nor anything below it ([F-1]); with
 * `reach`, a skill folder that does not really lie in it lists nothing ([S-9]).
 */
export function listSkillFiles(dir: string, reach: Reach = null): SkillFiles {
  const files: SkillFiles = { references: [], templates: [], assets: [], scripts: [], other: [] };
  const realDir = realPathOrUndefined(dir);
  if (realDir === undefined || !follows(realDir, reach)) return files;
  // Each folder carries the real folders above it: a link back to one of them is a cycle.
  const stack: { rel: string; real: string; above: string[] }[] = [
    { rel: "", real: realDir, above: [] },
  ];
  let count = 0;
  let folders = 0;
  while (stack.length && count < MAX_LISTED && folders++ < MAX_FOLDERS) {
    const here = stack.pop()!;
    const rel = here.rel;
    let entries: Deno.DirEntry[];
    try {
      entries = Array.from(Deno.readDirSync(rel ? joinPath(dir, rel) : dir));
    } catch {
      continue;
    }
    if (rel && entries.some((e) => e.name === "SKILL.md")) continue; // a nested skill
    entries.sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const e of entries) {
      const path = joinPath(rel, e.name);
      let isDir = e.isDirectory;
      let isFile = e.isFile;
      let real = joinPath(here.real, e.name);
      if (e.isSymlink) {
        const target = realPathOrUndefined(joinPath(dir, path));
        if (target === undefined || target === realDir || !isInside(realDir, target)) continue;
        real = target;
        try {
          const info = Deno.statSync(joinPath(dir, path));
          isDir = info.isDirectory;
          isFile = info.isFile;
        } catch {
          continue;
        }
      }
      if (isDir) {
        const above = [...here.above, here.real];
        if (!EXCLUDED_DIRS.has(e.name) && !above.includes(real)) {
          stack.push({ rel: path, real, above });
        }
      } else if (isFile && path !== "SKILL.md") {
        count++;
        const group = path.split("/")[0];
        if (
          group === "references" || group === "templates" || group === "assets" ||
          group === "scripts"
        ) {
          files[group].push(path);
        } else files.other.push(path);
      }
    }
  }
  for (const list of Object.values(files)) list.sort();
  return files;
}

const TEMPLATE_EXT = /\.(md|py|ya?ml|json|tex|sh)$/i;
const SCRIPT_EXT = /\.(py|sh|bash|js|ts|rb)$/i;

/** The linked files of [V-2]: references/*.md, templates by type (recursive), all assets, scripts by type. */
export function linkedFiles(files: SkillFiles): LinkedFiles {
  const topLevel = (p: string) => p.split("/").length === 2;
  const linked = {
    references: files.references.filter((p) => topLevel(p) && p.toLowerCase().endsWith(".md")),
    templates: files.templates.filter((p) => TEMPLATE_EXT.test(p)),
    assets: files.assets,
    scripts: files.scripts.filter((p) => topLevel(p) && SCRIPT_EXT.test(p)),
  };
  const any = Object.values(linked).some((l) => l.length > 0);
  return any ? linked : null;
}

/** What an agent learns about a file before opening it ([V-2]). */
export interface FileSummary {
  /** Path relative to the skill folder. */
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** The first Markdown heading, or null. */
  title: string | null;
  /** The first paragraph, at most 200 characters, or null. */
  summary: string | null;
}

/** Title and first paragraph of a text (pure). */
export function summarize(text: string): { title: string | null; summary: string | null } {
  let title: string | null = null;
  const paragraph: string[] = [];
  let inFence = false;
  let inFrontmatter = text.startsWith("---");
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (inFrontmatter) {
      if (i > 0 && t === "---") inFrontmatter = false;
      continue;
    }
    if (/^(```|~~~)/.test(t)) {
      inFence = !inFence;
      if (paragraph.length) break;
      continue;
    }
    if (inFence) continue;
    if (t.startsWith("#")) {
      if (title === null && /^#{1,6}\s/.test(t)) title = t.replace(/^#+\s*/, "");
      if (paragraph.length) break;
      continue;
    }
    if (t === "") {
      if (paragraph.length) break;
      continue;
    }
    paragraph.push(t);
  }
  let summary = paragraph.length ? paragraph.join(" ") : null;
  if (summary && summary.length > 200) summary = summary.slice(0, 197) + "...";
  return { title, summary };
}

/** What a view shows of a skill folder's files ([V-2]): the linked files and their summaries. */
export interface SkillFilesFacts {
  /** The linked files, null when the skill links none. */
  linked: LinkedFiles;
  /** The summaries of the linked text files. */
  summaries: FileSummary[];
}

/** Lists a skill folder and summarises its linked files (see the two steps below). */
export function skillFilesFacts(dir: string, reach: Reach = null): SkillFilesFacts {
  const linked = linkedFiles(listSkillFiles(dir, reach));
  return { linked, summaries: fileSummaries(dir, linked, reach) };
}

/**
 * Summaries of the linked text files (binary files are left out). Each file is opened
 * inside the skill folder (see `openInside`; proved as a head, `HEAD_ROUNDS`): a link out
 * of it is never read.
 */
export function fileSummaries(
  dir: string,
  linked: LinkedFiles,
  reach: Reach = null,
): FileSummary[] {
  if (!linked) return [];
  const out: FileSummary[] = [];
  const dirWithin = reach ?? undefined;
  for (const path of Object.values(linked).flat()) {
    try {
      using file = openInside(dir, path, { dirWithin, rounds: HEAD_ROUNDS });
      const bytes = openedSize(file, joinPath(dir, path));
      const head = new Uint8Array(Math.min(bytes, 4096));
      let filled = 0;
      while (filled < head.length) {
        const n = file.readSync(head.subarray(filled));
        if (n === null) break;
        filled += n;
      }
      const chunk = head.subarray(0, filled);
      if (chunk.includes(0)) continue;
      const decoded = decodeUtf8(chunk, filled < bytes);
      if (decoded.invalid) continue;
      out.push({ path, bytes, ...summarize(decoded.text) });
    } catch {
      continue;
    }
  }
  return out;
}
