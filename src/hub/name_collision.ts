/**
 * One skill per name across every root ([S-1], [HUB-2], [HUB-8]): an install that would
 * add a skill answering to a name a skill of any root already answers to (by its `name`,
 * its folder's name or a legacy flat file's name) is refused before the skill is moved
 * into place — compared as {@linkcode collisionKey}, after NFKC and case folding, so
 * `HELLO` or fullwidth `ｈｅｌｌｏ` is `hello`. Otherwise a stranger's copy would sit beside
 * the user's own and answer to its name. `--name` installs it under another name.
 *
 * Every install path (one skill, a collection's `--all`, `--skill` or terminal choice, a
 * well-known index, git, `--agent`) reaches this check through `installCandidate`.
 *
 * @module
 */
import { SkillrtError, ValidationError } from "../errors.ts";
import { basename, isFileHere, isInside } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { Catalog } from "../scan/catalog.ts";
import { collisionKey } from "../scan/name_key.ts";
import { declaredOf, setSkillName, skillFoldersOfDir } from "./collection.ts";

/** A name taken in a root: the skill (or flat file) answering to it. */
export interface Holder {
  /** The name it answers to. */
  name: string;
  /** Where it is. */
  where: string;
}

/** A name an install would add: the skill's own, or one of a skill inside it. */
export interface NewName {
  /** The name. */
  name: string;
  /** The skill's folder inside the installed one; undefined for the installed skill itself. */
  inside?: string;
}

/** The names a filled quarantine folder installs: its own, and those of the skills below it. */
export function namesInside(quarantine: string, name: string): NewName[] {
  const nested = skillFoldersOfDir(quarantine, undefined, true).folders.filter((f) => f !== "");
  return [
    { name },
    ...nested.map((inside) => ({
      name: declaredOf(Deno.readTextFileSync(`${quarantine}/${inside}/SKILL.md`), basename(inside))
        .name,
      inside,
    })),
  ];
}

/** Every name the skills of a setup's roots answer to, with where each is. */
function holdersOf(setup: HomeLayout): Holder[] {
  const catalog = new Catalog(setup);
  // Plugin skills are named `ns:skill`, a namespace of their own ([R-5]).
  return setup.roots.flatMap((root) => {
    const scanned = catalog.root(root);
    return [
      ...scanned.records.flatMap((r) =>
        [r.name, basename(r.skillDir)].map((name) => ({ name, where: r.skillDir }))
      ),
      ...scanned.flat.map((f) => ({ name: f.name, where: f.file })),
    ];
  });
}

/**
 * The names taken in a setup's roots, read once for a run of installs (a collection's
 * skills, one after another) and told of each skill the run installs: the roots are not
 * walked again for every skill, and a skill the run put in a root not listed yet (a new
 * home's first install) still counts.
 */
export class TakenNames {
  #setup: HomeLayout;
  #holders?: Holder[];

  /** The names taken in `setup`'s roots (read on first use). */
  constructor(setup: HomeLayout) {
    this.#setup = setup;
  }

  /** Every name taken, with where. */
  get holders(): readonly Holder[] {
    return this.#holders ??= holdersOf(this.#setup);
  }

  /** Counts the names of a skill just installed at `where` (and of the skills inside it). */
  add(names: NewName[], where: string): void {
    const holders = this.holders as Holder[];
    for (const n of names) {
      holders.push({ name: n.name, where: n.inside ? `${where}/${n.inside}` : where });
    }
  }
}

/** The first name taken that is one of `keys`, but none inside `replacing`. */
function holderOf(
  taken: TakenNames,
  keys: Map<string, NewName>,
  replacing?: string,
): { added: NewName; holder: Holder } | undefined {
  for (const holder of taken.holders) {
    if (replacing !== undefined && isInside(replacing, holder.where)) continue;
    const added = keys.get(collisionKey(holder.name));
    if (added !== undefined) return { added, holder };
  }
  return undefined;
}

/**
 * Refuses to install `skill` when a skill of any root already answers to one of the names
 * it adds; the skill being replaced (`replacing`, its folder) does not count.
 * @throws {SkillrtError} naming both, and how to install it under another name.
 */
export function refuseNameCollision(
  taken: TakenNames,
  skill: string,
  names: NewName[],
  replacing?: string,
): void {
  const keys = new Map(names.map((n) => [collisionKey(n.name), n]));
  const found = holderOf(taken, keys, replacing);
  if (found === undefined) return;
  const { added, holder } = found;
  const as = holder.name === added.name ? "" : ` (as '${holder.name}')`;
  throw new SkillrtError(
    added.inside === undefined
      ? `Refusing to install '${added.name}': the skill at ${holder.where} already answers to that name${as}; install it under another with --name.`
      : `Refusing to install '${skill}': the skill '${added.name}' inside it (at ${added.inside}) would share its name with the skill at ${holder.where}${as}.`,
  );
}

/**
 * Makes the SKILL.md of a filled quarantine answer to `name`, the name it installs under
 * (the slug form of its declared name, `--name`, an index entry's name: [HUB-8]), so the
 * name checked here is the one it is listed under. Returns the name it declared when that
 * was another (kept in the lock), else undefined; the file is left byte for byte then.
 */
export function installAs(quarantine: string, name: string): string | undefined {
  const file = `${quarantine}/SKILL.md`;
  if (!isFileHere(file)) {
    throw new ValidationError("Refusing to install: it holds no SKILL.md file.");
  }
  const declared = declaredOf(Deno.readTextFileSync(file), name).name;
  if (declared === name) return undefined;
  setSkillName(quarantine, name);
  return declared;
}

/**
 * Gives a filled quarantine's skill the name it installs under ({@linkcode installAs}) and
 * refuses it when a skill of a root answers to that name, or to a name of a skill inside
 * it, already ({@linkcode refuseNameCollision}; the skill at `replacing` does not count).
 * Returns the name it declared, when it declared another, and the names it adds (to tell
 * `taken` once it is installed).
 */
export function nameInstall(
  taken: TakenNames,
  quarantine: string,
  name: string,
  replacing?: string,
): { declared?: string; names: NewName[] } {
  const declared = installAs(quarantine, name);
  const names = namesInside(quarantine, name);
  refuseNameCollision(taken, name, names, replacing);
  return { declared, names };
}
