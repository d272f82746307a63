/**
 * The guard scanner ([HUB-4]) over a folder: every file read in full up to the scan limit
 * (text or not; a file that is not UTF-8 is also read as Latin-1), text rules through
 * `scan/engine.ts`, structural checks over the files, and a verdict. Content past the
 * limit is itself a finding, never a silent skip.
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";
import { openInside, PathEscapeError } from "../files/open_inside.ts";
import { keepWorst, scanText, type ScanTextOptions, structuralFinding } from "./engine.ts";
import { isSecurityText } from "./context.ts";
import { bytesToDecode, skillBudget } from "./bounds.ts";
import { type ScanFinding, type Verdict, verdictOf } from "./finding.ts";

export { scanText } from "./engine.ts";
export { SCAN_BOUNDS } from "./bounds.ts";
export { type ScanFinding, type Verdict, verdictOf } from "./finding.ts";

/** Limits of the structural checks ([HUB-4]). */
export const STRUCTURAL_LIMITS = { files: 50, fileBytes: 256 * 1024, totalBytes: 5 * 1024 * 1024 };

/** Bytes of a skill the scanner reads in all (the extracted-size limit of [HUB-2]). */
export const SCAN_LIMIT = 25 * 1024 * 1024;

const MAGIC: readonly number[][] = [
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O
  [0xca, 0xfe, 0xba, 0xbe], // Mach-O universal
  [0x4d, 0x5a], // PE (MZ)
];

/** True when the bytes start like a compiled executable. */
export function isExecutableBinary(head: Uint8Array): boolean {
  return MAGIC.some((m) => m.every((b, i) => head[i] === b));
}

/** What `hub scan` returns. */
export interface ScanReport {
  /** Always true (a scan that ran; the verdict says what it found). */
  success: true;
  /** The verdict. */
  verdict: Verdict;
  /** Every finding, by file and line. */
  findings: ScanFinding[];
  /** Files scanned. */
  files: number;
  /** Bytes in all. */
  bytes: number;
}

/** Findings in a file's bytes: as UTF-8, and when that is not valid also as Latin-1. */
export function scanBytes(
  file: string,
  data: Uint8Array,
  options: ScanTextOptions = {},
): ScanFinding[] {
  // Decode no more than the scan may read ([HUB-4]); a character cut at the end is no error.
  const budget = options.budget ?? skillBudget();
  const head = data.subarray(0, bytesToDecode(budget));
  const stream = { stream: head.length < data.length };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(head, stream);
  } catch {
    const lenient = new TextDecoder("utf-8").decode(head, stream);
    const latin1 = new TextDecoder("latin1").decode(head);
    // Both readings are of the same bytes: the budget is spent once.
    const first = { ...options, binary: true, budget: { ...budget } };
    const second = { ...options, binary: true, budget };
    return keepWorst([...scanText(file, lenient, first), ...scanText(file, latin1, second)])
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  }
  return scanText(file, text, { ...options, budget });
}

/** The structural findings of one file's metadata and head. */
function fileFindings(
  path: string,
  info: { size: number; mode: number | null },
  head: Uint8Array,
): ScanFinding[] {
  const out: ScanFinding[] = [];
  if (info.size > STRUCTURAL_LIMITS.fileBytes) {
    out.push(structuralFinding("structural.large-file", path, null, `${info.size} bytes`));
  }
  if (info.mode !== null && (info.mode & 0o111) !== 0 && path.split("/")[0] !== "scripts") {
    const mode = `mode ${(info.mode & 0o777).toString(8)}`;
    out.push(structuralFinding("structural.executable-outside-scripts", path, null, mode));
  }
  if (isExecutableBinary(head)) {
    out.push(structuralFinding("structural.binary-executable", path, null, "compiled executable"));
  }
  return out;
}

/**
 * Reads at most `limit` bytes of a file of `dir`, through a handle proved inside it
 * ([S-9]: a folder swapped for a link while the skill is read refuses the scan, never
 * feeds it — and its excerpts — an outside file).
 */
