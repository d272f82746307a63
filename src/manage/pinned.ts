/**
 * Pinning a folder for a delete ([X-6], [S-9]): Deno has no `openat`/`unlinkat`, so a path
 * whose folders an attacker swaps for links between a check and an operation can lead a
 * delete elsewhere. When this thread may return to its working directory afterwards, the
 * process's working directory is moved into the folder once, the directory the kernel then
 * holds is proved to be inside the allowed folder (`getcwd` names the real place of that
 * directory, not the path used to get there), and the delete runs on a name relative to it
 * — pinned to that directory whatever happens to the paths above it. The CLI's warden
 * starts its Workers in the local root, which they may read, so they can always return.
 * Under a path grant (a sandbox Worker) Deno 2 makes the relative name absolute again
 * from the working directory's real path, so the pin holds only as long as that path
 * does: what is written is proved after the operation (`src/files/proof.ts`).
 *
 * @module
 */
import { isInside } from "../home/paths.ts";

/** The working directory to return to, when this thread may read it (else pinning is off). */
function returnPoint(): string | undefined {
  try {
    const here = Deno.cwd();
    return Deno.permissions.querySync({ name: "read", path: here }).state === "granted"
      ? here
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` with the working directory pinned to `dir`, once it is proved inside `within`
 * (a real path); `fn` gets the real place and must use names relative to it, without
 * awaiting. Returns undefined without running `fn` when pinning is not possible here (the
 * caller then uses its path-based way); throws `refusal()` when `dir` leads outside.
 */
export function inFolder<T>(
  dir: string,
  within: string,
  refusal: () => Error,
  fn: (here: string) => T,
): { value: T } | undefined {
  const back = returnPoint();
  if (back === undefined) return undefined;
  Deno.chdir(dir);
  try {
    const here = Deno.cwd();
    if (!isInside(within, here)) throw refusal();
    return { value: fn(here) };
  } finally {
    Deno.chdir(back);
  }
}
