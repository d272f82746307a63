/**
 * Making a folder and removing a file or folder inside a skill ([M-3], [X-6], [S-9]) when
 * another process may swap a folder on the way for a link: Deno has no `mkdirat`,
 * `renameat` or `unlinkat`, and under a path grant it makes even a relative name absolute
 * again, so each step looks its path up anew. Every step is therefore done under a name
 * nobody else knows and proved afterwards by the one proof of reads and writes
 * (`src/files/proof.ts`): a new folder is made under a random name and proved inside
 * before it takes its own; a file or folder to remove is first proved to be the one inside,
 * renamed aside within its folder, proved again at that name — only then deleted, by that
 * name, which nothing else has. What a swap led astray is put back (an outside file
 * renamed aside gets its name again) or removed (an empty folder of ours), by the unique
 * name, while the swap may still lead there.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { basename, dirname, isInside, joinPath } from "../home/paths.ts";
import { type Chain, chainTo, folderIdentity, identity, provedIdentity } from "../files/proof.ts";
import { linkRefusal, uniqueTempFor, whileHidden } from "./atomic.ts";

/**
 * Makes one missing folder `name` below `realBase`/`parts`: under a random name first,
 * proved inside (the folder it went in is the one that was there, and nothing above it
 * changed, or every look agrees), then renamed to its name and proved again; a folder of
 * ours that a swap led out is removed by its unique name.
 * @throws {SkillrtError} when the folder cannot be proved inside `realBase`.
 */
export function makeDirInside(realBase: string, parts: string[], name: string): void {
  const parent = [realBase, ...parts].join("/");
  const refusal = () => linkRefusal(joinPath(parent, name));
  const at = (leaf: string): Chain => ({ base: realBase, parts: [...parts, leaf] });
  const folder = folderIdentity(at(name));
  if (folder === undefined) throw refusal();
  const temp = basename(uniqueTempFor(joinPath(parent, name)));
  let since = Date.now();
  Deno.mkdirSync(joinPath(parent, temp));
  const ours = provedIdentity(at(temp), { since, exempt: folder });
  if (ours === undefined) {
    whileHidden(() => Deno.removeSync(joinPath(parent, temp))); // ours: empty, unique name
    throw refusal();
  }
  try {
    Deno.lstatSync(joinPath(parent, name));
    Deno.removeSync(joinPath(parent, temp)); // made meanwhile by someone else: theirs stays
    return;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  since = Date.now();
  try {
    Deno.renameSync(joinPath(parent, temp), joinPath(parent, name));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    whileHidden(() => Deno.removeSync(joinPath(parent, temp))); // the swap hid the folder
    throw refusal();
  }
  if (provedIdentity(at(name), { since, exempt: folder }, ours) !== undefined) return;
  // The rename looks its two paths up apart: ours may have taken its name elsewhere.
  whileHidden(() => {
    const there = joinPath(parent, name);
    if (identity(Deno.lstatSync(there)) !== ours) throw new Deno.errors.NotFound(there);
    Deno.removeSync(there); // ours, still empty
  });
  throw refusal();
}

/**
 * Removes a file (or, `recursive`, a skill's or category's folder) whose folder lies
 * inside `within` (a real folder), never through a link and never anything outside: a
 * file is proved, renamed aside to a name nothing else has, and deleted by that name only
 * if that name holds the very file proved; whatever else a swap led the rename to move
 * gets its name back.
 * @throws {SkillrtError} when the entry or its folder cannot be proved inside.
 */
export function removeInside(path: string, within: string, recursive = false): void {
  const refusal = () =>
    new ValidationError(`Refusing to delete through a symbolic link: '${path}'.`);
  const parent = Deno.realPathSync(dirname(path));
  const name = basename(path);
  if (!isInside(within, parent)) throw refusal();
  const info = Deno.lstatSync(joinPath(parent, name)); // a missing entry: NotFound
  if (recursive) {
    // A skill's or category's folder: its parent is a root's, which nothing hostile can
    // swap (and the grant names the folder itself, not a name beside it). Deno removes a
    // tree without following the links in it.
    if (info.isSymlink) throw refusal();
    return Deno.removeSync(joinPath(parent, name), { recursive });
  }
  const proof = { leafMayLink: true, since: Date.now() };
  const entry = provedIdentity(chainTo(parent, name, within), proof);
  if (entry === undefined) throw refusal();
  const aside = joinPath(parent, basename(uniqueTempFor(joinPath(parent, name))));
  Deno.renameSync(joinPath(parent, name), aside);
  // The rename looks its two paths up apart; the name it gave is one entry's alone.
  let moved: string | undefined;
  whileHidden(() => moved = identity(Deno.lstatSync(aside)));
  if (moved === entry && whileHidden(() => Deno.removeSync(aside))) return;
  if (moved !== undefined && moved !== entry) putBack(aside, joinPath(parent, name));
  throw refusal();
}

/**
 * Gives an entry that a swap led the rename to move (an outside file) its name back: by a
 * hard link, which never replaces — so it cannot land where the name is still taken (the
 * skill's own entry holds it there), only where it was taken away — then drops the
 * unique name.
 */
function putBack(aside: string, home: string): void {
  const taken = (error: unknown) =>
    error instanceof Deno.errors.NotFound || error instanceof Deno.errors.AlreadyExists;
  if (whileHidden(() => Deno.linkSync(aside, home), taken)) {
    whileHidden(() => Deno.removeSync(aside));
  }
}
