/**
 * `hub check [NAME]` and `hub update [NAME]` ([HUB-6]): compare each installed skill with
 * its lock record and with its source fetched again.
 *
 * @module
 */
import { isWellKnownSource } from "./source.ts";
import { InterruptedError, NotFoundError } from "../errors.ts";
import { dirname } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { Fetched } from "./fetch.ts";
import { hubRoot } from "./hub_root.ts";
import {
  candidateOf,
  fetchForInstall,
  type InstallCandidate,
  installCandidate,
  type InstallResult,
} from "./install.ts";
import { setSkillName } from "./collection.ts";
import { removeScratch, scratchFolder, withScratch } from "./scratch.ts";
import type { LockRecord } from "./lockfile.ts";
import { readLockDocument, updateLock } from "./lockfile.ts";
import { hashFolder, installedHash } from "./content_hash.ts";
import { bindingRefusal } from "./signed_binding.ts";

/** A skill's state against its lock and its source. */
export type CheckStatus =
  | "up_to_date"
  | "update_available"
  | "locally_modified"
  | "orphaned"
  | "unavailable";

/** One line of `hub check`. */
export interface CheckedSkill {
  /** Name. */
  name: string;
  /** Its state. */
  status: CheckStatus;
  /** Why the source could not be fetched, for `unavailable`. */
  reason?: string;
}

/** What one fetch of a skill's source says about it. */
interface Examined extends CheckedSkill {
  /** The skill inside the fetch, to install from these very bytes. */
  candidate?: InstallCandidate;
  /** True when the fetch was read but may not replace the skill (the reason says why). */
  refused?: boolean;
}

/**
 * What to fetch again: a local path by its real path (the cwd may differ now), a skill
 * of a well-known index by its index URL, else the source as given.
 */
export function refetchSource(record: LockRecord): string {
  return record.identifier.startsWith("/") || isWellKnownSource(record.identifier)
    ? record.identifier
    : record.source;
}

/** The installed skill against its lock: orphaned, locally modified, or undefined (as locked). */
function localState(setup: HomeLayout, record: LockRecord): CheckStatus | undefined {
  try {
    const local = installedHash(hubRoot(setup).root, record.install_path).content_hash;
    return local === record.content_hash ? undefined : "locally_modified";
  } catch {
    return "orphaned";
  }
}

/**
 * Compares a fetch of the source with the installed skill: the content hash of the skill
 * inside it (filled into a scratch folder, then removed), and whether it may replace the
 * installed one at all ([T-2]: a signed install stays bound to its key and sequence).
 */
function examine(setup: HomeLayout, name: string, record: LockRecord, fetched: Fetched): Examined {
  const candidate = candidateOf(fetched, { name, collectionPath: record.collection_path });
  const scratch = scratchFolder(hubRoot(setup).root, "check");
  let hash: string;
  try {
    candidate.fill(scratch);
    // Installed under its slug form: hashed as installed ([HUB-8]).
    if (record.declared_name !== undefined) setSkillName(scratch, name);
    hash = hashFolder(scratch).content_hash;
  } finally {
    removeScratch(scratch);
  }
  const refusal = bindingRefusal(name, record, fetched, hash);
  if (refusal) return { name, status: "unavailable", reason: refusal, refused: true };
  return {
    name,
    status: hash === record.content_hash ? "up_to_date" : "update_available",
    candidate,
  };
}

/** Fetches a skill's source again, into a scratch folder of the hub root. */
function fetchAgain(
  setup: HomeLayout,
  record: LockRecord,
): Promise<{ fetched: Fetched; work: string }> {
  return fetchForInstall(setup, refetchSource(record), hubRoot(setup).root);
}

const unavailable = (name: string, error: unknown): CheckedSkill => ({
  name,
  status: "unavailable",
  reason: error instanceof Error ? error.message : String(error),
});

async function checkOne(
  setup: HomeLayout,
  name: string,
  record: LockRecord,
): Promise<CheckedSkill> {
  const local = localState(setup, record);
  if (local) return { name, status: local };
  let work = "";
  try {
    const got = await fetchAgain(setup, record);
    work = got.work;
    const { status, reason } = examine(setup, name, record, got.fetched);
    return { name, status, ...(reason !== undefined ? { reason } : {}) };
  } catch (error) {
    return unavailable(name, error);
  } finally {
    removeScratch(work);
  }
}

function selected(setup: HomeLayout, name?: string): [string, LockRecord][] {
  const installed = Object.entries(readLockDocument(hubRoot(setup).root).installed).sort((
    [a],
    [b],
  ) => (a < b ? -1 : 1));
  if (name === undefined) return installed;
  const one = installed.filter(([n]) => n === name);
  if (one.length === 0) throw new NotFoundError(`'${name}' is not a hub-installed skill`);
  return one;
}

