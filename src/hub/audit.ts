/**
 * The tamper-evident audit log ([HUB-3]): `<local root>/.hub/audit.log`, one line per
 * install, uninstall, update or block, each ending in `chain=<hex>` — the SHA-256 of the
 * previous line's chain and this line's text — so an edited, inserted or deleted line is
 * detected by `hub audit --verify`.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { ensureDir, joinPath } from "../home/paths.ts";
import { withLock } from "../manage/lock.ts";

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
  /** True when every line's chain is right. */
  intact: boolean;
  /** Number of lines. */
  lines: number;
  /** The first line (1-based) whose chain is wrong, and why. */
  broken?: { line: number; reason: string };
}

const LINE = /^(.*) chain=([0-9a-f]{64})$/;

/** Checks the chain of a log's text. Pure. */
export function verifyAudit(text: string): AuditCheck {
  const lines = text.split("\n").filter((l) => l !== "");
  let previous = GENESIS;
  for (let i = 0; i < lines.length; i++) {
    const m = LINE.exec(lines[i]);
    if (!m) {
      return {
        intact: false,
        lines: lines.length,
        broken: { line: i + 1, reason: "the line has no chain value" },
      };
    }
    if (chainOf(previous, m[1]) !== m[2]) {
      return {
        intact: false,
        lines: lines.length,
        broken: {
          line: i + 1,
          reason:
            "the chain does not match: this line or one before it was edited, inserted or deleted",
        },
      };
    }
    previous = m[2];
  }
  return { intact: true, lines: lines.length };
}

/** Appends one event under the log's lock. */
export async function appendAudit(localRoot: string, text: string): Promise<string> {
  const file = auditFile(localRoot);
  ensureDir(joinPath(localRoot, ".hub"));
  return await withLock(file, () => {
    let previous = GENESIS;
    try {
      const lines = Deno.readTextFileSync(file).split("\n").filter((l) => l !== "");
      const last = lines.length ? LINE.exec(lines[lines.length - 1]) : null;
      if (last) previous = last[2];
    } catch {
      // No log yet: the chain starts here.
    }
    const line = `${text} chain=${chainOf(previous, text)}\n`;
    Deno.writeTextFileSync(file, line, { append: true });
    return line;
  });
}
