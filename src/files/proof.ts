/**
 * The one proof that an opened file lies where a path says ([S-9]), used by every read of
 * skill content (`openInside`) and every write (`atomicWrite`): Deno has no `openat` and
 * no `O_NOFOLLOW` per component, and under a path grant it even turns a relative path
 * into an absolute one from the working directory, so every open, create and rename
 * looks each folder of its path up again. What holds is proved on the handle afterwards.
 *
 * A chain is a trusted real folder (its parents are not the skill's to change) and the
 * parts below it. The proof has two forms:
 *
 * - **Quiet** (sound): looked at bottom-up after the open, the last part is the handle's
 *   file (same device and inode), no part is a symbolic link, and no folder on the way
 *   (the base included) has had an entry added, removed or renamed since just before the
 *   open (its `ctime`, which no call can set back, is older — Deno gives it in whole
 *   seconds, so a folder changed in the last second or so counts as moving). Each folder is looked at after every look-up through
 *   it, and its parents after it, so every look-up of the path — the open's included —
 *   met these very folders: no swap can have happened in between.
 * - **Moving** (a folder on the way changed just now: a write a moment ago, or a swapper
 *   at work): {@linkcode MOVING_ROUNDS} rounds, each a top-down look and the folders again
 *   bottom-up, meeting the same folders and ending at the handle's file, so a swap must
 *   land twice a round between two consecutive `lstat`s, the right way round, again and
 *   again. A random pause before each round keeps the rounds from falling into step with
 *   a swapper's loop (they did: one try in some millions passed every round, when each
 *   round was one look without a pause).
 *
 * Neither form alone would do: Deno checks a handle's stat against the read grant by
 * resolving its path anew, so a handle of a file outside is stat'ed about one time in
 * twenty while a swapper works (`open_inside.ts` counts on that check only as a first
 * filter).
 *
 * @module
 */

/** A trusted real folder and the path below it, the last part the file. */
export interface Chain {
  /** The real folder the look starts from. */
  base: string;
  /** The parts below it, the last one the file. */
  parts: string[];
}

/**
 * The chain to an entry named `leaf` in the real folder `folder`, from `within` (a real
 * folder holding it) when given, else from `folder` itself.
 */
export function chainTo(folder: string, leaf: string, within?: string): Chain {
  if (within === undefined || within === folder) return { base: folder, parts: [leaf] };
  return { base: within, parts: [...folder.slice(within.length + 1).split("/"), leaf] };
}

/** Looks a folder in motion takes to prove a handle of content that is served or written. */
export const MOVING_ROUNDS = 16;

/**
 * How long before the open a change of a folder on the way still counts as "just now":
 * file system timestamps come from a coarse clock, a few milliseconds behind — and, in a
 * virtual machine whose processor the host holds back, for as long as it is held back.
 */
export const QUIET_SLACK_MS = 1000;

/** The precision of the `ctime` Deno 2 reports (whole seconds). */
const CTIME_GRAIN_MS = 1000;