function readAtMost(dir: string, path: string, limit: number): Uint8Array {
  const file = openInside(dir, path);
  try {
    const buf = new Uint8Array(limit);
    let got = 0;
    while (got < limit) {
      const n = file.readSync(buf.subarray(got));
      if (n === null || n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    file.close();
  }
}

/** A link's target; a link that is gone or no link now was swapped while listed ([S-9]). */
function linkTarget(full: string, path: string): string {
  try {
    return Deno.readLinkSync(full);
  } catch {
    throw new PathEscapeError(path);
  }
}

/** One file of a skill as the scanner sees it: its path, size, mode and (up to the limit) bytes. */
export interface ScanEntry {
  /** Relative path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Permission bits, when known. */
  mode: number | null;
  /** The bytes read (fewer than `size` past the scan limit). */
  data: Uint8Array;
}

/** Scans a skill given as files (and the structural findings already made while listing them). */
export function scanEntries(entries: readonly ScanEntry[], found: ScanFinding[] = []): ScanReport {
  const findings = [...found];
  const skill = entries.find((e) => e.path === "SKILL.md");
  const options = {
    securitySkill: skill !== undefined &&
      isSecurityText(new TextDecoder().decode(skill.data.subarray(0, 64 * 1024))),
    budget: skillBudget(), // One bound on the scan's work for the whole skill ([HUB-4]).
  };
  let bytes = 0;
  for (const e of entries) {
    bytes += e.size;
    findings.push(...fileFindings(e.path, { size: e.size, mode: e.mode }, e.data));
    if (e.data.length < e.size) {
      const excerpt = `${e.size - e.data.length} of ${e.size} bytes past the scan limit`;
      findings.push(structuralFinding("structural.unscanned", e.path, null, excerpt));
    }
    // A compiled executable (already critical) holds control bytes that hide nothing.
    const binary = isExecutableBinary(e.data) ? { ...options, binary: true } : options;
    if (e.data.length) findings.push(...scanBytes(e.path, e.data, binary));
  }
  if (entries.length > STRUCTURAL_LIMITS.files) {
    findings.push(
      structuralFinding("structural.too-many-files", ".", null, `${entries.length} files`),
    );
  }
  if (bytes > STRUCTURAL_LIMITS.totalBytes) {
    findings.push(structuralFinding("structural.total-size", ".", null, `${bytes} bytes`));
  }
  return {
    success: true,
    verdict: verdictOf(findings),
    findings,
    files: entries.length,
    bytes,
  };
}

/** A folder's files as the scanner reads them, its links as findings, and the walk order. */
export interface SkillFiles {
  /** Regular files, in walk order. */
  entries: ScanEntry[];
  /** A `structural.symlink` finding per link. */
  links: ScanFinding[];
  /** Paths of files and links, in walk order. */
  seen: string[];
}

/** Reads a folder's files (not following links) up to the scan limit in all. */
export function readSkillFiles(dir: string, limit = SCAN_LIMIT): SkillFiles {
  const out: SkillFiles = { entries: [], links: [], seen: [] };
  let budget = limit;
  const walk = (rel: string) => {
    const list = Array.from(Deno.readDirSync(rel ? joinPath(dir, rel) : dir))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of list) {
      const path = joinPath(rel, e.name);
      const full = joinPath(dir, path);
      if (!e.isDirectory) out.seen.push(path);
      if (e.isSymlink) {
        const target = `-> ${linkTarget(full, path)}`;
        out.links.push(structuralFinding("structural.symlink", path, null, target));
      } else if (e.isDirectory) walk(path);
      else if (e.isFile) {
        const info = Deno.statSync(full);
        const data = readAtMost(dir, path, Math.min(info.size, budget));
        budget -= data.length;
        out.entries.push({ path, size: info.size, mode: info.mode, data });
      }
    }
  };
  walk("");
  return out;
}

/** Scans a folder (a skill, or a quarantined download) without following links. */
export function scanFolder(dir: string, limit = SCAN_LIMIT): ScanReport {
  const { entries, links, seen } = readSkillFiles(dir, limit);
  const report = scanEntries(entries);
  report.findings = orderByWalk(report.findings, links, seen);
  report.verdict = verdictOf(report.findings);
  return report;
}

/** Findings in walk order (`seen`): each file's (and each link's) findings where it was met. */
function orderByWalk(
  findings: ScanFinding[],
  links: ScanFinding[],
  seen: readonly string[],
): ScanFinding[] {
  const rank = new Map(seen.map((p, i) => [p, i]));
  const all = [...findings.filter((f) => f.file !== "."), ...links].map((f, i) => ({ f, i }));
  all.sort((x, y) => (rank.get(x.f.file)! - rank.get(y.f.file)!) || x.i - y.i);
  return [...all.map((x) => x.f), ...findings.filter((f) => f.file === ".")];
}
