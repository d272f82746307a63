/**
 * Scanning what the agent writes ([HUB-4], issue 12): `create`, `edit`, `patch` and
 * `write-file` (and MCP `skill_manage`) scan the skill as it will be after the write;
 * `bundle create|edit` scan the bundle file ([B-3]). A
 * `dangerous` verdict refuses the write with the findings unless forced; `caution` writes
 * and reports the findings as warnings.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import {
  readSkillFiles,
  SCAN_LIMIT,
  scanEntries,
  type ScanEntry,
  type ScanFinding,
  type Verdict,
} from "../scanner/scanner.ts";
import type { PreparedChange } from "./actions.ts";

/** What the scan of a write found. */
export interface WriteScan {
  /** The verdict of the skill after the write. */
  verdict: Verdict;
  /** Its findings. */
  findings: ScanFinding[];
}

/** Actions whose result is scanned. */
const SCANNED = new Set([
  "create",
  "edit",
  "patch",
  "write-file",
  "bundle-create",
  "bundle-edit",
]);

/** One line per finding, for warnings and refusals. */
export function findingLine(f: ScanFinding): string {
  const where = `${f.file}${f.line ? `:${f.line}` : ""}`;
  return `${f.severity} ${f.rule} (${f.context}) at ${where}: ${f.excerpt}`;
}

/** The skill's files after the change: what is on disk, with the change's files put over it. */
function filesAfter(change: PreparedChange): { entries: ScanEntry[]; links: ScanFinding[] } {
  if (change.bundleFile !== undefined) {
    // A bundle's text reaches the agent when it is invoked ([B-2]): only the file itself.
    return { entries: change.files.flatMap(entryOf), links: [] };
  }
  let current = { entries: [] as ScanEntry[], links: [] as ScanFinding[] };
  try {
    if (Deno.statSync(change.skillDir).isDirectory) current = readSkillFiles(change.skillDir);
  } catch (error) {
    // A new skill: nothing on disk yet. Anything else (a file of the skill that is no
    // longer inside it: a swap, [S-9]) refuses the write — never a scan of nothing.
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const byPath = new Map(current.entries.map((e) => [e.path, e]));
  for (const file of change.files) {
    if (file.after === null) {
      byPath.delete(file.rel);
      continue;
    }
    const data = typeof file.after === "string" ? new TextEncoder().encode(file.after) : file.after;
    const mode = byPath.get(file.rel)?.mode ?? null;
    byPath.set(file.rel, {
      path: file.rel,
      size: data.length,
      mode,
      data: data.subarray(0, SCAN_LIMIT),
    });
  }
  const entries = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { entries, links: current.links };
}

/** A changed file as the scanner reads it (removed files are not read). */
function entryOf(file: PreparedChange["files"][number]): ScanEntry[] {
  if (file.after === null) return [];
  const data = typeof file.after === "string" ? new TextEncoder().encode(file.after) : file.after;
  return [{ path: file.rel, size: data.length, mode: null, data: data.subarray(0, SCAN_LIMIT) }];
}

/**
 * Scans the skill (or bundle) a change leaves behind. Throws on `dangerous` unless `force`; returns
 * undefined for actions that only remove (delete, remove-file).
 */
export function guardChange(change: PreparedChange, force: boolean): WriteScan | undefined {
  if (!SCANNED.has(change.action.action)) return undefined;
  const { entries, links } = filesAfter(change);
  const report = scanEntries(entries, links);
  const scan = { verdict: report.verdict, findings: report.findings };
  if (scan.verdict === "dangerous" && !force) {
    const critical = scan.findings.filter((f) => f.severity === "critical");
    throw new SkillrtError(
      `Refused: the guard scanner finds '${change.name}' dangerous after this write (${
        critical.map((f) => `${f.rule} at ${f.file}:${f.line ?? "-"}`).join("; ")
      }); nothing was written. Use --force to write it anyway.`,
      { verdict: scan.verdict, findings: scan.findings },
    );
  }
  return scan;
}

/** The warnings a write reports for its scan: every finding unless the verdict is safe. */
export function scanWarnings(scan: WriteScan | undefined): string[] {
  if (!scan || scan.verdict === "safe") return [];
  return scan.findings.map(findingLine);
}
