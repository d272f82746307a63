/**
 * A Claude Code plugin marketplace as a collection ([IO-5]): `.claude-plugin/marketplace.json`
 * lists plugins, each with a `source` — a path inside the repository (joined to
 * `metadata.pluginRoot` when that is set), or an object naming another place (`github`,
 * `url`, `git-subdir`, `npm`). A plugin's skills are the folders its `skills` field (in the
 * marketplace entry, or its own `.claude-plugin/plugin.json`) names, and those below its
 * `skills/` folder — of the folders the walk of the source found, so a marketplace never
 * names a build copy or a folder behind a link into the collection. When a marketplace
 * names skills, they are the collection (what the repository says it ships). Every path
 * is held to the source grammar (`checkPart`): a path that climbs, or is absolute, is not
 * followed. A plugin whose source is outside the repository
 * is not fetched from here: it is reported as skipped, with the source to install instead.
 * Reads only, through the {@linkcode Tree} it is given.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { openInside, readCapped } from "../files/open_inside.ts";
import type { ArchiveFile } from "./archive.ts";
import { checkPart } from "./source_grammar.ts";
import type { Skipped } from "./collection.ts";

/** Where a marketplace lives in a repository. */
export const MARKETPLACE = ".claude-plugin/marketplace.json";

/** A fetched source as the marketplace is read from it. */
export interface Tree {
  /** The text of a file, by its path relative to the source; undefined when there is none. */
  read(rel: string): string | undefined;
  /** The skill folders the walk found, relative to `base` ([IO-5]: never in build copies, never through links). */
  found: string[];
  /** The folder of the source the marketplace is read in (an archive's one top folder, or `""`). */
  base: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON object read from the tree, or undefined (absent, or not an object). */
function readJson(tree: Tree, rel: string): Json | undefined {
  const text = tree.read(rel);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text.replace(/^\uFEFF/, ""));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A path of the marketplace (`./a/b`, `a/b/`, `./`), plain and relative: `""` for the root. */
function plainPath(raw: string): string {
  const path = raw.replace(/^\.\/+/, "").replace(/\/+$/, "");
  return path === "" || path === "." ? "" : checkPart(MARKETPLACE, "path", path);
}

const join = (a: string, b: string) => (a && b ? `${a}/${b}` : a || b);

/** The `skills` field of a manifest: a path or a list of them. */
function skillPaths(manifest: Json | undefined): string[] {
  const raw = manifest?.skills;
  return typeof raw === "string"
    ? [raw]
    : Array.isArray(raw)
    ? raw.filter((p) => typeof p === "string")
    : [];
}

/** The skill folders of one plugin whose folder is `root`. */
function pluginSkills(tree: Tree, root: string, entry: Json): string[] {
  const own = readJson(tree, join(root, ".claude-plugin/plugin.json"));
  const declared = [...skillPaths(entry), ...skillPaths(own)].map((p) => join(root, plainPath(p)));
  const under = (p: string) => (f: string) => p === "" || f === p || f.startsWith(`${p}/`);
  return [...declared, join(root, "skills")].flatMap((p) => tree.found.filter(under(p)));
}

/** What a plugin source outside the repository is to install instead. */
function elsewhere(source: Json): string {
  const kind = String(source.source ?? "unknown");
  const where = [source.repo, source.url, source.package, source.path].filter((v) =>
    typeof v === "string"
  ).join(" ");
  return `its source is outside this repository (${kind}${
    where ? ` ${where}` : ""
  }); install that as its own source`;
}

/**
 * The skill folders of the marketplace in `tree`, and the plugins that were not followed
 * (a source elsewhere, a path the grammar refuses); undefined when there is no marketplace.
 */
export function marketplaceSkills(
  tree: Tree,
): { folders: string[]; skipped: Skipped[] } | undefined {
  const doc = readJson(tree, MARKETPLACE);
  if (!doc) return undefined;
  const plugins = Array.isArray(doc.plugins) ? doc.plugins.filter(isObject) : [];
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  const folders: string[] = [];
  const skipped: Skipped[] = [];
  for (const plugin of plugins) {
    const label = `${MARKETPLACE}: plugin '${String(plugin.name ?? "?")}'`;
    if (isObject(plugin.source)) {
      skipped.push({ path: label, reason: elsewhere(plugin.source) });
      continue;
    }
    try {
      const base = typeof meta.pluginRoot === "string" ? plainPath(meta.pluginRoot) : "";
      const root = join(base, plainPath(typeof plugin.source === "string" ? plugin.source : "."));
      folders.push(...pluginSkills(tree, root, plugin));
    } catch (error) {
      if (!(error instanceof SkillrtError)) throw error;
      skipped.push({ path: label, reason: `not followed: ${error.message}` });
    }
  }
  return { folders, skipped };
}

/** The most of a manifest read. */
const MAX_MANIFEST = 256 * 1024;

/** A source folder as a {@linkcode Tree}: files read inside it, never through a link. */
export function folderTree(dir: string, found: string[]): Tree {
  return {
    found,
    base: "",
    read(rel) {
      let file: Deno.FsFile;
      try {
        file = openInside(dir, rel);
      } catch {
        return undefined; // none there, not a file, or behind a link
      }
      try {
        const bytes = readCapped(file, MAX_MANIFEST);
        return bytes === null ? undefined : new TextDecoder().decode(bytes);
      } finally {
        file.close();
      }
    },
  };
}

/**
 * An archive's files as a {@linkcode Tree}: read at its root, or below its one top folder
 * when the marketplace is there (`repo-main/.claude-plugin/marketplace.json`).
 */
export function filesTree(files: ArchiveFile[], found: string[]): Tree {
  const top = files[0]?.path.split("/")[0] ?? "";
  const atTop = !files.some((f) => f.path === MARKETPLACE) &&
    files.some((f) => f.path === `${top}/${MARKETPLACE}`) &&
    files.every((f) => f.path.startsWith(`${top}/`));
  const base = atTop ? top : "";
  return {
    base,
    found: found.flatMap((f) =>
      base === ""
        ? [f]
        : f === base
        ? [""]
        : f.startsWith(`${base}/`)
        ? [f.slice(base.length + 1)]
        : []
    ),
    read: (rel) => {
      const file = files.find((f) => f.path === join(base, rel));
      return file && file.data.length <= MAX_MANIFEST
        ? new TextDecoder().decode(file.data)
        : undefined;
    },
  };
}

/**
 * The skill folders of a source the walk found `tree.found` in: those its marketplace
 * names when it has one that names any, else all of them; with the plugins not followed.
 */
export function collectionFolders(tree: Tree): { folders: string[]; skipped: Skipped[] } {
  const market = marketplaceSkills(tree);
  const chosen = market?.folders.length ? [...new Set(market.folders)].sort() : tree.found;
  return { folders: chosen.map((f) => join(tree.base, f)), skipped: market?.skipped ?? [] };
}