/** The device and inode of a file, as one string. */
export function identity(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino}`;
}

/** The paths of a chain's parts, base first, the file last. */
function pathsOf(chain: Chain): string[] {
  const paths = [chain.base];
  for (const part of chain.parts) paths.push(`${paths[paths.length - 1]}/${part}`);
  return paths;
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * One top-down look: the identity of each part, or undefined as soon as a part is
 * missing or a symbolic link, or a part on the way is no folder.
 */
function lookDown(chain: Chain, leafMayLink = false): string[] | undefined {
  const seen: string[] = [];
  const paths = pathsOf(chain).slice(1);
  for (let i = 0; i < paths.length; i++) {
    const info = lstatOrUndefined(paths[i]);
    const leaf = i === paths.length - 1;
    if (!info || (info.isSymlink && !(leaf && leafMayLink)) || (!leaf && !info.isDirectory)) {
      return undefined;
    }
    seen.push(identity(info));
  }
  return seen;
}

/**
 * One round of the moving proof: a top-down look, then the folders on the way once more,
 * bottom-up, each still the one the look met — so that a swap must land twice in the
 * round, between two `lstat`s each time, the right way round.
 */
function lookRound(chain: Chain, leafMayLink: boolean): string[] | undefined {
  const seen = lookDown(chain, leafMayLink);
  if (seen === undefined) return undefined;
  const folders = pathsOf(chain).slice(1, -1);
  for (let i = folders.length - 1; i >= 0; i--) {
    const info = lstatOrUndefined(folders[i]);
    if (!info || info.isSymlink || !info.isDirectory || identity(info) !== seen[i]) {
      return undefined;
    }
  }
  return seen;
}

/** The longest {@linkcode pause} between two rounds, in spins of a few nanoseconds each. */
const PAUSE_SPINS = 4_000;
/** Where the pauses' spins go, so that no compiler drops them. */
let spun = 0;

/**
 * A pause of random length (up to some microseconds) before a round, so that the rounds
 * cannot keep step with a swapper working in a tight loop: each round then meets the
 * swapper at a moment of its own, and the rounds' chances multiply.
 */
export function pause(): void {
  let sum = 0;
  for (let i = Math.floor(Math.random() * PAUSE_SPINS); i > 0; i--) sum = (sum + i) | 0;
  spun ^= sum;
}

/**
 * `rounds` rounds (see {@linkcode lookRound}), a random {@linkcode pause} before each but
 * the first, each ending at `handle` through the folders the first one met.
 */
export function chainHolds(
  chain: Chain,
  handle: string,
  rounds: number,
  leafMayLink = false,
): boolean {
  const first = lookRound(chain, leafMayLink);
  if (first === undefined || first.at(-1) !== handle) return false;
  const expected = first.join("/");
  for (let round = 1; round < rounds; round++) {
    pause();
    if (lookRound(chain, leafMayLink)?.join("/") !== expected) return false;
  }
  return true;
}

/**
 * The latest time a folder's entries may have changed: its `ctime` (which no call can set
 * back, unlike `mtime`), which Deno gives in whole seconds — so the end of that second.
 */
function lastChange(info: Deno.FileInfo): number {
  const ctime = info.ctime?.getTime();
  return ctime === undefined ? Infinity : ctime + CTIME_GRAIN_MS;
}

/** What a bottom-up look found: proved, a folder changed just now, or not the file. */
export type Look = "proved" | "moving" | "failed";

/**
 * The bottom-up look of the quiet proof, and the identity of the last part it met (which
 * must be `expect` when given). `since` is the time (ms) just before the open, create or
 * rename; `exempt` names the folder (by its identity) whose entries this very write
 * changed, which must only be the same folder as before.
 */
function lookUp(chain: Chain, options: ProofOptions, expect?: string): { look: Look; id?: string } {
  const paths = pathsOf(chain);
  const last = lstatOrUndefined(paths[paths.length - 1]);
  if (!last || (last.isSymlink && !options.leafMayLink)) return { look: "failed" };
  const id = identity(last);
  if (expect !== undefined && id !== expect) return { look: "failed" };
  let moving = false;
  for (let i = paths.length - 2; i >= 0; i--) {
    // The base is trusted, as a path: its real folder is what counts.
    const info = i === 0 ? statOrUndefined(paths[i]) : lstatOrUndefined(paths[i]);
    if (!info || info.isSymlink || !info.isDirectory) return { look: "failed" };
    if (i === paths.length - 2 && options.exempt !== undefined) {
      if (identity(info) !== options.exempt) return { look: "failed" };
      continue;
    }
    if (lastChange(info) >= options.since - QUIET_SLACK_MS) moving = true;
  }
  return { look: moving ? "moving" : "proved", id };
}

/**
 * One bottom-up look of the quiet proof at `chain` for `handle`: "proved" (sound),
 * "moving" (it ended at the handle, but a folder on the way changed just now: look again),
 * or "failed".
 */
export function quietLook(chain: Chain, handle: string, since: number): Look {
  return lookUp(chain, { since }, handle).look;
}

/** How {@linkcode proveChain} proves a handle. */
export interface ProofOptions {
  /** The time (ms, `Date.now()`) taken just before the file was opened, created or moved. */
  since: number;
  /** Top-down looks when a folder on the way is in motion (default {@linkcode MOVING_ROUNDS}). */
  rounds?: number;
  /** The identity of the file's folder when this write itself changed its entries. */
  exempt?: string;
  /** The last part may itself be a symbolic link (a link that is removed, not followed). */
  leafMayLink?: boolean;
}

/**
 * Proves that `handle` (the identity of an opened file) is the last part of `chain`: by
 * the quiet proof, else (a folder on the way changed just now) by `rounds` looks.
 */
export function proveChain(chain: Chain, handle: string, options: ProofOptions): boolean {
  return provedIdentity(chain, options, handle) !== undefined;
}

/**
 * The identity of what lies at the end of `chain`, proved as {@linkcode proveChain}
 * proves a handle (and equal to `expect` when given); undefined when it cannot be.
 */
export function provedIdentity(
  chain: Chain,
  options: ProofOptions,
  expect?: string,
): string | undefined {
  const { look, id } = lookUp(chain, options, expect);
  if (look === "proved" || id === undefined) return id;
  if (look === "failed") return undefined;
  const rounds = Math.max(1, options.rounds ?? MOVING_ROUNDS);
  return chainHolds(chain, id, rounds, options.leafMayLink) ? id : undefined;
}

/** The identity of the folder `chain` ends in (its parts but the last), by one top-down look. */
export function folderIdentity(chain: Chain): string | undefined {
  const folder = { base: chain.base, parts: chain.parts.slice(0, -1) };
  if (folder.parts.length === 0) {
    const info = statOrUndefined(chain.base);
    return info?.isDirectory ? identity(info) : undefined;
  }
  return lookDown(folder)?.at(-1);
}
