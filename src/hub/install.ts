/**
 * Installing a skill from any source of [HUB-1] ([HUB-2]): put into
 * `skills/.hub/quarantine/<name>-<random>/` within the limits, validated, scanned, judged
 * by the trust policy, confirmed, then moved into `skills/[<category>/]<name>` by rename
 * and recorded in the lock file and the audit log. Any failure leaves the skills tree as
 * it was and the quarantine removed.
 *
 * @module
 */
import { recordInstalled, tryUpdateUsage } from "../usage/usage.ts";
import { HubBlockedError, NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { interruptionPoint } from "../interruption.ts";
import { basename, dirname, ensureDir, isLinkHere, joinPath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { validateName, validateSkillContent } from "../manage/validation.ts";
import { appendAudit, auditText } from "./audit.ts";
import { installFolder, readLockDocument, updateLock } from "./lockfile.ts";
import { hashFolder } from "./content_hash.ts";
import type { LockRecord } from "./lockfile.ts";
import { decide } from "./policy.ts";
import { type Fetched, fetchSource } from "./fetch.ts";
import { progress } from "./progress.ts";
import { removeScratch, scratchFolder, withScratch } from "./scratch.ts";
import { declaredOf, nestedSkillFolders, slugForm } from "./collection.ts";
import { nestedNotice, slugNotice } from "./install_notices.ts";
import { bindingOf } from "./signed_binding.ts";
import { nameInstall, TakenNames } from "./name_collision.ts";
import { type ScanFinding, scanFolder, type ScanReport, type Verdict } from "../scanner/scanner.ts";

/** `1 finding`, `3 findings`. */
function findingCount(n: number): string {
  return `${n} finding${n === 1 ? "" : "s"}`;
}

/** How to install. */
export interface InstallOptions {
  /** Install under this name instead of the skill's own. */
  name?: string;
  /** Put it in this category folder. */
  category?: string;
  /** Replace an installed skill; override a `block` where the policy allows it. */
  force?: boolean;
  /** Replace an installed skill (without overriding the policy): what `hub update` does. */
  replace?: boolean;
  /** A well-known index to look a bare skill name up in (instead of `skills.hub.indexes`). */
  index?: string;
  /** Confirm without asking (not enough for `ask` cells of the policy). */
  yes?: boolean;
  /** Asks the user a yes/no question at the terminal; undefined when there is none. */
  confirm?: (question: string) => Promise<boolean | undefined>;
  /** The clock. */
  now?: Date;
  /** The folder to install into and keep the lock in: the local root unless an agent's ([HUB-8]). */
  root?: string;
  /** Of a collection: the skills to install, by name or path ([HUB-8]). */
  skills?: string[];
  /** Of a collection: install every skill. */
  all?: boolean;
  /** Of a collection: the one skill at this path (what `hub update` installs again). */
  collectionPath?: string;
  /** Asks the user a line at the terminal; undefined when there is none (a collection's choice). */
  ask?: (question: string) => Promise<string | undefined>;
}

/** One skill to install: the source's own, or one of a collection's. */
export interface InstallCandidate {
  /** The name it installs under. */
  name: string;
  /** The name it declares, when that is not a valid skill name (the slug differs). */
  declaredName?: string;
  /** Its folder inside a collection. */
  path?: string;
  /** Fills a quarantine folder with it. */
  fill(quarantine: string): void;
}

/** What an install did. */
export interface InstallResult {
  /** Always true. */
  success: true;
  /** The installed name. */
  name: string;
  /** The folder, relative to the local root. */
  installPath: string;
  /** Trust level. */
  trustLevel: string;
  /** Scanner verdict. */
  scanVerdict: Verdict;
  /** The scanner's findings. */
  findings: ScanFinding[];
  /** `sha256:` content hash. */
  contentHash: string;
  /** Integrity warnings (for example an index without digests). */
  warnings: string[];
  /** The label of the trusted key that signed the index ([T-2]). */
  signedBy?: string;
  /** The name the skill declares, when it installed under its slug form ([HUB-8]). */
  declaredName?: string;
  /** Its folder inside the collection it came from. */
  collectionPath?: string;
}

/**
 * The name a source folder installs under: `--name`, else the slug form of its
 * frontmatter `name` (else of its folder's name) ([HUB-8]).
 */
export function installName(path: string, text: string, name?: string): string {
  if (name) return validateName(name);
  const declared = declaredOf(text, basename(path)).name;
  return slugForm(declared) ?? validateName(declared);
}

/** Where a skill installs, relative to the local root. */
export function installPath(name: string, category?: string): string {
  return category ? `${validateName(category, "Category")}/${name}` : name;
}

/**
 * Refuses a hub folder, quarantine, lock or audit log that is a symbolic link, before
 * anything is written: an install would read or write wherever it points (another
 * agent's folder may hold anything, [H-5]).
 */
export function refuseLinkedHub(root: string): void {
  const hub = joinPath(root, ".hub");
  const files = ["quarantine", "lock.json", "audit.log"].map((f) => joinPath(hub, f));
  for (const path of [hub, ...files]) {
    // Not there yet is fine: it is made as a folder.
    if (isLinkHere(path)) {
      throw new ValidationError(`Refusing to install: '${path}' is a symbolic link.`);
    }
  }
}

/** Fetches a source into a scratch folder below `root` (removed again when the fetch fails). */
export async function fetchForInstall(
  setup: HomeLayout,
  source: string,
  root: string,
  index?: string,
): Promise<{ fetched: Fetched; work: string }> {
  refuseLinkedHub(root);
  const work = scratchFolder(root, "git");
  try {
    return { fetched: await fetchSource(setup, source, work, index), work };
  } catch (error) {
    removeScratch(work);
    throw error;
  }
}

/**
 * The candidate of a source holding one skill: it installs under `--name`, else its
 * frontmatter's name — for every kind of source, local or remote ([IO-5]).
 */
export function singleCandidate(fetched: Fetched, options: InstallOptions): InstallCandidate {
  const name = installName(fetched.folder, fetched.text, options.name);
  const declared = declaredOf(fetched.text, basename(fetched.folder)).name;
  return {
    name,
    ...(options.name === undefined && declared !== name ? { declaredName: declared } : {}),
    fill: fetched.fill,
  };
}

/**
 * The skill of a fetched source to install: its one skill, or the one of its collection
 * at `options.collectionPath`.
 * @throws {SkillrtError} for a collection without that path.
 */
export function candidateOf(fetched: Fetched, options: InstallOptions): InstallCandidate {
  const collection = fetched.collection;
  if (!collection) return singleCandidate(fetched, options);
  const skill = collection.skills.find((s) => s.path === options.collectionPath);
  if (options.collectionPath === undefined) {
    throw new SkillrtError(
      `The source holds ${collection.skills.length} skills; install them with 'hub install'.`,
    );
  }
  if (!skill?.name) {
    throw new NotFoundError(`The source no longer holds a skill at '${options.collectionPath}'.`);
  }
  return {
    name: options.name ?? skill.name,
    path: skill.path,
    ...(skill.declaredName !== skill.name ? { declaredName: skill.declaredName } : {}),
    fill: (q) => collection.fill(skill.path, q),
  };
}

/** Installs the skill a source holds ([HUB-1], [HUB-2]). */
export async function installSkill(
  setup: HomeLayout,
  source: string,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const root = options.root ?? setup.localRoot;
  return await withScratch(root, async () => {
    const { fetched, work } = await fetchForInstall(setup, source, root, options.index);
    try {
      return await installCandidate(setup, source, fetched, candidateOf(fetched, options), options);
    } finally {
      removeScratch(work);
    }
  });
}

/** One install as its steps see it. */
interface Install {
  setup: HomeLayout;
  /** The folder installed into, whose lock and audit log record it. */
  root: string;
  source: string;
  options: InstallOptions;
  now: Date;
  fetched: Fetched;
  candidate: InstallCandidate;
}

/** Where a skill goes: its name, its folder, and what is there now. */
interface Placement {
  /** The name it installs under. */
  name: string;
  /** Its folder, relative to the root. */
  rel: string;
  /** Its folder, absolute. */
  target: string;
  /** Something is at `target` already. */
  exists: boolean;
  /** Its record in the lock, when it was installed before. */
  previous?: LockRecord;
}

/**
 * The whole flow for one skill ([HUB-2]): quarantine, validation, scan, policy,
 * confirmation, the move into place, the lock and the audit log. `taken` holds the names
 * the roots answer to, shared by a run of installs ([S-1]; read afresh by default).
 */
export async function installCandidate(
  setup: HomeLayout,
  source: string,
  fetched: Fetched,
  candidate: InstallCandidate,
  options: InstallOptions = {},
  taken: TakenNames = new TakenNames(setup),
): Promise<InstallResult> {
  const now = options.now ?? new Date();
  const root = options.root ?? setup.localRoot;
  const install: Install = { setup, root, source, options, now, fetched, candidate };
  const place = placementOf(install);
  const quarantine = scratchFolder(root, place.name);
  try {
    candidate.fill(quarantine);
    const replacing = place.exists ? place.target : undefined;
    const named = nameInstall(taken, quarantine, place.name, replacing);
    const report = scanQuarantine(quarantine, place.name);
    await approve(install, place.name, report);
    await interruptionPoint(); // nothing is in place yet
    const nested = nestedNotice(place.name, nestedSkillFolders(quarantine));
    const result = await moveIntoPlace(install, place, quarantine, report, named.declared);
    taken.add(named.names, place.target);
    return { ...result, warnings: [...result.warnings, ...nested] };
  } finally {
    removeScratch(quarantine);
  }
}

/** Names the install and refuses to replace what is there without `force` or `replace`. */
function placementOf({ root, options, candidate }: Install): Placement {
  const name = candidate.name;
  const rel = installPath(name, options.category);
  refuseLinkedHub(root);
  const target = installFolder(root, rel);
  const previous = readLockDocument(root).installed[name];
  let exists = false;
  try {
    Deno.lstatSync(target);
    exists = true;
  } catch {
    exists = false;
  }
  if ((previous || exists) && !options.force && !options.replace) {
    throw new SkillrtError(
      `'${name}' is already installed at ${target}; pass --force to replace it.`,
    );
  }
  return { name, rel, target, exists, previous };
}

/** Checks the quarantine's SKILL.md and scans it. */
function scanQuarantine(quarantine: string, name: string): ScanReport {
  validateSkillContent(Deno.readTextFileSync(joinPath(quarantine, "SKILL.md")));
  progress(`Scanning '${name}'…`);
  const report = scanFolder(quarantine);
  progress(`Scanned '${name}': ${report.verdict}, ${findingCount(report.findings.length)}.`, true);
  return report;
}

/**
 * The trust policy's decision, with the user's answer where it asks one; a blocked
 * install is written to the audit log and thrown, and so is one nobody confirmed.
 */
async function approve(install: Install, name: string, report: ScanReport): Promise<void> {
  const { root, source, options, now, fetched } = install;
  const findings = findingCount(report.findings.length);
  const typedYes = !options.yes && options.confirm
    ? await options.confirm(`Install '${name}' (${report.verdict}, ${findings}) from ${source}?`)
    : undefined;
  const decision = decide(fetched.trust, report.verdict, {
    force: !!options.force,
    yes: !!options.yes,
    typedYes,
  });
  if (!decision.install) {
    const { identifier, trust } = fetched;
    await appendAudit(
      root,
      auditText(now, "BLOCKED", name, identifier, trust, report.verdict, findings),
    );
    throw new HubBlockedError(decision.reason, {
      verdict: report.verdict,
      findings: report.findings,
    });
  }
  if (!options.yes && !options.force && typedYes === undefined) {
    throw new SkillrtError(
      "Refusing to install without confirmation: no terminal to ask; pass --yes.",
    );
  }
  if (typedYes === false) throw new SkillrtError("Not installed: not confirmed.");
}

/**
 * Moves the scanned quarantine into place, then records it in the lock, the audit log
 * and (in the local root only) the usage file's provenance.
 */
async function moveIntoPlace(
  install: Install,
  place: Placement,
  quarantine: string,
  report: ScanReport,
  declared: string | undefined,
): Promise<InstallResult> {
  const { setup, root, source, options, now, fetched, candidate } = install;
  const { name, rel, target, previous } = place;
  const hashed = hashFolder(quarantine);
  const provenance = {
    ...(declared !== undefined ? { declared_name: declared } : {}),
    ...(candidate.path !== undefined ? { collection_path: candidate.path } : {}),
  };
  const commit = fetched.commit !== undefined ? { commit: fetched.commit } : {};
  if (place.exists) Deno.removeSync(target, { recursive: true });
  ensureDir(dirname(target));
  Deno.renameSync(quarantine, target);
  await updateLock(root, (doc) => {
    doc.installed[name] = {
      // An update keeps the source as the user first gave it.
      source: options.replace && previous ? previous.source : source,
      identifier: fetched.identifier,
      trust_level: fetched.trust,
      scan_verdict: report.verdict,
      content_hash: hashed.content_hash,
      install_path: rel,
      files: hashed.files,
      installed_at: previous?.installed_at ?? now.toISOString(),
      updated_at: now.toISOString(),
      ...bindingOf(fetched), // a signed install stays bound to its key and sequence ([T-2])
      ...provenance,
      ...commit,
    };
  });
  const action = previous ? "UPDATE" : "INSTALL";
  await appendAudit(
    root,
    auditText(now, action, name, fetched.identifier, fetched.trust, report.verdict),
  );
  // Provenance ([U-1]): the hub created it; an update keeps what was recorded.
  // Only the local root keeps counters: an agent's folder is never written to ([U-1]).
  if (root === setup.localRoot) {
    await tryUpdateUsage(root, (map) => recordInstalled(map, name, now));
  }
  return {
    success: true,
    name,
    installPath: rel,
    trustLevel: fetched.trust,
    scanVerdict: report.verdict,
    findings: report.findings,
    contentHash: hashed.content_hash,
    warnings: [...slugNotice(candidate), ...fetched.warnings ?? []],
    ...(fetched.signedBy !== undefined ? { signedBy: fetched.signedBy } : {}),
    ...(declared !== undefined ? { declaredName: declared } : {}),
    ...(candidate.path !== undefined ? { collectionPath: candidate.path } : {}),
  };
}
