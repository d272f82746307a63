/**
 * Resolving a name to one skill ([R-1..5]): the guard, the four strategies per root in
 * precedence order, the ambiguity rule shared with `list` ([S-7]), plugin namespaces.
 *
 * @module
 */
import { AmbiguousError, NotFoundError, ValidationError } from "../errors.ts";
import { readHeadOf } from "../frontmatter/read_head.ts";
import { basename, dirname, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { PluginRoot, Root } from "../home/layout.ts";
import type { Catalog } from "../scan/catalog.ts";
import { leavingLink, openSkillFile, type Reach, reachOf } from "../scan/containment.ts";
import { readRecord, rootSource } from "../scan/scan_root.ts";
import { buildRecord, type SkillRecord } from "../scan/record.ts";
import type { ScannedRoot } from "../scan/scanned.ts";
import { EXCLUDED_DIRS, SUPPORT_DIRS } from "../scan/walk.ts";
import { nameKey, sameName } from "../scan/name_key.ts";
import { type Audience, shownTo } from "../scan/audience.ts";
import { closestNames, guardName, isBareName, suggestedNames } from "./name_guard.ts";

/** The hint of an ambiguous name ([R-3]). */
export const AMBIGUOUS_HINT =
  "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique.";
/** The hint of an unknown name ([R-4]). */
export const NOT_FOUND_HINT = "Use skills_list to see all available skills";

/**
 * The hint of an unknown name ([R-4]). When the name, or a name it is close to, begins
 * with `-` (such names exist in public collections), it also says how to pass one on the
 * command line, where it would be taken for an option.
 */
export function notFoundHint(name: string, suggestions: readonly string[]): string {
  const optionLike = [name, ...suggestions].find((n) => n.startsWith("-"));
  if (optionLike === undefined) return NOT_FOUND_HINT;
  return `${NOT_FOUND_HINT}. A name that begins with '-' goes after '--' on the command line: skillrt view -- ${optionLike}`;
}

/** A resolved skill. */
export interface Resolved {
  /** Its record (read from its head). */
  record: SkillRecord;
  /** True for a legacy flat `<name>.md` skill ([S-8]). */
  flat: boolean;
  /** The plugin it belongs to, for `ns:skill` names. */
  plugin?: PluginRoot;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function flatRecord(
  file: string,
  rel: string,
  root: Root | PluginRoot,
  name: string,
  reach: Reach,
): SkillRecord {
  using opened = openSkillFile(dirname(file), basename(file), reach);
  const head = readHeadOf(opened);
  const { source, namespace } = rootSource(root);
  return buildRecord(
    {
      file,
      dir: dirname(file),
      rel,
      root: root.path,
      source,
      namespace,
      fallbackName: name,
      flat: true,
    },
    head.fence,
    head.invalidUtf8,
  );
}

function folderName(record: SkillRecord): string {
  return record.path === "" ? record.skillDir.split("/").pop()! : record.path.split("/").pop()!;
}

function bareName(record: SkillRecord): string {
  return record.namespace ? record.name.slice(record.namespace.length + 1) : record.name;
}

type Candidate = { record: SkillRecord; flat: boolean };

/**
 * A scanned root's records by folder name and by bare name (compared as
 * {@linkcode nameKey}), in walk order, and by their path below the root.
 */
interface Lookup {
  byFolder: Map<string, SkillRecord[]>;
  byName: Map<string, SkillRecord[]>;
  byPath: Map<string, SkillRecord>;
}

/** Built once per scan (a long-lived catalog keeps its scans): a lookup is not a walk of 10,000 records. */
const lookups = new WeakMap<ScannedRoot, Lookup>();

function lookupOf(scanned: ScannedRoot): Lookup {
  let lookup = lookups.get(scanned);
  if (lookup) return lookup;
  lookup = { byFolder: new Map(), byName: new Map(), byPath: new Map() };
  const add = (map: Map<string, SkillRecord[]>, key: string, record: SkillRecord) => {
    const list = map.get(key);
    if (list) list.push(record);
    else map.set(key, [record]);
  };
  for (const record of scanned.records) {
    add(lookup.byFolder, nameKey(folderName(record)), record);
    add(lookup.byName, nameKey(bareName(record)), record);
    if (record.path !== "") lookup.byPath.set(record.path, record);
  }
  lookups.set(scanned, lookup);
  return lookup;
}

/**
 * True when resolving `name` starts by walking all of `root`: a valid bare name (no `/`,
 * no `ns:`) with neither a folder nor a flat file of that name at the root's top.
 */
export function walksRoot(root: Root | PluginRoot, name: string): boolean {
  try {
    guardName(name);
  } catch {
    return false;
  }
  if (!isBareName(name)) return false;
  const dir = joinPath(root.path, name);
  return !isFile(joinPath(dir, "SKILL.md")) && !isFile(`${dir}.md`);
}

/**
 * True when a path below a root passes through a folder the walk never enters, or a
 * skill's support folder: what is there is not a skill, by path either ([S-2]).
 */
function belowSupportFolder(root: string, rel: string): boolean {
  const parts = rel.split("/");
  if (parts.some((p) => EXCLUDED_DIRS.has(p))) return true;
  for (let i = 1; i < parts.length; i++) {
    const support = parts[i] === "evals" || SUPPORT_DIRS.includes(parts[i]);
    if (support && isFile(joinPath(root, ...parts.slice(0, i), "SKILL.md"))) return true;
  }
  return false;
}

/** Refuses a path whose links leave the roots ([S-9]). */
function refuseLeaving(root: string, rel: string, reach: Reach, file: string): void {
  const link = leavingLink(root, rel, reach, file);
  if (link !== undefined) {
    throw new ValidationError(
      `Refusing to follow a symbolic link that leaves the skill roots: '${link}'.`,
    );
  }
}

/**
/**
 * The candidates of one root for a name, by the first strategy of [R-2] that finds any.
 * In the local root the user's own skills come first ([S-1]): when a bare name finds a
 * skill the hub installed there, a skill of the user's answering to it by folder or by
 * name is the candidate instead, whatever the depth of either folder.
 */
export function candidatesIn(
  root: Root | PluginRoot,
  name: string,
  catalog: Catalog,
  pathOnly = false,
): Candidate[] {
  const found = strategyCandidates(root, name, catalog, pathOnly);
  if (name.includes("/") || !found.some((c) => catalog.hubInstalled(c.record))) return found;
  const { byFolder, byName } = lookupOf(catalog.root(root));
  const own = (records?: SkillRecord[]) =>
    (records ?? []).filter((record) => !catalog.hubInstalled(record));
  const mine = own(byFolder.get(nameKey(name)));
  const chosen = mine.length ? mine : own(byName.get(nameKey(name)));
  return chosen.length ? dedupe(chosen) : found;
}

/**
 * The folder a bare name found by path, with the other skills of its root that declare
 * that name: `list` shows such a name as ambiguous ([S-7]), so resolving it refuses too,
 * naming them all — one rule for every command that takes a name. A path with `/` is
 * only a path.
 */
function withSameName(
  root: Root | PluginRoot,
  name: string,
  record: SkillRecord,
  catalog: Catalog,
): Candidate[] {
  if (name.includes("/")) return [{ record, flat: false }];
  const named = lookupOf(catalog.root(root)).byName.get(nameKey(name)) ?? [];
  return dedupe([record, ...named]);
}

/** The candidates of one root for a name, by the first strategy of [R-2] that finds any. */
function strategyCandidates(
  root: Root | PluginRoot,
  name: string,
  catalog: Catalog,
  pathOnly: boolean,
): Candidate[] {
  const { source, namespace } = rootSource(root);
  const reach = reachOf(source, catalog.realRoots);
  const dir = joinPath(root.path, name);
  const byPath = !belowSupportFolder(root.path, name);
  // A scan this catalog already holds found the folder; its links are looked at again
  // (a watcher does not see a link's target change): refused as the path would be.
  const known = byPath ? catalog.known(root) : undefined;
  const found = known && lookupOf(known).byPath.get(name);
  if (found) {
    refuseLeaving(root.path, name, reach, "SKILL.md");
    return pathOnly ? [{ record: found, flat: false }] : withSameName(root, name, found, catalog);
  }
  if (byPath && isFile(joinPath(dir, "SKILL.md"))) {
    refuseLeaving(root.path, name, reach, "SKILL.md");
    const record = readRecord(dir, name, root.path, source, namespace, catalog.realRoots);
    return pathOnly ? [{ record, flat: false }] : withSameName(root, name, record, catalog);
  }
  if (byPath && isFile(`${dir}.md`)) {
    refuseLeaving(root.path, name.split("/").slice(0, -1).join("/"), reach, `${basename(dir)}.md`);
    return [{
      record: flatRecord(`${dir}.md`, `${name}.md`, root, basename(dir), reach),
      flat: true,
    }];
  }
  if (name.includes("/") || pathOnly) return [];
  const scanned = catalog.root(root);
  const { byFolder, byName } = lookupOf(scanned);
  const inFolder = byFolder.get(nameKey(name));
  if (inFolder) return dedupe(inFolder);
  const named = byName.get(nameKey(name));
  if (named) return dedupe(named);
  return scanned.flat.filter((f) => sameName(f.name, name)).map((f) => ({
    record: flatRecord(f.file, f.rel, root, name, reach),
    flat: true,
  }));
}

function dedupe(records: SkillRecord[]): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const record of records) {
    const real = realPathOrUndefined(record.skillDir) ?? record.skillDir;
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ record, flat: false });
  }
  return out;
}

