/**
 * `hub install --from-lock FILE [--frozen]` ([T-4]): every skill of a lock file, fetched
 * from its source (a git source at the lock's commit) and installed through the one path
 * every install takes — quarantine, scan, policy, name collision — non-interactively.
 * Every source is fetched and compared with the lock before anything is installed: with
 * `--frozen` any difference (content, commit, trust, signing key, a skill here with other
 * content) refuses the whole restore and nothing changes; without it, what differs is
 * reported beside what was installed.
 *
 * @module
 */
import { HubBlockedError, NotFoundError, SkillrtError } from "../errors.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { Fetched } from "./fetch.ts";
import {
  candidateOf,
  fetchForInstall,
  type InstallCandidate,
  installCandidate,
  installPath,
  type InstallResult,
} from "./install.ts";
import { slugForm } from "./collection.ts";
import { type LockInput, readLockInput, type RestoreEntry } from "./lock_input.ts";
import { installFolder, readLockDocument } from "./lockfile.ts";
import { hashFolder, installedHash, skillsLockHash } from "./content_hash.ts";
import { nameInstall, TakenNames } from "./name_collision.ts";
import { removeScratch, scratchFolder, withScratch } from "./scratch.ts";
import { decide } from "./policy.ts";
import { scanFolder } from "../scanner/scanner.ts";

/** One way a fetched skill differs from its lock. */
export interface Difference {
  /** The skill. */
  name: string;
  /** What differs: `content_hash`, `computed_hash`, `ref`, `trust_level`, `signing_key`, `installed`. */
  field: string;
  /** What the lock says. */
  locked: string;
  /** What the fetch (or, for `installed`, this home) gave. */
  found: string;
}

/** What a restore did. */
export interface RestoreResult {
  /** True when every skill was installed or already there. */
  success: boolean;
  /** `skillrt` or `skills-lock`. */
  format: LockInput["format"];
  /** Whether `--frozen` was given. */
  frozen: boolean;
  /** The skills installed. */
  installed: InstallResult[];
  /** Skills already installed here with the lock's content. */
  unchanged: string[];
  /** Where what was fetched differs from the lock. */
  differences: Difference[];
  /** Skills not installed, with why. */
  failed: { name: string; error: string; blocked: boolean }[];
  /** Skills of the file with no source to fetch. */
  skipped: LockInput["skipped"];
}

/** How to restore. */
export interface RestoreOptions {
  /** Refuse everything when anything differs from the lock. */
  frozen: boolean;
  /** Replace skills installed here with other content; override a block where policy allows. */
  force: boolean;
  /** The folder installed into (the local root, or an agent's). */
  root: string;
}

/** One skill fetched and compared, ready to install. */
interface Prepared {
  entry: RestoreEntry;
  fetched: Fetched;
  work: string;
  candidate: InstallCandidate;
  /** Something is installed here under its name. */
  replacing: boolean;
}

/** The candidate of `fetched` the entry names: its collection path, or (vercel) its name. */
function candidateFor(fetched: Fetched, entry: RestoreEntry): InstallCandidate {
  let collectionPath = entry.collectionPath;
  if (collectionPath === undefined && fetched.collection) {
    collectionPath = fetched.collection.skills.find((s) =>
      s.name === entry.name || slugForm(s.declaredName) === entry.name
    )?.path;
    if (collectionPath === undefined) {
      throw new NotFoundError(`Its source holds no skill named '${entry.name}'.`);
    }
  }
  const own = candidateOf(fetched, { collectionPath });
  return own.name === entry.name ? own : candidateOf(fetched, { collectionPath, name: entry.name });
}

/**
 * The hashes of a candidate — skillrt's as it installs (named), the vercel CLI's as
 * fetched — after the name check every install makes ([S-1]) and, for `--frozen`, the
 * policy's decision on its scan ([HUB-5]): a frozen restore refuses a name another skill
 * here answers to, or a skill the policy blocks, before anything is written (the audit log
 * included).
 */
function hashesOf(root: string, p: Prepared, taken: TakenNames, { frozen, force }: RestoreOptions) {
  const scratch = scratchFolder(root, "lock");
  try {
    p.candidate.fill(scratch);
    const computed = skillsLockHash(scratch);
    const replacing = p.replacing
      ? installFolder(root, installPath(p.candidate.name, p.entry.category))
      : undefined;
    nameInstall(taken, scratch, p.candidate.name, replacing);
    if (frozen) refuseByPolicy(scratch, p.fetched, force);
    return { content: hashFolder(scratch).content_hash, computed };
  } finally {
    removeScratch(scratch);
  }
}

/** Throws the policy's refusal of the scanned candidate in `folder`, as an install would ([HUB-5]). */
function refuseByPolicy(folder: string, fetched: Fetched, force: boolean): void {
  const decision = decide(fetched.trust, scanFolder(folder).verdict, { force, yes: true });
  if (!decision.install) throw new HubBlockedError(decision.reason);
}

/** The content hash of the skill installed at `rel` now, or `missing`. */
function nowInstalled(root: string, rel: string): string {
  try {
    return installedHash(root, rel).content_hash;
  } catch {
    return "missing";
  }
}

