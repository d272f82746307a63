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
import { HubBlockedError, SkillrtError } from "../errors.ts";
import { basename, dirname, ensureDir, joinPath } from "../home/paths.ts";
import type { Setup } from "../home/setup.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { parseFrontmatter } from "../frontmatter/parse.ts";
import { validateName, validateSkillContent } from "../manage/validation.ts";
import { appendAudit, auditText } from "./audit.ts";
import { hashFolder, readLockDocument, updateLock } from "./lock_write.ts";
import { decide } from "./policy.ts";
import { type Fetched, fetchSource } from "./fetch.ts";
import { progress } from "./progress.ts";
import { type ScanFinding, scanFolder, type Verdict } from "./scanner.ts";

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
}

/** What an install did. */
export interface InstallResult {
  /** Always true. */
  success: true;
  /** The installed name. */
  name: string;
  /** The folder, relative to the local root. */
  install_path: string;
  /** Trust level. */
  trust_level: string;
  /** Scanner verdict. */
  scan_verdict: Verdict;
  /** The scanner's findings. */
  findings: ScanFinding[];
  /** `sha256:` content hash. */
  content_hash: string;
  /** Integrity warnings (for example an index without digests). */
  warnings: string[];
  /** The label of the trusted key that signed the index ([T-2]). */
  signed_by?: string;
}

function randomSuffix(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/** The name a source folder installs under: `--name`, else frontmatter `name`, else the folder. */
export function installName(path: string, text: string, name?: string): string {
  const folder = basename(path);
  if (name) return validateName(name);
  const fence = splitFrontmatter(text);
  const fm = fence.kind === "ok" ? parseFrontmatter(fence.yaml).data : {};
  return validateName(
    typeof fm.name === "string" && fm.name.trim() ? fm.name.trim() : basename(folder),
  );
}

/** Where a skill installs, relative to the local root. */
export function installPath(name: string, category?: string): string {
  return category ? `${validateName(category, "Category")}/${name}` : name;
}

/** Installs the skill a source holds ([HUB-1], [HUB-2]). */
export async function installSkill(
  setup: Setup,
  source: string,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const now = options.now ?? new Date();
  const root = setup.localRoot;
  const work = joinPath(root, ".hub", "quarantine", `git-${randomSuffix()}`);
  let fetched: Fetched;
  try {
    fetched = await fetchSource(setup, source, work, options.index);
  } catch (error) {
    try {
      Deno.removeSync(work, { recursive: true });
    } catch {
      // No clone was made.
    }
    throw error;
  }
  const real = fetched.identifier;
  const name = fetched.remote
    ? validateName(options.name ?? fetched.folder)
    : installName(fetched.folder, fetched.text, options.name);
  const rel = installPath(name, options.category);
  const target = joinPath(root, rel);
  const lock = readLockDocument(root);
  let exists = false;
  try {
    Deno.lstatSync(target);
    exists = true;
  } catch {
    exists = false;
  }
  if ((lock.installed[name] || exists) && !options.force && !options.replace) {
    throw new SkillrtError(
      `'${name}' is already installed at ${target}; pass --force to replace it.`,
    );
  }
  const quarantine = joinPath(root, ".hub", "quarantine", `${name}-${randomSuffix()}`);
  try {
    fetched.fill(quarantine);
    validateSkillContent(Deno.readTextFileSync(joinPath(quarantine, "SKILL.md")));
    progress(`Scanning '${name}'…`);
    const report = scanFolder(quarantine);
    progress(
      `Scanned '${name}': ${report.verdict}, ${findingCount(report.findings.length)}.`,
      true,
    );
    const trust = fetched.trust;
    const typedYes = !options.yes && options.confirm
      ? await options.confirm(
        `Install '${name}' (${report.verdict}, ${
          findingCount(report.findings.length)
        }) from ${source}?`,
      )
      : undefined;
    const decision = decide(trust, report.verdict, {
      force: !!options.force,
      yes: !!options.yes,
      typedYes,
    });
    if (!decision.install) {
      await appendAudit(
        root,
        auditText(
          now,
          "BLOCKED",
          name,
          real,
          trust,
          report.verdict,
          findingCount(report.findings.length),
        ),
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
    const hashed = hashFolder(quarantine);
    if (exists) Deno.removeSync(target, { recursive: true });
    ensureDir(dirname(target));
    Deno.renameSync(quarantine, target);
    const previous = lock.installed[name];
    await updateLock(root, (doc) => {
      doc.installed[name] = {
        // An update keeps the source as the user first gave it.
        source: options.replace && previous ? previous.source : source,
        identifier: real,
        trust_level: trust,
        scan_verdict: report.verdict,
        content_hash: hashed.content_hash,
        install_path: rel,
        files: hashed.files,
        installed_at: previous?.installed_at ?? now.toISOString(),
        updated_at: now.toISOString(),
        ...(fetched.signedBy !== undefined ? { signed_by: fetched.signedBy } : {}),
      };
    });
    await appendAudit(
      root,
      auditText(now, previous ? "UPDATE" : "INSTALL", name, real, trust, report.verdict),
    );
    // Provenance ([U-1]): the hub created it; an update keeps what was recorded.
    await tryUpdateUsage(root, (map) => recordInstalled(map, name, now));
    return {
      success: true,
      name,
      install_path: rel,
      trust_level: trust,
      scan_verdict: report.verdict,
      findings: report.findings,
      content_hash: hashed.content_hash,
      warnings: fetched.warnings ?? [],
      ...(fetched.signedBy !== undefined ? { signed_by: fetched.signedBy } : {}),
    };
  } finally {
    for (const scratch of [quarantine, work]) {
      try {
        Deno.removeSync(scratch, { recursive: true });
      } catch {
        // Moved into place, or never made.
      }
    }
  }
}
