/**
 * The record of one skill ([S-5]): name, description, category, tags and related
 * skills derived from its frontmatter and its place below the root. Pure: it takes
 * the fence the reader found and returns the record with its diagnostics.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { type Fence, firstProseLine } from "../frontmatter/fence.ts";
import { type Frontmatter, parseFrontmatter, stripQuotes } from "../frontmatter/parse.ts";
import { type FrontmatterProblem, frontmatterProblem } from "../frontmatter/problems.ts";
import { isMapping } from "../mapping.ts";
import { removeInvisible } from "../scanner/invisible.ts";
import { type Invocation, invocationOf } from "./invocation.ts";

/** Where a skill was found: its root's kind ([S-1]); `agent:<name>` for an agent's folder ([H-5]). */
export type SkillSource = "project" | "local" | "external" | "plugin" | `agent:${string}`;

/** One skill as the index knows it ([S-5]). */
export interface SkillRecord {
  /** The name an agent uses: frontmatter `name`, else the folder name (`ns:name` for plugins). */
  name: string;
  /** Frontmatter `description`, else the first prose line of the body. */
  description: string;
  /** First path segment when nested two deep, else `metadata.hermes.category`, else null. */
  category: string | null;
  /** Tags from `metadata.hermes.tags` or `tags`. */
  tags: string[];
  /** Related skills from `metadata.hermes.related_skills` or `related_skills`. */
  relatedSkills: string[];
  /** The skill folder relative to its root (`devops/docker`), or a flat skill's file. */
  path: string;
  /** The skill folder, absolute (for a flat skill, the folder holding the file). */
  skillDir: string;
  /** The SKILL.md (or flat `.md`) file, absolute. */
  file: string;
  /** The root it was found in. */
  root: string;
  /** The kind of that root. */
  source: SkillSource;
  /** The plugin namespace, for plugin skills. */
  namespace?: string;
  /** Its version, author and licence, when the frontmatter names them ([V-10]). */
  about: SkillAbout;
  /** Claude Code's invocation fields, when the frontmatter sets them ([IO-3]). */
  invocation: Invocation;
  /** The parsed frontmatter mapping. */
  frontmatter: Frontmatter;
  /** What was repaired or cut while reading it. */
  diagnostics: Diagnostic[];
}

/** A skill's version, author and licence ([V-10]); each present only when declared. */
export interface SkillAbout {
  /** `version`. */
  version?: string;
  /** `author`. */
  author?: string;
  /** `license`. */
  license?: string;
}

/** The keys of {@linkcode SkillAbout}. */
export const ABOUT_KEYS: readonly (keyof SkillAbout)[] = ["version", "author", "license"];

/**
 * Version, author and licence from a frontmatter: top level first (Hermes writes them
 * there), then `metadata.hermes.<key>`, then `metadata.<key>` (the Agent Skills form).
 * A number is written as text, a list of names joined with `, `, a mapping by its `name`.
 */
export function aboutOf(data: Frontmatter): SkillAbout {
  const metadata = isMapping(data.metadata) ? data.metadata : {};
  const hermes = hermesMetadata(data);
  const about: SkillAbout = {};
  for (const key of ABOUT_KEYS) {
    for (const holder of [data, hermes, metadata]) {
      const text = aboutText(holder[key]);
      if (text !== undefined) {
        about[key] = text;
        break;
      }
    }
  }
  return about;
}

function aboutText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const names = value.map(aboutText).filter((x): x is string => x !== undefined);
    return names.length ? names.join(", ") : undefined;
  }
  if (isMapping(value)) return aboutText(value.name);
  return undefined;
}

/** Names longer than this are cut ([S-5]). */
export const MAX_NAME = 64;
/** Descriptions longer than this are cut to 1021 characters + `...` ([S-5]). */
export const MAX_DESCRIPTION = 1024;

/** Where a skill file sits, for {@linkcode buildRecord}. */
export interface RecordPlace {
  /** The SKILL.md (or flat `.md`) file, absolute. */
  file: string;
  /** The skill folder, absolute. */
  dir: string;
  /** The skill folder (or flat file) relative to the root. */
  rel: string;
  /** The root. */
  root: string;
  /** The root's kind. */
  source: SkillSource;
  /** The plugin namespace, for plugin roots. */
  namespace?: string;
  /** The name used when the frontmatter has none (folder name, or flat file stem). */
  fallbackName: string;
  /** True for a flat `<name>.md` file, whose path parts count one less. */
  flat?: boolean;
}

/** What a head without a readable frontmatter block is told, by the fence's kind. */
const FENCE_PROBLEMS: Record<Exclude<Fence["kind"], "ok">, [FrontmatterProblem, string]> = {
  missing: ["frontmatter.missing", "File does not start with YAML frontmatter (---)."],
  too_large: ["frontmatter.too_large", "Frontmatter is larger than 64 KiB; it was not read."],
  unclosed: [
    "frontmatter.unclosed",
    "Frontmatter is not closed (no line '---' after the opening one).",
  ],
  incomplete: [
    "frontmatter.unclosed",
    "Frontmatter is not closed (no line '---' after the opening one).",
  ],
};

