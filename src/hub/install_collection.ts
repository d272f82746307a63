/**
 * Installing from a collection ([HUB-8]): a source holding several skills. The skills
 * are listed (name, description, path, scan verdict); `--skill NAME` (repeatable) or
 * `--all` chooses, a terminal asks for numbers, and otherwise the install is refused with
 * the list. Each chosen skill then goes through the whole flow of [HUB-2] on its own: one
 * blocked or failing skill does not stop the others, and the summary says which.
 *
 * @module
 */
import { clip } from "../clip.ts";
import {
  InterruptedError,
  NotFoundError,
  SkillrtError,
  UsageError,
  ValidationError,
} from "../errors.ts";
import {
  answersTo,
  configuredCollections,
  isBareName,
  readCollections,
  removeCollections,
  skillsOf,
} from "./collections.ts";
import { configuredIndexes } from "./well_known.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { CollectionSkill } from "./collection.ts";
import { type Collection, type Fetched, shadowHint } from "./fetch.ts";
import {
  fetchForInstall,
  installCandidate,
  type InstallOptions,
  type InstallResult,
  singleCandidate,
} from "./install.ts";
import { TakenNames } from "./name_collision.ts";
import { scanFolder, type Verdict } from "../scanner/scanner.ts";
import { removeScratch, scratchFolder, withScratch } from "./scratch.ts";

/** A skill of a collection as listed: with its verdict when it was scanned. */
export interface ListedSkill {
  /** The name it installs under (null: it cannot be installed). */
  name: string | null;
  /** The name it declares. */
  declaredName: string;
  /** Its description. */
  description: string;
  /** Its folder inside the source. */
  path: string;
  /** The scanner's verdict, or null when it could not be scanned. */
  scanVerdict: Verdict | null;
  /** Why it cannot be installed. */
  problem?: string;
}

/** One chosen skill that was not installed. */
export interface NotInstalled {
  /** Its name (declared, when it has no install name). */
  name: string;
  /** Its folder inside the source. */
  path: string;
  /** Whether the policy blocked it ([HUB-5]). */
  blocked: boolean;
  /** The reason. */
  error: string;
}

/** What an install from a collection did. */
export interface CollectionResult {
  /** True when every chosen skill was installed. */
  success: boolean;
  /** Always true. */
  collection: true;
  /** The source, as given. */
  source: string;
  /** The skills installed. */
  installed: InstallResult[];
  /** The chosen skills not installed, with why. */
  failed: NotInstalled[];
  /** Links of the source that were not followed. */
  skipped: { path: string; reason: string }[];
}

/** Scans each skill of a collection in a quarantine folder of its own, for the list. */
function listSkills(collection: Collection, root: string): ListedSkill[] {
  return collection.skills.map((s, i) => {
    const quarantine = scratchFolder(root, `list-${i}`);
    let verdict: Verdict | null = null;
    try {
      collection.fill(s.path, quarantine);
      verdict = scanFolder(quarantine).verdict;
    } catch {
      verdict = null;
    } finally {
      removeScratch(quarantine);
    }
    return {
      name: s.name,
      declaredName: s.declaredName,
      description: s.description,
      path: s.path,
      scanVerdict: verdict,
      ...(s.problem ? { problem: s.problem } : {}),
    };
  });
}

/** The list as text: one numbered line per skill. */
export function listText(listed: ListedSkill[]): string {
  return listed.map((s, i) =>
    `  ${String(i + 1).padStart(2)}. ${s.name ?? s.declaredName}  [${
      s.scanVerdict ?? "unscanned"
    }]  ${s.path}${s.description ? `  ${clip(s.description, 70)}` : ""}${
      s.problem ? `  (cannot install: ${s.problem})` : ""
    }`
  ).join("\n");
}

/**
 * The skills `--skill NAME` names: by path, else by install name or declared name, in any
 * case ([IO-5]); a name that matches none is refused, even of a source holding one skill.
 */
