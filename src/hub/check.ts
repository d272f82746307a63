/**
 * `hub check [NAME]` and `hub update [NAME]` ([HUB-6]): compare each installed skill with
 * its lock record and with its source fetched again.
 *
 * @module
 */
import { isWellKnownSource } from "./source.ts";
import { SkillrtError } from "../errors.ts";
import { dirname } from "../home/paths.ts";
import type { Setup } from "../home/setup.ts";
import { fetchSource } from "./fetch.ts";
import { hubRoot } from "./hub_root.ts";
import { candidateOf, type InstallResult, installSkill } from "./install.ts";
import { setSkillName } from "./collection.ts";
import { removeScratch, scratchFolder, withScratch } from "./scratch.ts";
import type { LockRecord } from "./lockfile.ts";
import { hashFolder, installedHash, readLockDocument } from "./lockfile_write.ts";

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

/** The content hash of a source as it is now (fetched into a scratch folder, then removed). */
export async function sourceHash(
  setup: Setup,
  source: string,
  signedBy?: string,
  collectionPath?: string,
  installedAs?: string,
): Promise<string> {
  const scratch = scratchFolder(hubRoot(setup).root, "check");
  try {
    const fetched = await fetchSource(setup, source, `${scratch}-git`);
    if (signedBy !== undefined && fetched.signedBy !== signedBy) {
      // A skill installed from a signed index stays bound to its key ([T-2]).
      throw new SkillrtError(`The index is no longer signed by the trusted key '${signedBy}'.`);
    }
    if (fetched.collection) candidateOf(fetched, { collectionPath }).fill(scratch);
    else fetched.fill(scratch);
    // Installed under its slug form: hashed as installed ([HUB-8]).
    if (installedAs !== undefined) setSkillName(scratch, installedAs);
    return hashFolder(scratch).content_hash;
  } finally {
    removeScratch(scratch, `${scratch}-git`);
  }
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

async function checkOne(setup: Setup, name: string, record: LockRecord): Promise<CheckedSkill> {
  let local: string;
  try {
    local = installedHash(hubRoot(setup).root, record.install_path).content_hash;
  } catch {
    return { name, status: "orphaned" };
  }
  if (local !== record.content_hash) return { name, status: "locally_modified" };
  try {
    const remote = await sourceHash(
      setup,
      refetchSource(record),
      record.signed_by,
      record.collection_path,
      record.declared_name !== undefined ? name : undefined,
    );
    return { name, status: remote === record.content_hash ? "up_to_date" : "update_available" };
  } catch (error) {
    return {
      name,
      status: "unavailable",
      reason: error instanceof Error ? error.message : String(error),
    };
  }
}

function selected(setup: Setup, name?: string): [string, LockRecord][] {
  const installed = Object.entries(readLockDocument(hubRoot(setup).root).installed).sort((
    [a],
    [b],
  ) => (a < b ? -1 : 1));
  if (name === undefined) return installed;
  const one = installed.filter(([n]) => n === name);
  if (one.length === 0) throw new SkillrtError(`'${name}' is not a hub-installed skill`);
  return one;
}

/** `hub check [NAME]`. */
export async function checkInstalled(
  setup: Setup,
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
  /** Asks a yes/no question (undefined: no one to ask). */
  confirm?: (question: string) => Promise<boolean | undefined>;
}

/** `hub update [NAME] [--force]`: re-installs what has an update; a locally modified skill needs `--force`. */
export async function updateInstalled(
  setup: Setup,
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
  setup: Setup,
  n: string,
  record: LockRecord,
  options: UpdateOptions,
): Promise<{ updated?: InstallResult; skipped?: CheckedSkill; refused?: string }> {
  const state = await checkOne(setup, n, record);
  if (state.status === "locally_modified" && !options.force) {
    return {
      refused: `'${n}' was changed locally; pass --force to replace it with the source's version.`,
    };
  }
  if (
    state.status !== "update_available" && !(state.status === "locally_modified" && options.force)
  ) {
    return { skipped: state };
  }
  const category = dirname(record.install_path) === "." ? undefined : dirname(record.install_path);
  try {
    // Replaces the installed copy, but the trust policy judges the new version afresh.
    return {
      updated: await installSkill(setup, refetchSource(record), {
        name: n,
        category,
        replace: true,
        yes: true,
        collectionPath: record.collection_path,
        root: hubRoot(setup).root,
        confirm: options.confirm,
      }),
    };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}
