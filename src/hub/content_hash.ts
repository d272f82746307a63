/**
 * Hashing installed content ([HUB-3]): `content_hash` is `sha256:` + the hash over the sorted
 * (relative path, NUL, bytes) of every file, and each file's own hash is kept so `hub verify`
 * can say which files changed; and the vercel `skills` CLI's folder hash ([T-4]). What the
 * hashes are kept in is the lock document (`lockfile.ts`).
 *
 * @module
 */
import { Sha256, sha256Hex } from "../hash/sha256.ts";
import { ValidationError } from "../errors.ts";
import { joinPath } from "../home/paths.ts";
import { installFolder, type LockRecord } from "./lockfile.ts";

/** Every file below a folder (relative paths, sorted), not following links. */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(rel ? joinPath(dir, rel) : dir)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else if (e.isFile) out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/** The content hash and per-file hashes of a folder. */
export function hashFolder(dir: string): Pick<LockRecord, "content_hash" | "files"> {
  const total = new Sha256();
  const files: Record<string, string> = {};
  for (const path of filesBelow(dir)) {
    const bytes = Deno.readFileSync(joinPath(dir, path));
    total.update(path);
    total.update(new Uint8Array([0]));
    total.update(bytes);
    files[path] = sha256Hex(bytes);
  }
  return { content_hash: `sha256:${total.hex()}`, files };
}

/**
 * The hashes of an installed skill's folder ({@linkcode hashFolder}), reached without a
 * link on the way ({@linkcode installFolder}) and not itself a link: what `hub verify`
 * and `hub check` report of a folder a link points at would list and hash files outside
 * the root ([S-9]).
 * @throws {ValidationError} when the folder is a link or reached through one; a missing
 * folder throws as reading it does.
 */
export function installedHash(
  root: string,
  rel: string,
): { content_hash: string; files: Record<string, string> } {
  const folder = installFolder(root, rel);
  if (Deno.lstatSync(folder).isSymlink) {
    throw new ValidationError(`'${folder}' is a symbolic link, not an installed folder.`);
  }
  return hashFolder(folder);
}

/**
 * The vercel `skills` CLI's folder hash (its `skills-lock.json` `computedHash`), so a
 * project that commits that file restores from it ([T-4]): SHA-256 over every regular
 * file below the folder but `.git` and `node_modules`, in locale order of the relative
 * path, each fed as its path and then its bytes, written as hex.
 */
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