function decide(name: string, candidates: Candidate[]): Resolved {
  if (candidates.length === 1) return candidates[0];
  throw new AmbiguousError(
    `Ambiguous skill name '${name}': ${candidates.length} skills match. Refusing to guess — load one explicitly by its categorized path.`,
    { matches: candidates.map((c) => c.record.path), hint: AMBIGUOUS_HINT },
  );
}

/**
 * Resolves a name to one skill, or throws the error of [R-1], [R-3], [R-4] or [R-5]; the
 * close names of a not-found answer are those `audience` may see ([IO-3]).
 */
export function resolveSkill(name: string, catalog: Catalog, audience?: Audience): Resolved {
  guardName(name);
  // `pr-review/`: the folder only, not the skills that declare the name ([S-7]).
  const pathOnly = name.endsWith("/");
  if (pathOnly) name = name.replace(/\/+$/, "");
  const colon = name.indexOf(":");
  if (colon !== -1) {
    const ns = name.slice(0, colon);
    const skill = name.slice(colon + 1);
    if (!/^[a-zA-Z0-9_-]+$/.test(ns)) {
      throw new ValidationError(`Invalid namespace '${ns}' in '${name}'.`);
    }
    const plugin = catalog.setup.plugins.find((p) => p.namespace === ns);
    let pluginDirExists = false;
    try {
      pluginDirExists = Deno.statSync(joinPath(catalog.setup.home, "plugins", ns)).isDirectory;
    } catch {
      pluginDirExists = false;
    }
    if (pluginDirExists) {
      const candidates = plugin && skill ? candidatesIn(plugin, skill, catalog) : [];
      if (candidates.length === 0) {
        const names = plugin ? namesOf(catalog.root(plugin).records, audience) : [];
        const suggestions = suggestedNames(skill, names.map((n) => n.slice(ns.length + 1)))
          .map((n) => `${ns}:${n}`);
        throw new NotFoundError(`Skill '${skill}' not found in plugin '${ns}'.`, {
          available_skills: closestNames(name, names),
          suggestions,
          hint: NOT_FOUND_HINT,
        });
      }
      return { ...decide(name, candidates), plugin };
    }
    return resolveInRoots(name, `${ns}/${skill}`, catalog, audience);
  }
  return resolveInRoots(name, name, catalog, audience, pathOnly);
}

