/**
 * `validate [PATH…] [--profile …]` ([M-5]): checks skills without changing them. With
 * no path it checks every skill of every root; a path may be a SKILL.md, a skill folder
 * or a folder of skills.
 *
 * @module
 */
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { basename, dirname, joinPath, resolvePath } from "../home/paths.ts";
import { walkRoot } from "../scan/walk.ts";
import { checkSkill, type Finding, type Profile } from "./rules.ts";

/** The document `validate` prints. */
export interface ValidateResult {
  /** True when no finding is an error. */
  success: boolean;
  /** The profile applied. */
  profile: Profile;
  /** How many SKILL.md files were checked. */
  checked: number;
  /** Number of error findings. */
  errors: number;
  /** Number of warning findings. */
  warnings: number;
  /** Number of info findings (recommendations, [M-6]). */
  infos: number;
  /** Every finding, by file then line. */
  findings: Finding[];
}

const MAX_READ = 1024 * 1024;

/** The SKILL.md files below a path (a file, a skill folder, or a folder of skills). */
export function skillFilesAt(path: string): { files: string[]; findings: Finding[] } {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return {
      files: [],
      findings: [{
        file: path,
        line: null,
        rule: "path.unreadable",
        severity: "error",
        message: `Path '${path}' cannot be read (${(error as Error).name}).`,
      }],
    };
  }
  if (info.isFile) return { files: [path], findings: [] };
  const walk = walkRoot(path, Deno.realPathSync(path));
  const findings: Finding[] = walk.diagnostics.map((d) => ({
    file: d.path ?? path,
    line: null,
    rule: d.code,
    severity: "warning",
    message: d.message,
  }));
  if (walk.skills.length === 0) {
    // An explicit path with no skill is an error, as skills-ref says ([M-6]).
    findings.push({
      file: path,
      line: null,
      rule: "skill.missing",
      severity: "error",
      message: "Missing required file: SKILL.md",
    });
  }
  return { files: walk.skills.map((s) => joinPath(s.dir, "SKILL.md")), findings };
}

/** Checks one SKILL.md file. */
export function validateFile(file: string, profile: Profile): Finding[] {
  let bytes: Uint8Array;
  try {
    const size = Deno.statSync(file).size;
    if (size > MAX_READ) {
      return [{
        file,
        line: null,
        rule: "content.too_large",
        severity: "error",
        message: `SKILL.md is ${size} bytes; the limit is ${MAX_READ} bytes.`,
      }];
    }
    bytes = Deno.readFileSync(file);
  } catch (error) {
    return [{
      file,
      line: null,
      rule: "file.unreadable",
      severity: "error",
      message: `SKILL.md cannot be read (${(error as Error).name}).`,
    }];
  }
  const decoded = decodeUtf8(bytes);
  const findings = decoded.invalid
    ? [{
      file,
      line: null,
      rule: "file.invalid-utf8",
      severity: "error" as const,
      message: "SKILL.md is not valid UTF-8.",
    }]
    : [];
  return [...findings, ...checkSkill(decoded.text, file, basename(dirname(file)), profile)];
}

/** Validates the given SKILL.md files (and path findings) under a profile. */
export function validateFiles(
  files: string[],
  profile: Profile,
  pathFindings: Finding[] = [],
): ValidateResult {
  const findings = [...pathFindings];
  for (const file of files) findings.push(...validateFile(file, profile));
  findings.sort((
    a,
    b,
  ) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
  const count = (severity: Finding["severity"]) =>
    findings.filter((f) => f.severity === severity).length;
  const errors = count("error");
  return {
    success: errors === 0,
    profile,
    checked: files.length,
    errors,
    warnings: count("warning"),
    infos: count("info"),
    findings,
  };
}

/** Validates paths given on the command line (relative to `cwd`). */
export function validatePaths(paths: string[], cwd: string, profile: Profile): ValidateResult {
  const files: string[] = [];
  const findings: Finding[] = [];
  for (const p of paths) {
    const found = skillFilesAt(resolvePath(cwd, p));
    files.push(...found.files);
    findings.push(...found.findings);
  }
  return validateFiles(files, profile, findings);
}