/** `hub check [NAME]`. */
export async function checkInstalled(
  setup: HomeLayout,
  name?: string,
): Promise<{ success: true; skills: CheckedSkill[] }> {
  const skills: CheckedSkill[] = [];
  await withScratch(hubRoot(setup).root, async () => {
    for (const [n, record] of selected(setup, name)) skills.push(await checkOne(setup, n, record));
  });
  return { success: true, skills };
}

/** How `hub update` replaces: `force` a locally modified skill; `confirm` asks the user. */
export interface UpdateOptions {
  /** Replace a skill changed locally too. */
  force?: boolean;
  /** Do not ask (`--yes`); without it and without a terminal an update is refused, as an install is. */
  yes?: boolean;
  /** Asks a yes/no question (undefined: no one to ask). */
  confirm?: (question: string) => Promise<boolean | undefined>;
}

/** `hub update [NAME] [--force]`: re-installs what has an update; a locally modified skill needs `--force`. */
export async function updateInstalled(
  setup: HomeLayout,
  name: string | undefined,
  options: UpdateOptions = {},
): Promise<
  {
    success: boolean;
    updated: InstallResult[];
    skipped: CheckedSkill[];
    refused: { name: string; error: string }[];
  }
> {
  const updated: InstallResult[] = [];
  const skipped: CheckedSkill[] = [];
  const refused: { name: string; error: string }[] = [];
  await withScratch(hubRoot(setup).root, async () => {
    for (const [n, record] of selected(setup, name)) {
      const outcome = await updateOne(setup, n, record, options);
      if (outcome.updated) updated.push(outcome.updated);
      if (outcome.skipped) skipped.push(outcome.skipped);
      if (outcome.refused) refused.push({ name: n, error: outcome.refused });
    }
  });
  return { success: refused.length === 0, updated, skipped, refused };
}

/** One skill of `hub update`: re-installed, skipped (no update) or refused (with why). */
async function updateOne(
  setup: HomeLayout,
  n: string,
  record: LockRecord,
  options: UpdateOptions,
): Promise<{ updated?: InstallResult; skipped?: CheckedSkill; refused?: string }> {
  const local = localState(setup, record);
  if (local === "locally_modified" && !options.force) {
    return {
      refused: `'${n}' was changed locally; pass --force to replace it with the source's version.`,
    };
  }
  if (local === "orphaned") return { skipped: { name: n, status: local } };
  let got: { fetched: Fetched; work: string } | undefined;
  let seen: Examined;
  try {
    got = await fetchAgain(setup, record);
    seen = examine(setup, n, record, got.fetched);
  } catch (error) {
    removeScratch(got?.work ?? "");
    if (error instanceof InterruptedError) throw error;
    return { skipped: unavailable(n, error) };
  }
  try {
    if (seen.refused) return { refused: seen.reason };
    if (seen.status === "up_to_date" && local === undefined) {
      await keepSequence(hubRoot(setup).root, n, record, got.fetched);
      return { skipped: { name: n, status: seen.status } };
    }
    // The very fetch judged above is installed: no second look between them ([T-2]).
    return { updated: await reinstall(setup, n, record, got.fetched, seen.candidate!, options) };
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    return { refused: error instanceof Error ? error.message : String(error) };
  } finally {
    removeScratch(got.work);
  }
}

/** Installs `candidate` of `fetched` in place of the skill `n` (the trust policy judges it afresh). */
function reinstall(
  setup: HomeLayout,
  n: string,
  record: LockRecord,
  fetched: Fetched,
  candidate: InstallCandidate,
  options: UpdateOptions,
): Promise<InstallResult> {
  const category = dirname(record.install_path) === "." ? undefined : dirname(record.install_path);
  return installCandidate(setup, refetchSource(record), fetched, candidate, {
    name: n,
    category,
    replace: true,
    yes: options.yes === true,
    collectionPath: record.collection_path,
    root: hubRoot(setup).root,
    confirm: options.confirm,
  });
}

/**
 * An up-to-date signed skill whose index has moved on (other skills changed) records the
 * newer sequence: an index older than one already seen is then a rollback too ([T-2]).
 */
async function keepSequence(
  root: string,
  n: string,
  record: LockRecord,
  fetched: Fetched,
): Promise<void> {
  const seen = fetched.indexSequence;
  if (
    record.signed_by === undefined || seen === undefined || seen <= (record.index_sequence ?? 0)
  ) {
    return;
  }
  await updateLock(root, (doc) => {
    const now = doc.installed[n];
    if (now?.content_hash === record.content_hash) now.index_sequence = seen;
  });
}