function resolveInRoots(
  shown: string,
  name: string,
  catalog: Catalog,
  audience?: Audience,
  pathOnly = false,
): Resolved {
  for (const root of catalog.setup.roots) {
    const candidates = candidatesIn(root, name, catalog, pathOnly);
    if (candidates.length) return decide(shown, candidates);
  }
  throw notFoundIn(shown, catalog, audience);
}

function namesOf(records: Iterable<SkillRecord>, audience?: Audience): string[] {
  return [...records].filter((r) => shownTo(r, audience)).map((r) => r.name);
}

/**
 * `resolved` (the skill `name` resolved to, whatever its spelling) when `audience` may see
 * it; else the ordinary not-found answer ([IO-3]). The one audience check of resolution.
 * @throws {NotFoundError} for a skill hidden from `audience`.
 */
export function shownOrNotFound(
  resolved: Resolved,
  name: string,
  catalog: Catalog,
  audience?: Audience,
): Resolved {
  if (!shownTo(resolved.record, audience)) throw notFoundIn(name, catalog, audience);
  return resolved;
}

/**
 * The ordinary not-found answer of [R-4] for `shown`, naming only the skills `audience`
 * may see: also the answer to the model for a skill it may not see ([IO-3]), which must
 * not learn that it exists.
 */
function notFoundIn(shown: string, catalog: Catalog, audience?: Audience): NotFoundError {
  const names = [...catalog.index().entries.values()]
    .filter((e) => shownTo(e.record, audience)).map((e) => e.name);
  const suggestions = suggestedNames(shown, names);
  return new NotFoundError(`Skill '${shown}' not found.`, {
    available_skills: closestNames(shown, names),
    suggestions,
    hint: notFoundHint(shown, suggestions),
  });
}

/**
 * {@linkcode resolveSkill}, remembered in the catalog while `look` says nothing it read
 * changed: not a plugin's name (its folder is checked outside the roots), nor a path into
 * a folder whose changes the watchers ignore, nor a skill reached through a link (no
 * watcher sees its target change: resolved every time), and only in its plain spelling (a
 * client's endless `./a`, `a//` would each be kept).
 */
export function resolveRemembered(
  name: string,
  catalog: Catalog,
  look: (root: string, file: string) => boolean,
  audience?: Audience,
): Resolved {
  const kept = !name.includes(":") &&
    name.split("/").every((part) => part !== "" && part !== "." && !EXCLUDED_DIRS.has(part));
  if (!kept) return resolveSkill(name, catalog, audience);
  return catalog.memo(
    `resolve\0${name}`,
    () => resolveSkill(name, catalog, audience),
    ({ record }) => look(record.root, record.file),
  );
}