export function named(skills: CollectionSkill[], names: string[]): CollectionSkill[] {
  const out: CollectionSkill[] = [];
  for (const wanted of names) {
    const clean = wanted.replace(/\/+$/, "");
    // A skill chosen by its path is that one, even when others share its name.
    const byPath = skills.filter((s) => s.path === clean).map((s) =>
      s.shared ? { ...s, problem: undefined, shared: false } : s
    );
    const folded = clean.toLowerCase();
    const match = byPath.length
      ? byPath
      : skills.filter((s) =>
        s.name?.toLowerCase() === folded || s.declaredName.toLowerCase() === folded
      );
    if (match.length === 0) {
      throw new NotFoundError(
        `This source holds no skill named '${wanted}'; it holds ${
          skills.map((s) => s.name ?? s.declaredName).join(", ")
        }.`,
      );
    }
    for (const m of match) if (!out.some((o) => o.path === m.path)) out.push(m);
  }
  return out;
}

/** Numbers typed at the terminal (`1,3`, `2 4`, `all`) to skills; empty means none. */
export function pickNumbers(answer: string, skills: CollectionSkill[]): CollectionSkill[] {
  const text = answer.trim().toLowerCase();
  if (text === "all" || text === "a") return skills;
  const picked: CollectionSkill[] = [];
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const n = Number(word);
    if (!Number.isInteger(n) || n < 1 || n > skills.length) {
      throw new ValidationError(`'${word}' is not a number from 1 to ${skills.length}.`);
    }
    if (!picked.includes(skills[n - 1])) picked.push(skills[n - 1]);
  }
  return picked;
}

/** The skills to install: by flag, by a choice at the terminal, else a refusal with the list. */
async function choose(
  collection: Collection,
  source: string,
  root: string,
  options: InstallOptions,
): Promise<CollectionSkill[]> {
  if (options.skills?.length) return named(collection.skills, options.skills);
  if (options.all) return collection.skills;
  const listed = listSkills(collection, root);
  const text = listText(listed);
  const question =
    `'${source}' holds ${listed.length} skills:\n${text}\nInstall which? (numbers like 1,3, or 'all'; empty for none) `;
  const answer = options.ask ? await options.ask(question) : undefined;
  if (answer === undefined) {
    throw new UsageError(
      `'${source}' holds ${listed.length} skills; choose with --skill NAME (repeatable) or --all.`,
      text,
      { skills: listed },
    );
  }
  const picked = pickNumbers(answer, collection.skills);
  if (picked.length === 0) throw new SkillrtError("Nothing installed: no skill was chosen.");
  return picked;
}

/** Installs one chosen skill of a collection; its failure is returned, not thrown. */
async function installMember(
  setup: HomeLayout,
  source: string,
  fetched: Fetched,
  skill: CollectionSkill,
  options: InstallOptions,
  taken: TakenNames,
): Promise<InstallResult | NotInstalled> {
  const name = skill.name ?? skill.declaredName;
  if (skill.problem || skill.name === null) {
    return { name, path: skill.path, blocked: false, error: `Not installed: ${skill.problem}.` };
  }
  try {
    return await installCandidate(
      setup,
      source,
      fetched,
      {
        name: skill.name,
        ...(skill.declaredName !== skill.name ? { declaredName: skill.declaredName } : {}),
        path: skill.path,
        fill: (q) => fetched.collection!.fill(skill.path, q),
      },
      options,
      taken,
    );
  } catch (error) {
    if (!(error instanceof SkillrtError) || error instanceof InterruptedError) throw error;
    return { name, path: skill.path, blocked: error.code === "blocked", error: error.message };
  }
}

