/**
 * Bundle management ([B-3]): `bundle create|edit|delete` prepared like the skill actions
 * of [M-1] — checked and computed without writing, then staged for approval or applied
 * under the bundle file's lock through the atomic writer. A bad slug is an error; a
 * member that names no skill is a warning (a bundle skips missing members, [B-2]).
 *
 * @module
 */
import { type Bundle, bundleSlug, loadBundles, parseBundle } from "../bundles/bundles.ts";
import { ValidationError } from "../errors.ts";
import { yamlScalar } from "../home/config_edit.ts";
import { existsHere, joinPath } from "../home/paths.ts";
import { resolveSkill } from "../resolve/resolve.ts";
import type { Catalog } from "../scan/catalog.ts";
import type { Actor } from "../usage/usage.ts";
import type { BundleAction, PreparedChange } from "./change.ts";
import { hasControlChar } from "./file_names.ts";

/** Most members a bundle may name. */
export const MAX_BUNDLE_SKILLS = 100;
/** Longest description or instruction, in characters. */
export const MAX_BUNDLE_TEXT = 4000;

/** The folder of a home's bundles ([B-1]). */
export function bundlesDir(home: string): string {
  return joinPath(home, "skill-bundles");
}

/** Throws unless `name` is a bundle slug ([B-1]): what `bundle create` writes is invoked by it. */
export function validateBundleName(name: unknown): string {
  if (typeof name !== "string" || name === "") {
    throw new ValidationError("Bundle name is required.");
  }
  const slug = bundleSlug(name);
  if (name.length > 64 || slug !== name || !/^[a-z0-9]/.test(name)) {
    const hint = slug && slug.length <= 64 && /^[a-z0-9]/.test(slug) ? `; use '${slug}'` : "";
    throw new ValidationError(
      `Invalid bundle name '${name}': a bundle name is a slug of at most 64 lowercase letters, digits and hyphens, starting with a letter or digit${hint}.`,
    );
  }
  return name;
}

function validateText(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ValidationError(`Bundle ${field} must be text.`);
  const text = value.trim();
  if (hasControlChar(text.replace(/[\n\t]/g, ""))) {
    throw new ValidationError(`Bundle ${field} contains control characters.`);
  }
  if (text.length > MAX_BUNDLE_TEXT) {
    throw new ValidationError(`Bundle ${field} exceeds ${MAX_BUNDLE_TEXT} characters.`);
  }
  return text === "" ? undefined : text;
}

/** Checks a member list: non-empty, at most {@linkcode MAX_BUNDLE_SKILLS}, plain names without duplicates. */
export function validateMembers(skills: unknown): string[] {
  if (!Array.isArray(skills) || skills.some((s) => typeof s !== "string")) {
    throw new ValidationError("Bundle skills must be a list of skill names.");
  }
  const members = skills.map((s: string) => s.trim()).filter((s) => s !== "");
  if (members.length === 0) {
    throw new ValidationError("A bundle needs at least one skill (--skills a,b).");
  }
  if (members.length > MAX_BUNDLE_SKILLS) {
    throw new ValidationError(`A bundle names at most ${MAX_BUNDLE_SKILLS} skills.`);
  }
  for (const m of members) {
    if (m.length > 200 || hasControlChar(m) || /[,\s]/.test(m)) {
      throw new ValidationError(`Invalid skill name in bundle: ${JSON.stringify(m)}.`);
    }
  }
  const twice = members.find((m, i) => members.indexOf(m) !== i);
  if (twice !== undefined) {
    throw new ValidationError(`Skill '${twice}' is named twice in the bundle.`);
  }
  return members;
}

/** The YAML text of a bundle file: texts double-quoted (JSON escapes are YAML escapes). */
export function bundleYaml(b: Omit<Bundle, "file">): string {
  const q = (s: string) => JSON.stringify(s);
  return [
    `name: ${yamlScalar(b.name)}`,
    `description: ${q(b.description)}`,
    "skills:",
    ...b.skills.map((s) => `  - ${yamlScalar(s)}`),
    ...(b.instruction !== undefined ? [`instruction: ${q(b.instruction)}`] : []),
    "",
  ].join("\n");
}

