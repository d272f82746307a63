/**
 * The vercel `skills` CLI's folder hash (its `skills-lock.json` `computedHash`), so a
 * project that commits that file restores from it ([T-4]): SHA-256 over every regular
 * file below the folder but `.git` and `node_modules`, in locale order of the relative
 * path, each fed as its path and then its bytes, written as hex.
 *
 * @module
 */
import { Sha256 } from "../hash/sha256.ts";
import { joinPath } from "../home/paths.ts";
import { filesBelow } from "./lockfile_write.ts";

/** The `computedHash` of the skill folder `dir`. */
export function skillsLockHash(dir: string): string {
  const paths = filesBelow(dir)
    .filter((path) => !path.split("/").some((p) => p === ".git" || p === "node_modules"))
    .sort((a, b) => a.localeCompare(b));
  const hash = new Sha256();
  for (const path of paths) {
    hash.update(path);
    hash.update(Deno.readFileSync(joinPath(dir, path)));
  }
  return hash.hex();
}