/** Installs what a fetched source holds: its one skill, or the chosen skills of its collection. */
async function installFetched(
  setup: HomeLayout,
  source: string,
  fetched: Fetched,
  options: InstallOptions & { root: string },
): Promise<InstallResult | CollectionResult> {
  const collection = fetched.collection;
  if (!collection) {
    if (options.skills?.length) named(skillsOf(fetched), options.skills); // refuses a miss
    return await installCandidate(
      setup,
      source,
      fetched,
      singleCandidate(fetched, options),
      options,
    );
  }
  const chosen = await choose(collection, source, options.root, options);
  if (options.name !== undefined && chosen.length !== 1) {
    throw new UsageError("--name renames one skill; choose exactly one with --skill.");
  }
  const installed: InstallResult[] = [];
  const failed: NotInstalled[] = [];
  // The roots are read once for the names they hold; each skill installed adds its own.
  const taken = new TakenNames(setup);
  for (const skill of chosen) {
    const member = options.name !== undefined ? { ...skill, name: options.name } : skill;
    const done = await installMember(setup, source, fetched, member, options, taken).catch(
      (error) => {
        throw installedBefore(error, installed);
      },
    );
    if ("success" in done) installed.push(done);
    else failed.push(done);
  }
  return {
    success: failed.length === 0,
    collection: true,
    source,
    installed,
    failed,
    skipped: collection.skipped,
  };
}

/**
 * A bare name (`pdf`) looked up in the configured collections, in config order
 * ([HUB-8]); undefined when none holds it and well-known indexes are configured to ask.
 * @throws {SkillrtError} when no collection holds it and there is no index to ask.
 */
async function installFromCollections(
  setup: HomeLayout,
  name: string,
  options: InstallOptions & { root: string },
): Promise<InstallResult | CollectionResult | undefined> {
  const holds = (f: Fetched) => skillsOf(f).some((s) => answersTo(s, name));
  const read = await readCollections(setup, options.root, holds);
  try {
    const hit = read.find((r) => r.fetched && holds(r.fetched));
    if (hit) {
      const single = !hit.fetched!.collection;
      const result = await installFetched(setup, hit.source, hit.fetched!, {
        ...options,
        ...(single ? {} : { skills: [name], all: false }),
      });
      return "collection" in result && result.installed.length === 1 && result.success
        ? result.installed[0]
        : result;
    }
    if (configuredIndexes(setup, options.index).length) return undefined;
    const unreadable = read.filter((r) => r.error).map((r) => ` ${r.source}: ${r.error}`);
    throw new NotFoundError(
      `No configured collection holds a skill named '${name}'.${unreadable.join("")}`,
      { collections: read.map((r) => r.source) },
    );
  } finally {
    removeCollections(read);
  }
}

/** An interruption says which skills were installed before it; other errors pass. */
function installedBefore(error: unknown, installed: InstallResult[]): unknown {
  if (!(error instanceof InterruptedError) || installed.length === 0) return error;
  const names = installed.map((i) => `'${i.name}' (${i.installPath})`).join(", ");
  return new InterruptedError(`Interrupted; installed ${names}, nothing else.`);
}

/**
 * Installs from any source ([HUB-1], [HUB-8]): the one skill it holds, or the chosen
 * skills of a collection, each through the whole flow; a bare name is looked up in the
 * configured collections first.
 */
export async function installFromSource(
  setup: HomeLayout,
  source: string,
  options: InstallOptions = {},
): Promise<InstallResult | CollectionResult> {
  const root = options.root ?? setup.localRoot;
  return await withScratch(root, () => installAny(setup, source, root, options)).catch((error) => {
    const plain = error instanceof InterruptedError && error.unspecific;
    throw plain ? new InterruptedError("Interrupted; nothing was installed.") : error;
  });
}

/** Installs from `source` into `root`, its scratch folders made and removed by the caller. */
async function installAny(
  setup: HomeLayout,
  source: string,
  root: string,
  options: InstallOptions,
): Promise<InstallResult | CollectionResult> {
  // A bare name is a name of the configured collections even when a folder here is so
  // named ([IO-5]): the folder is spelled './name'.
  if (isBareName(source) && configuredCollections(setup).length > 0) {
    const found = await installFromCollections(setup, source, { ...options, root });
    const hint = shadowHint(setup, source);
    if (found && "collection" in found) found.installed.forEach((i) => i.warnings.push(...hint));
    else if (found) found.warnings.push(...hint);
    if (found) return found;
  }
  const { fetched, work } = await fetchForInstall(setup, source, root, options.index);
  try {
    return await installFetched(setup, source, fetched, { ...options, root });
  } finally {
    removeScratch(work);
  }
}
