/**
 * The tamper-evident audit log ([HUB-3]): `<local root>/.hub/audit.log`, one line per
 * install, uninstall, update or block, each ending in `chain=<hex>` — the SHA-256 of the
 * previous line's chain and this line's text — so an edited, inserted or deleted line is
 * detected by `hub audit --verify`. The chain head (the last chain value and the line
 * count) is also recorded in lock.json in the same locked step, so a truncated, extended
 * or re-chained log is detected too.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { ensureDir, isLinkHere, joinPath } from "../home/paths.ts";
import { ValidationError } from "../errors.ts";
import { atomicWrite } from "../manage/atomic.ts";
import { withLock } from "../manage/mutex.ts";
import { lockFile } from "./lockfile.ts";
import { type AuditHead, changeLockHeld, readLockDocument } from "./lockfile.ts";

/** What the audit log records. */
export type AuditEvent = "INSTALL" | "UNINSTALL" | "UPDATE" | "BLOCKED";

/** The chain value before the first line. */
export const GENESIS = "0".repeat(64);

/** The chain value of a line's text after the previous chain. */
export function chainOf(previous: string, text: string): string {
  return sha256Hex(new TextEncoder().encode(`${previous}\n${text}`));
}

/** One line's text (without the chain): `<UTC ISO> <EVENT> <name> <source>:<trust> <verdict>[ <extra>]`. */
export function auditText(
  at: Date,
  event: AuditEvent,
  name: string,
  source: string,
  trust: string,
  verdict: string,
  extra?: string,
): string {
  const clean = (s: string) => s.replace(/\s+/g, "_");
  return `${at.toISOString()} ${event} ${clean(name)} ${clean(source)}:${trust} ${verdict}${
    extra ? ` ${extra.replace(/\n/g, " ")}` : ""
  }`;
}

/** The log's path. */
export function auditFile(localRoot: string): string {
  return joinPath(localRoot, ".hub", "audit.log");
}

/** What `hub audit --verify` found. */
export interface AuditCheck {
  /** True when every line's chain is right (and, when checked, agrees with the recorded head). */
  intact: boolean;
  /** Number of lines. */
  lines: number;
  /** The first line (1-based) that disagrees, and why. */
  broken?: { line: number; reason: string };
}

const LINE = /^(.*) chain=([0-9a-f]{64})$/;

function broken(lines: number, line: number, reason: string): AuditCheck {
  return { intact: false, lines, broken: { line, reason } };
}

/** Checks the log against the chain head recorded in lock.json: truncated, extended or re-chained. */
function checkHead(lines: readonly string[], head: AuditHead | null): AuditCheck | null {
  const n = lines.length;
  if (!head) {
    return n === 0 ? null : broken(
      n,
      1,
      "lock.json records no chain head for this log, so it may have been rewritten",
    );
  }
  if (n < head.lines) {
    return broken(
      n,
      n + 1,
      `the log ends after ${n} lines but lock.json records ${head.lines}: lines were removed`,
    );
  }
  if (n > head.lines) {
    return broken(
      n,
      head.lines + 1,
      `lock.json records ${head.lines} lines: this line and those after it were added outside the hub`,
    );
  }
  if (LINE.exec(lines[n - 1])![2] !== head.chain) {
    return broken(
      n,
      n,
      "its chain does not match the chain head recorded in lock.json: the log was rewritten",
    );
  }
  return null;
}

/**
 * Checks the chain of a log's text. Pure. With `head` (the chain head lock.json records,
 * null when it records none) the log must also end where the head says.
 */
export function verifyAudit(text: string, head?: AuditHead | null): AuditCheck {
  const lines = text.split("\n").filter((l) => l !== "");
  let previous = GENESIS;
  for (let i = 0; i < lines.length; i++) {
    const m = LINE.exec(lines[i]);
    if (!m) return broken(lines.length, i + 1, "the line has no chain value");
    if (chainOf(previous, m[1]) !== m[2]) {
      return broken(
        lines.length,
        i + 1,
        "the chain does not match: this line or one before it was edited, inserted or deleted",
      );
    }
    previous = m[2];
  }
  if (head !== undefined) {
    const disagreement = checkHead(lines, head);
    if (disagreement) return disagreement;
  }
  return { intact: true, lines: lines.length };
}

/**
 * The text of a root's audit log ('' when there is none). The log is only ever read as
 * a file of that root: a symbolic link there (an agent's folder is written by other
 * programs too) is refused, never read through ([S-9]).
 * @throws {SkillrtError} when the log is a link or not a regular file.
 */
export function readAuditLog(root: string): string {
  const file = auditFile(root);
  if (isLinkHere(file)) {
    throw new ValidationError(`Refusing to read through a symbolic link: '${file}'.`);
  }
  try {
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}

/**
 * Appends one event and records the new chain head in lock.json, both under lock.json's
 * inter-process lock (one locked step). A lock.json that does not parse refuses the
 * append before anything is written.
 */
export async function appendAudit(localRoot: string, text: string): Promise<string> {
  const file = auditFile(localRoot);
  ensureDir(joinPath(localRoot, ".hub"));
  return await withLock(lockFile(localRoot), () => {
    const lock = readLockDocument(localRoot); // A lock.json that does not parse stops here.
    const log = readAuditLog(localRoot);
    // A log that no longer agrees with its recorded head (cut, extended, re-chained,
    // removed) keeps that head: a new line never records a new head over the tampering,
    // so `hub audit --verify` goes on reporting it.
    const tampered = lock.audit !== undefined && !verifyAudit(log, lock.audit).intact;
    const lines = log.split("\n").filter((l) => l !== "");
    const last = lines.length ? LINE.exec(lines[lines.length - 1]) : null;
    const chain = chainOf(last ? last[2] : GENESIS, text);
    const line = `${text} chain=${chain}\n`;
    // Written whole through the atomic writer: never through a link planted in an agent's
    // folder, never outside the root's real folder ([X-6], [S-9]).
    atomicWrite(file, log + line, {
      fixedTemp: true,
      within: Deno.realPathSync(localRoot),
      mode: 0o644,
    });
    if (!tampered) {
      changeLockHeld(localRoot, (held) => {
        held.audit = { chain, lines: lines.length + 1 };
      });
    }
    return line;
  });
}