/** Reads the frontmatter of a fence into a mapping, with diagnostics for every problem. */
export function frontmatterOf(
  fence: Fence,
  file: string,
  invalidUtf8 = false,
): { data: Frontmatter; body: string; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (invalidUtf8) {
    diagnostics.push(
      diagnostic(
        "error",
        "file.invalid_utf8",
        "File is not valid UTF-8; invalid bytes were replaced.",
        { path: file },
      ),
    );
  }
  if (fence.kind === "ok") {
    const parsed = parseFrontmatter(fence.yaml, 2, file);
    return {
      data: parsed.data,
      body: fence.body,
      diagnostics: [...diagnostics, ...parsed.diagnostics],
    };
  }
  const [code, message] = FENCE_PROBLEMS[fence.kind];
  diagnostics.push(frontmatterProblem(code, message, { path: file, line: 1 }));
  return { data: {}, body: fence.kind === "missing" ? fence.body : "", diagnostics };
}

/** Builds the record of one skill from the fence found at its head. */
export function buildRecord(place: RecordPlace, fence: Fence, invalidUtf8 = false): SkillRecord {
  const { data, body, diagnostics } = frontmatterOf(fence, place.file, invalidUtf8);
  const hermes = hermesMetadata(data);
  const name = nameOf(data, place, diagnostics);
  const description = descriptionOf(data, body, place.file, diagnostics);
  const category = categoryOf(place, hermes);

  return {
    name,
    description,
    category,
    tags: listField(hermes.tags ?? data.tags),
    relatedSkills: listField(hermes.related_skills ?? data.related_skills),
    path: place.rel,
    skillDir: place.dir,
    file: place.file,
    root: place.root,
    source: place.source,
    ...(place.namespace ? { namespace: place.namespace } : {}),
    about: aboutOf(data),
    invocation: invocationOf(data),
    frontmatter: data,
    diagnostics,
  };
}

/** Frontmatter `name` (else the folder's), cut to its limit, with the plugin namespace. */
function nameOf(data: Frontmatter, place: RecordPlace, diagnostics: Diagnostic[]): string {
  const at = { path: place.file };
  let name = place.fallbackName;
  if (typeof data.name === "string" && data.name.trim() !== "") name = data.name.trim();
  else if (data.name !== undefined && data.name !== null && data.name !== "") {
    diagnostics.push(
      diagnostic(
        "warning",
        "name.not_string",
        "Frontmatter 'name' is not a string; the folder name is used.",
        at,
      ),
    );
  }
  if (name.length > MAX_NAME) {
    diagnostics.push(
      diagnostic(
        "warning",
        "name.too_long",
        `Name is ${name.length} characters; cut to ${MAX_NAME}.`,
        at,
      ),
    );
    name = name.slice(0, MAX_NAME);
  }
  return place.namespace ? `${place.namespace}:${name}` : name;
}

/** Frontmatter `description` (else the body's first prose line), cut to its limit. */
function descriptionOf(
  data: Frontmatter,
  body: string,
  file: string,
  diagnostics: Diagnostic[],
): string {
  const at = { path: file };
  let description = "";
  const d = data.description;
  if (typeof d === "string" || typeof d === "number" || typeof d === "boolean") {
    // The model reads descriptions in its list: no hidden text rides in one ([V-10]). Control
    // characters stay, for the terminal shows them ([X-7]).
    description = removeInvisible(String(d), true).trim();
  } else if (d !== undefined && d !== null) {
    diagnostics.push(
      diagnostic(
        "warning",
        "description.not_string",
        "Frontmatter 'description' is not text; the first body line is used.",
        at,
      ),
    );
  }
  if (description === "") description = removeInvisible(firstProseLine(body) ?? "", true);
  // Said once: a file whose frontmatter failed already has its diagnostic.
  if (description === "" && diagnostics.length === 0) {
    diagnostics.push(
      diagnostic("warning", "description.empty", "The skill has no description.", at),
    );
  }
  if (description.length > MAX_DESCRIPTION) {
    diagnostics.push(
      diagnostic(
        "warning",
        "description.too_long",
        `Description is ${description.length} characters; cut to ${MAX_DESCRIPTION}.`,
        at,
      ),
    );
    description = description.slice(0, MAX_DESCRIPTION - 3) + "...";
  }
  return description;
}

/** The top-level folder of a nested skill, else `metadata.hermes.category`, else none. */
function categoryOf(place: RecordPlace, hermes: Frontmatter): string | null {
  const parts = place.rel.split("/").length + (place.flat ? 0 : 1);
  if (parts >= 3) return place.rel.split("/")[0];
  if (typeof hermes.category === "string" && hermes.category.trim()) return hermes.category.trim();
  return null;
}

/** The `metadata.hermes` mapping of a frontmatter, or `{}`. */
export function hermesMetadata(data: Frontmatter): Frontmatter {
  const metadata = data.metadata;
  if (!isMapping(metadata)) return {};
  return isMapping(metadata.hermes) ? metadata.hermes : {};
}

/** A list field: a YAML list, or a string `"[a, b]"` or `"a, b"`; quotes stripped, empties dropped. */
export function listField(value: unknown): string[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === "string") {
    let s = value.trim();
    if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
    items = s.split(",");
  } else return [];
  return items
    .filter((x) => typeof x === "string" || typeof x === "number")
    .map((x) => stripQuotes(String(x).trim()).trim())
    .filter((x) => x !== "");
}
