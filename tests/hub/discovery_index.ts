/**
 * A small generator of Agent Skills discovery sites for tests ([IO-1]), written from the
 * RFC's text (cloudflare/agent-skills-discovery-rfc) and independent of skillrt's own
 * publisher: a v0.2.0 index (`$schema`; per skill `name`, `type`, `description`, `url`,
 * `digest` = SHA-256 of the artifact's raw bytes) with each artifact beside it — a skill
 * of one SKILL.md as that file, any other as an archive made by the system's own `tar`
 * or `zip`, the skill's files at the archive's root — and a v0.1 index (no `$schema`,
 * `files` as plain paths, each file at `<name>/<path>` beside the index).
 *
 * @module
 */
import { sha256Hex } from "../../src/hash/sha256.ts";
import { makeTree, tempDir } from "../helpers.ts";

/** The `$schema` URI of v0.2.0, as the RFC gives it. */
export const SCHEMA_V02 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/** Where the RFC puts the v0.2.0 index, and where v0.1 had it. */
export const V02_DIR = "/.well-known/agent-skills";
export const V01_DIR = "/.well-known/skills";

/** How one skill is published. */
export interface SkillPlan {
  /** The skill's files (relative path → text); `SKILL.md` among them. */
  files: Record<string, string>;
  /** The archive format for a skill with more than its SKILL.md (default `tar.gz`). */
  archive?: "tar.gz" | "zip";
  /**
   * How `url` is written: `path` (path-absolute, on the index's origin), `relative` (to the
   * index's folder) or an absolute origin such as `http://127.0.0.1:8080` (default `path`).
   */
  url?: "path" | "relative" | string;
}

/** `name:` and `description:` of a SKILL.md's frontmatter (single-line values, as the RFC's examples). */
export function frontmatter(text: string): { name: string; description: string } {
  const head = text.split("\n---", 1)[0];
  const value = (key: string) =>
    new RegExp(`^${key}:\\s*(.+)$`, "m").exec(head)?.[1].trim().replace(/^["']|["']$/g, "") ?? "";
  return { name: value("name"), description: value("description") };
}

const hex = (bytes: Uint8Array) => `sha256:${sha256Hex(bytes)}`;

/** An archive of `files` (at its root), made by the system's `tar` or `zip`. */
export function archiveOf(files: Record<string, string>, format: "tar.gz" | "zip"): Uint8Array {
  const dir = makeTree(files);
  const out = `${tempDir()}/artifact.${format}`;
  const paths = Object.keys(files).sort();
  const [cmd, args] = format === "zip"
    ? ["zip", ["-q", "-X", out, ...paths]]
    : ["tar", ["-czf", out, "--owner=0", "--group=0", ...paths]];
  const r = new Deno.Command(cmd, { args, cwd: dir }).outputSync();
  if (!r.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(r.stderr)}`);
  return Deno.readFileSync(out);
}

/** The URL of `rel` (a path below the index's folder) as `plan` asks it to be written. */
function urlOf(rel: string, plan: SkillPlan): string {
  if (plan.url === "relative") return rel;
  if (plan.url === undefined || plan.url === "path") return `${V02_DIR}/${rel}`;
  return `${plan.url}${V02_DIR}/${rel}`;
}

/** A v0.2.0 site in `site` (a new folder if not given); returns the folder and the index document. */
export function writeV02Site(
  skills: Record<string, SkillPlan>,
  site = tempDir(),
): { site: string; index: { $schema: string; skills: Record<string, unknown>[] } } {
  const entries = [];
  for (const [dir, plan] of Object.entries(skills).sort(([a], [b]) => a < b ? -1 : 1)) {
    const { name, description } = frontmatter(plan.files["SKILL.md"]);
    const single = Object.keys(plan.files).length === 1;
    const rel = single ? `${dir}/SKILL.md` : `${dir}.${plan.archive ?? "tar.gz"}`;
    const bytes = single
      ? new TextEncoder().encode(plan.files["SKILL.md"])
      : archiveOf(plan.files, plan.archive ?? "tar.gz");
    makeTree({ [`${V02_DIR.slice(1)}/${rel}`]: bytes }, site);
    entries.push({
      name,
      type: single ? "skill-md" : "archive",
      description,
      url: urlOf(rel, plan),
      digest: hex(bytes),
    });
  }
  const index = { $schema: SCHEMA_V02, skills: entries };
  makeTree({ [`${V02_DIR.slice(1)}/index.json`]: JSON.stringify(index, null, 2) }, site);
  return { site, index };
}

/** A v0.1 site: the index at `dir` (v0.1's own path by default), each file at `<name>/<path>`. */
export function writeV01Site(
  skills: Record<string, Record<string, string>>,
  dir = V01_DIR,
  site = tempDir(),
): string {
  const entries = [];
  for (const files of Object.values(skills)) {
    const { name, description } = frontmatter(files["SKILL.md"]);
    const paths = ["SKILL.md", ...Object.keys(files).filter((p) => p !== "SKILL.md").sort()];
    for (const p of paths) makeTree({ [`${dir.slice(1)}/${name}/${p}`]: files[p] }, site);
    entries.push({ name, description, files: paths });
  }
  makeTree({ [`${dir.slice(1)}/index.json`]: JSON.stringify({ skills: entries }) }, site);
  return site;
}
