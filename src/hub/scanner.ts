/**
 * The guard scanner ([HUB-4]): text rules line by line, structural checks over the
 * files, one finding per rule per line, and a verdict. Phrases quoted inside fenced code
 * blocks of Markdown are not taken for prompt injection (documentation quotes them).
 *
 * @module
 */
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { join } from "../scan/walk.ts";
import { contentWarnings } from "../view/warnings.ts";
import {
  type Rule,
  type RuleCategory,
  type RuleSeverity,
  STRUCTURAL_RULES,
  TEXT_RULES,
} from "./rules.ts";

/** One finding. */
export interface ScanFinding {
  /** The rule's id. */
  rule: string;
  /** Its category. */
  category: RuleCategory;
  /** Its severity. */
  severity: RuleSeverity;
  /** The file, relative to the scanned folder (`.` for the folder as a whole). */
  file: string;
  /** 1-based line, or null for file-level findings. */
  line: number | null;
  /** The line (trimmed, at most 120 characters), or what was measured. */
  excerpt: string;
}

/** `dangerous` with any critical finding, `caution` with any high one, else `safe`. */
export type Verdict = "safe" | "caution" | "dangerous";

/** The verdict of a set of findings. */
export function verdictOf(findings: readonly ScanFinding[]): Verdict {
  if (findings.some((f) => f.severity === "critical")) return "dangerous";
  if (findings.some((f) => f.severity === "high")) return "caution";
  return "safe";
}

const STRUCTURAL = new Map(STRUCTURAL_RULES.map((rule) => [rule.id, rule]));

function finding(rule: Rule, file: string, line: number | null, excerpt: string): ScanFinding {
  return {
    rule: rule.id,
    category: rule.category,
    severity: rule.severity,
    file,
    line,
    excerpt: excerpt.trim().slice(0, 120),
  };
}

/** Findings in one text file. Pure. */
export function scanText(file: string, text: string): ScanFinding[] {
  const markdown = /\.(md|markdown|mdx)$/i.test(file);
  const findings: ScanFinding[] = [];
  let inFence = false;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (markdown && /^\s*(```|~~~)/.test(line)) inFence = !inFence;
    for (const rule of TEXT_RULES) {
      if (rule.category === "prompt_injection" && markdown && inFence) continue;
      if (!rule.pattern!.test(line) || rule.unless?.test(line)) continue;
      if (rule.next && !rule.next.test(lines[i + 1] ?? "")) continue;
      findings.push(finding(rule, file, i + 1, line));
    }
  });
  for (const w of contentWarnings(text)) {
    const id = w.pattern === "invisible-unicode"
      ? "structural.invisible-unicode"
      : w.pattern === "html-comment"
      ? "structural.html-comment"
      : undefined;
    if (id) findings.push(finding(STRUCTURAL.get(id)!, file, w.line, lines[w.line - 1] ?? ""));
  }
  return findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** Limits of the structural checks ([HUB-4]). */
export const STRUCTURAL_LIMITS = { files: 50, fileBytes: 256 * 1024, totalBytes: 5 * 1024 * 1024 };

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

/** Scans a folder (a skill, or a quarantined download) without following links. */
export function scanFolder(dir: string): ScanReport {
  const findings: ScanFinding[] = [];
  let files = 0;
  let bytes = 0;
  const walk = (rel: string) => {
    const entries = Array.from(Deno.readDirSync(rel ? join(dir, rel) : dir)).sort((
      a,
      b,
    ) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const path = join(rel, e.name);
      const full = join(dir, path);
      if (e.isSymlink) {
        findings.push(
          finding(
            STRUCTURAL.get("structural.symlink")!,
            path,
            null,
            `-> ${Deno.readLinkSync(full)}`,
          ),
        );
        continue;
      }
      if (e.isDirectory) {
        walk(path);
        continue;
      }
      if (!e.isFile) continue;
      files++;
      const info = Deno.statSync(full);
      bytes += info.size;
      if (info.size > STRUCTURAL_LIMITS.fileBytes) {
        findings.push(
          finding(STRUCTURAL.get("structural.large-file")!, path, null, `${info.size} bytes`),
        );
      }
      if (info.mode !== null && (info.mode & 0o111) !== 0 && path.split("/")[0] !== "scripts") {
        findings.push(
          finding(
            STRUCTURAL.get("structural.executable-outside-scripts")!,
            path,
            null,
            `mode ${(info.mode & 0o777).toString(8)}`,
          ),
        );
      }
      const data = Deno.readFileSync(full).subarray(0, 1024 * 1024);
      if (isExecutableBinary(data)) {
        findings.push(
          finding(
            STRUCTURAL.get("structural.binary-executable")!,
            path,
            null,
            "compiled executable",
          ),
        );
        continue;
      }
      if (data.subarray(0, 8192).includes(0)) continue; // other binary data: nothing to read
      findings.push(...scanText(path, decodeUtf8(data).text));
    }
  };
  walk("");
  if (files > STRUCTURAL_LIMITS.files) {
    findings.push(
      finding(STRUCTURAL.get("structural.too-many-files")!, ".", null, `${files} files`),
    );
  }
  if (bytes > STRUCTURAL_LIMITS.totalBytes) {
    findings.push(finding(STRUCTURAL.get("structural.total-size")!, ".", null, `${bytes} bytes`));
  }
  return { success: true, verdict: verdictOf(findings), findings, files, bytes };
}