/** The members no skill answers to (a bundle skips them when invoked, [B-2]). */
function unknownMembers(members: string[], catalog: Catalog): string[] {
  return members.filter((m) => {
    try {
      resolveSkill(m, catalog);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * A bundle wins over a skill of its name when invoked ([B-2]): an agent may not create one
 * that would take a skill's place; the user is warned.
 */
function shadowCheck(
  name: string,
  actor: Actor | undefined,
  catalog: Catalog,
  notes: string[],
): void {
  try {
    resolveSkill(name, catalog);
  } catch {
    return; // No skill of that name.
  }
  if (actor === "agent") {
    throw new ValidationError(
      `A skill named '${name}' exists; a bundle of that name would take its place when invoked. Choose another name.`,
    );
  }
  notes.push(`A skill named '${name}' exists; invoking '${name}' will load this bundle instead.`);
}

function existing(home: string, name: string): Bundle | undefined {
  return loadBundles(home).bundles.find((b) => b.name === name);
}

function notFound(name: string): ValidationError {
  return new ValidationError(`Bundle '${name}' not found.`);
}

/** Checks a bundle action and computes its change ([B-3]); writes nothing. */
export function prepareBundle(
  action: BundleAction & { actor?: Actor },
  catalog: Catalog,
): PreparedChange {
  const home = catalog.setup.home;
  const dir = bundlesDir(home);
  const name = validateBundleName(action.name);
  const before = existing(home, name);
  if (action.action === "bundle-delete") {
    if (!before) throw notFound(name);
    return bundleChange(action, dir, before.file, readOrNull(before.file), null, [], {
      summary: `delete bundle '${name}'`,
    });
  }
  const notes: string[] = [];
  const { file, next } = action.action === "bundle-create"
    ? createdBundle(action, dir, name, before, catalog, notes)
    : editedBundle(action, name, before);
  const text = faithfulYaml(next, file, name);
  const missing = unknownMembers(next.skills, catalog);
  const warnings = [
    ...notes,
    ...missing.map((m) => `Skill '${m}' is not installed; the bundle skips it until it is.`),
  ];
  const verb = action.action === "bundle-create" ? "create" : "edit";
  return bundleChange(action, dir, file, readOrNull(file), text, warnings, {
    summary: `${verb} bundle '${name}' (${next.skills.length} skill${
      next.skills.length === 1 ? "" : "s"
    })`,
  });
}

/** A bundle and the file it goes to. */
type NextBundle = { file: string; next: Omit<Bundle, "file"> };

/** The bundle `bundle create` makes: a new file, its members checked, no skill shadowed. */
function createdBundle(
  action: Extract<BundleAction, { action: "bundle-create" }> & { actor?: Actor },
  dir: string,
  name: string,
  before: Bundle | undefined,
  catalog: Catalog,
  notes: string[],
): NextBundle {
  const description = validateText("description", action.description);
  const instruction = validateText("instruction", action.instruction);
  const file = joinPath(dir, `${name}.yaml`);
  const there = before?.file ?? (existsHere(file) ? file : undefined);
  if (there) throw new ValidationError(`A bundle named '${name}' already exists at ${there}.`);
  const skills = validateMembers(action.skills);
  shadowCheck(name, action.actor, catalog, notes);
  return {
    file,
    next: {
      name,
      description: description ?? `Load ${skills.length} skills as a bundle`,
      skills,
      ...(instruction !== undefined ? { instruction } : {}),
    },
  };
}

/** The bundle `bundle edit` leaves: what was given replaces, the rest is kept. */
function editedBundle(
  action: Extract<BundleAction, { action: "bundle-edit" }>,
  name: string,
  before: Bundle | undefined,
): NextBundle {
  const description = validateText("description", action.description);
  const instruction = validateText("instruction", action.instruction);
  if (!before) throw notFound(name);
  if (
    action.skills === undefined && action.description === undefined &&
    action.instruction === undefined
  ) {
    throw new ValidationError(
      "Nothing to change: give --skills, --description or --instruction.",
    );
  }
  const skills = action.skills === undefined ? before.skills : validateMembers(action.skills);
  const keptInstruction = action.instruction === undefined ? before.instruction : instruction;
  return {
    file: before.file,
    next: {
      name,
      description: description ?? before.description,
      skills,
      ...(keptInstruction !== undefined ? { instruction: keptInstruction } : {}),
    },
  };
}

/** The YAML of a bundle, refused unless it reads back as the same bundle. */
function faithfulYaml(next: Omit<Bundle, "file">, file: string, name: string): string {
  const text = bundleYaml(next);
  const check = parseBundle(text, file);
  if (
    !("skills" in check) ||
    JSON.stringify({ ...check, file: undefined }) !== JSON.stringify({ ...next, file: undefined })
  ) {
    throw new ValidationError(`Bundle '${name}' cannot be written faithfully as YAML.`);
  }
  return text;
}

function readOrNull(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function bundleChange(
  action: BundleAction,
  dir: string,
  file: string,
  before: string | null,
  after: string | null,
  warnings: string[],
  { summary }: { summary: string },
): PreparedChange {
  return {
    action,
    name: action.name,
    summary,
    root: dir,
    skillDir: dir,
    files: [{ path: file, rel: `skill-bundles/${file.split("/").pop()}`, before, after }],
    bundleFile: file,
    usage: "none",
    ...(warnings.length ? { warnings } : {}),
  };
}
