/**
 * Consent to run a script ([RUN-3]): a script of the local root (not installed from the
 * hub, not created or changed through MCP: `agent_written.ts`) runs on request; any other
 * runs only once the user approved the skill's files with its declared grant. Approvals
 * live in one file of the home, `skills/.run_approvals.json` (beside the use counts),
 * written under its lock through the atomic writer. An approval binds the script and every
 * other file of the skill (the snapshot's hash, `snapshot.ts`) with the grant: a changed
 * file, grant or resolution of the grant (a declared path now a link elsewhere) matches no approval, so the user is asked again. Who may approve is
 * decided by the caller (`approve.ts`): the CLI at a terminal or with `--yes`, never an
 * MCP client.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { isInside, joinPath } from "../home/paths.ts";
import { atomicWriteJson } from "../manage/atomic.ts";
import { lockedWritePaths, withLock } from "../manage/mutex.ts";
import { isMapping } from "../mapping.ts";
import type { Declared } from "./permissions.ts";
import type { Grant } from "./grant.ts";

/** One approval: this script, byte for byte, with this declared grant, in this skill folder. */
export interface Approval {
  /** The skill's name (for the reader of the file). */
  skill: string;
  /** The skill folder, real path. */
  skillDir: string;
  /** The script, relative to the skill folder. */
  script: string;
  /** The script's sha256. */
  sha256: string;
  /** The sha256 of every file of the skill as run (`filesFingerprint`, `snapshot.ts`). */
  files: string;
  /** The sha256 of the grant, declared and resolved ({@linkcode grantFingerprint}). */
  grant: string;
  /** When it was approved (ISO time). */
  approvedAt: string;
  /** The grant as the question showed it (for the reader of the file). */
  summary?: string;
}

/** The approvals file of a home, in its local root. */
export function approvalsFile(localRoot: string): string {
  return joinPath(localRoot, ".run_approvals.json");
}

/** Every path recording an approval writes (for the sandbox plan). */
export function approvalWritePaths(localRoot: string): string[] {
  return lockedWritePaths(approvalsFile(localRoot));
}

/**
 * The fingerprint of a grant: the sha256 of the canonical JSON of what the skill declared
 * and of what that resolved to — the real paths read and written (those in the work dir
 * relative to it, so another work dir asks nothing new), hosts, variables and programs. A
 * declared path that now resolves elsewhere (a link changed by whoever may write it) matches
 * no approval, and the user is asked again.
 */
export function grantFingerprint(declared: Declared, grant: Grant): string {
  const sorted = (xs: readonly string[] | undefined) => xs === undefined ? null : [...xs].sort();
  const placed = (paths: readonly string[]) =>
    sorted(
      paths.map((p) => isInside(grant.workDir, p) ? `$WORKDIR${p.slice(grant.workDir.length)}` : p),
    );
  return sha256Hex(JSON.stringify({
    from: declared.from,
    read: sorted(declared.read),
    write: sorted(declared.write),
    net: declared.net === true ? true : sorted(declared.net),
    env: sorted(declared.env),
    run: sorted(declared.run),
    resolved: {
      read: placed(grant.read),
      write: placed(grant.write),
      net: grant.net === true ? true : sorted(grant.net),
      env: sorted(grant.env),
      run: sorted(grant.run),
    },
  }));
}

function isApproval(value: unknown): value is Approval {
  return isMapping(value) &&
    ["skill", "skillDir", "script", "sha256", "files", "grant", "approvedAt"].every((k) =>
      typeof value[k] === "string"
    );
}

/** The approvals recorded in a home's local root; none when the file is absent or unreadable. */
export function readApprovals(localRoot: string): Approval[] {
  try {
    const data: unknown = JSON.parse(Deno.readTextFileSync(approvalsFile(localRoot)));
    const list = isMapping(data) ? data.approvals : undefined;
    return Array.isArray(list) ? list.filter(isApproval) : [];
  } catch {
    return [];
  }
}

/** The key an approval must match. */
export type ApprovalKey = Pick<Approval, "skillDir" | "script" | "sha256" | "files" | "grant">;

/** Whether `key` was approved. */
export function isApproved(approvals: readonly Approval[], key: ApprovalKey): boolean {
  return approvals.some((a) =>
    a.skillDir === key.skillDir && a.script === key.script && a.sha256 === key.sha256 &&
    a.files === key.files && a.grant === key.grant
  );
}

/** Records an approval, replacing an older one of the same script of the same skill. */
export async function recordApproval(localRoot: string, approval: Approval): Promise<void> {
  const file = approvalsFile(localRoot);
  await withLock(file, () => {
    const kept = readApprovals(localRoot).filter((a) =>
      !(a.skillDir === approval.skillDir && a.script === approval.script)
    );
    atomicWriteJson(file, { approvals: [...kept, approval] });
  });
}

/**
 * Whether a skill's scripts need the user's approval: any but the local root's own (not
 * from the hub or another agent's bundle — `fromElsewhere` —, never created or changed
 * through MCP).
 */
export function needsConsent(source: string, fromElsewhere: boolean, byAgent: boolean): boolean {
  return source !== "local" || fromElsewhere || byAgent;
}