/** Whether two commits are the same (one may be the short form of the other). */
const sameCommit = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

/** Where a fetch differs from its entry. */
function compare(
  p: Prepared,
  taken: TakenNames,
  options: RestoreOptions,
  existing?: string,
): Difference[] {
  const { entry, fetched } = p;
  const hashes = hashesOf(options.root, p, taken, options);
  const out: Difference[] = [];
  const add = (
    field: string,
    locked: string | undefined,
    found: string | undefined,
    same = false,
  ) => {
    if (locked !== undefined && !same && locked !== found) {
      out.push({ name: entry.name, field, locked, found: found ?? "none" });
    }
  };
  add("content_hash", entry.contentHash, hashes.content);
  add("computed_hash", entry.computedHash, hashes.computed);
  const commit = fetched.commit;
  add("ref", entry.ref, commit, commit !== undefined && sameCommit(entry.ref ?? "", commit));
  add("trust_level", entry.trust, fetched.trust);
  add("signing_key", entry.signingKey, fetched.signingKey);
  if (existing !== undefined && existing !== hashes.content) {
    out.push({ name: entry.name, field: "installed", locked: hashes.content, found: existing });
  }
  return out;
}

/** One line for a difference. */
export function differenceLine(d: Difference): string {
  return d.field === "installed"
    ? `'${d.name}' is installed here with other content (${d.found})`
    : `'${d.name}': ${d.field} is ${d.found}, the lock says ${d.locked}`;
}

/** Restores every skill of the lock file `file` into `options.root`. */
export async function restoreFromLock(
  setup: HomeLayout,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const input = readLockInput(file);
  return await withScratch(options.root, async () => {
    const prepared: Prepared[] = [];
    try {
      const result = await prepareAll(setup, input, options, prepared);
      if (options.frozen && (result.differences.length || result.failed.length)) {
        throw frozenRefusal(result);
      }
      await installAll(setup, prepared, options, result);
      return { ...result, success: result.failed.length === 0 };
    } finally {
      removeScratch(...prepared.map((p) => p.work));
    }
  });
}

/** The refusal of `--frozen`: the first difference or failure, and how many more. */
function frozenRefusal(result: RestoreResult): SkillrtError {
  const lines = [
    ...result.differences.map(differenceLine),
    ...result.failed.map((f) => `'${f.name}': ${f.error}`),
  ];
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more)` : "";
  return new SkillrtError(
    `--frozen: ${lines[0].replace(/\.$/, "")}${more}; nothing was installed.`,
    { differences: result.differences, failed: result.failed },
  );
}

/** Fetches and compares every entry; those to install go into `prepared`. */
async function prepareAll(
  setup: HomeLayout,
  input: LockInput,
  options: RestoreOptions,
  prepared: Prepared[],
): Promise<RestoreResult> {
  const result: RestoreResult = {
    success: true,
    format: input.format,
    frozen: options.frozen,
    installed: [],
    unchanged: [],
    differences: [],
    failed: [],
    skipped: input.skipped,
  };
  const here = readLockDocument(options.root).installed;
  const taken = new TakenNames(setup);
  for (const entry of input.entries) {
    const record = Object.hasOwn(here, entry.name) ? here[entry.name] : undefined;
    // What is installed here now (a skill changed in place is not the lock's).
    const existing = record ? nowInstalled(options.root, record.install_path) : undefined;
    if (existing !== undefined && entry.contentHash === existing) {
      result.unchanged.push(entry.name);
      continue;
    }
    let work = "";
    try {
      const got = await fetchForInstall(setup, entry.fetch, options.root);
      work = got.work;
      const candidate = candidateFor(got.fetched, entry);
      const p = { entry, fetched: got.fetched, work, candidate, replacing: record !== undefined };
      result.differences.push(...compare(p, taken, options, existing));
      prepared.push(p);
    } catch (error) {
      if (!prepared.some((p) => p.work === work)) removeScratch(work);
      if (!(error instanceof SkillrtError)) throw error;
      const blocked = error instanceof HubBlockedError;
      result.failed.push({ name: entry.name, error: error.message, blocked });
    }
  }
  return result;
}

/** Installs each prepared skill through the one install path; a failure does not stop the rest. */
async function installAll(
  setup: HomeLayout,
  prepared: Prepared[],
  options: RestoreOptions,
  result: RestoreResult,
): Promise<void> {
  const taken = new TakenNames(setup);
  for (const p of prepared) {
    if (result.differences.some((d) => d.name === p.entry.name && d.field === "installed")) {
      if (!options.force) {
        result.failed.push({
          name: p.entry.name,
          error: "It is installed here with other content; pass --force to replace it.",
          blocked: false,
        });
        continue;
      }
    }
    try {
      const installed = await installCandidate(setup, p.entry.source, p.fetched, p.candidate, {
        yes: true,
        force: options.force,
        replace: p.replacing,
        root: options.root,
        ...(p.entry.category !== undefined ? { category: p.entry.category } : {}),
      }, taken);
      result.installed.push(installed);
    } catch (error) {
      if (!(error instanceof SkillrtError)) throw error;
      const blocked = error instanceof HubBlockedError;
      result.failed.push({ name: p.entry.name, error: error.message, blocked });
    }
  }
}
