/**
 * The reading half of `hub publish` ([T-1]): find the skills in the folders given, read
 * their files (never following links), validate each SKILL.md ([M-2]), check each name
 * and path against what an index may hold, and scan each skill ([HUB-4]). Nothing is
 * written here, so bad input changes nothing.
 *
 * @module
 */
import {
  HubBlockedError,
  NotFoundError,
  SkillrtError,
  UsageError,
  ValidationError,
} from "../errors.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { parseFrontmatter } from "../frontmatter/parse.ts";
import { basename, joinPath, resolvePath } from "../home/paths.ts";
import { validateSkillContent } from "../manage/validation.ts";
import { sha256Hex } from "../hash/sha256.ts";
import { filesBelow } from "./content_hash.ts";
import { type ScanFinding, scanFolder, type Verdict } from "../scanner/scanner.ts";
import { indexNameOk, indexPathOk, skillDigest } from "./well_known_index.ts";

/** One file of a skill to publish. */
export interface PublishFile {
  /** Relative path inside the skill. */
  path: string;
  /** Its bytes. */
  data: Uint8Array;
  /** SHA-256 hex of the bytes. */
  hex: string;
}

/** One skill ready to publish. */
export interface PublishSkill {
  /** Its name in the index. */
  name: string;
  /** Its description. */
  description: string;
  /** Where it was read. */
  dir: string;
  /** Its files, sorted by path. */
  files: PublishFile[];
  /** The skill digest of the index. */
  digest: string;
  /** The scanner's verdict. */
  verdict: Verdict;
  /** The scanner's findings. */
  findings: ScanFinding[];
}

const MAX_DEPTH = 4;

function isFile(path: string): boolean {
  try {
    return Deno.lstatSync(path).isFile;
  } catch {
    return false;
  }
}

/** The skill folders in `dir`: itself when it holds SKILL.md, else every one below it. */
export function skillFolders(dir: string, depth = 0): string[] {
  if (isFile(joinPath(dir, "SKILL.md"))) return [dir];
  if (depth >= MAX_DEPTH) return [];
  const out: string[] = [];
  const entries = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory && !e.name.startsWith("."))
    .map((e) => e.name).sort();
  for (const name of entries) out.push(...skillFolders(joinPath(dir, name), depth + 1));
  return out;
}

function readSkill(dir: string): Omit<PublishSkill, "verdict" | "findings"> {
  const text = new TextDecoder().decode(Deno.readFileSync(joinPath(dir, "SKILL.md")));
  try {
    validateSkillContent(text);
  } catch (error) {
    throw new SkillrtError(`Cannot publish '${dir}': ${(error as Error).message}`);
  }
  const fence = splitFrontmatter(text);
  const fm = fence.kind === "ok" ? parseFrontmatter(fence.yaml).data : {};
  const name = typeof fm.name === "string" && fm.name.trim() ? fm.name.trim() : basename(dir);
  if (!indexNameOk(name)) {
    throw new ValidationError(
      `Cannot publish '${dir}': '${name}' is not a valid index name (1–64 lowercase letters, digits and single hyphens).`,
    );
  }
  const files = filesBelow(dir).filter((p) => !p.split("/").includes(".git")).map((path) => {
    if (!indexPathOk(path)) {
      throw new ValidationError(
        `Cannot publish '${name}': the file name ${JSON.stringify(path)} cannot go in an index.`,
      );
    }
    const data = Deno.readFileSync(joinPath(dir, path));
    return { path, data, hex: sha256Hex(data) };
  });
  return {
    name,
    description: typeof fm.description === "string" ? fm.description : "",
    dir,
    files,
    digest: skillDigest(files),
  };
}

/**
 * Reads, validates and scans every skill in `dirs` (relative to `cwd`).
 * @throws {SkillrtError} for an invalid skill, a name published twice, or a dangerous
 * skill without `force`.
 */
export function collectSkills(cwd: string, dirs: string[], force: boolean): PublishSkill[] {
  if (dirs.length === 0) throw new UsageError("'hub publish' needs at least one folder.");
  const seen = new Map<string, string>();
  const skills: PublishSkill[] = [];
  for (const raw of dirs) {
    const dir = resolvePath(cwd, raw);
    let folders: string[];
    try {
      folders = skillFolders(dir);
    } catch {
      throw new SkillrtError(`Cannot publish '${raw}': it is not a readable folder.`);
    }
    if (folders.length === 0) {
      throw new NotFoundError(`Cannot publish '${raw}': it holds no skill.`);
    }
    for (const folder of folders) {
      const skill = readSkill(folder);
      const other = seen.get(skill.name);
      if (other) {
        throw new ValidationError(
          `Cannot publish two skills named '${skill.name}': ${other} and ${folder}.`,
        );
      }
      seen.set(skill.name, folder);
      const report = scanFolder(folder);
      if (report.verdict === "dangerous" && !force) {
        throw new HubBlockedError(
          `Refusing to publish '${skill.name}': the scanner finds it dangerous (${report.findings.length} findings); pass --force to publish it anyway.`,
          { verdict: report.verdict, findings: report.findings },
        );
      }
      skills.push({ ...skill, verdict: report.verdict, findings: report.findings });
    }
  }
  return skills.sort((a, b) => (a.name < b.name ? -1 : 1));
}
