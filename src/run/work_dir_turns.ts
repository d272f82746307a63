/**
 * Runs take turns in their work dirs ([RUN-2]). A box keeps the work dir's `.git` and
 * agents' folders (and those below it) read-only, making an empty read-only folder where
 * one is absent and removing it when its script ends; a second box whose work dir is the
 * same, holds it or lies in it would bind that folder as existing, and lose it — and with
 * it its protection — when the first box removed it. So every run (the CLI's, the
 * library's, MCP's `skill_run`, in any process, of any home) takes its work dir's turn
 * first: in one folder of lock files per user, out of every script's reach
 * ({@linkcode machineTurnsFolder}), a shared lock on the file of each folder above the work
 * dir and an exclusive one on the work dir's own, taken from `/` down (so no two runs wait
 * on each other), held until its script and its box's clean-up are done. Nested work dirs
 * exclude each other; siblings do not. The kernel drops the locks of a killed process: no
 * lock is ever left behind.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { dirname, isDirectory, joinPath, normalizePath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";

/**
 * The user's folder of turns, machine-wide: `$XDG_RUNTIME_DIR/skillrt-turns` when that
 * runtime folder is the user's own (owned by the owner of the user's home), mode 0700; else `~/.cache/skillrt/turns` in the user's
 * home (no script reaches either); undefined without a home.
 */
export function machineTurnsFolder(
  runtimeDir: string | undefined,
  userHome: string | undefined,
): string | undefined {
  if (runtimeDir?.startsWith("/")) {
    try {
      const info = Deno.statSync(runtimeDir);
      // The user, told without the `sys` permission: the owner of the user's home.
      const uid = userHome ? Deno.statSync(userHome).uid : undefined;
      if (info.isDirectory && info.uid === uid && (info.mode ?? 0) % 0o1000 === 0o700) {
        return joinPath(runtimeDir, "skillrt-turns");
      }
    } catch {
      // Not there: the home's cache.
    }
  }
  return userHome ? joinPath(userHome, ".cache", "skillrt", "turns") : undefined;
}

/**
 * The folder of turns a run of `setup` uses (with the machine's sandboxes `host`): the
 * one the warden found (`SandboxHost.turns`), else the user's home's, else (no home known)
 * the local root's `.run_turns`.
 */
export function turnsFolderOf(setup: HomeLayout, host = setup.host.sandbox): string {
  return host?.turns ?? machineTurnsFolder(undefined, setup.host.userHome) ??
    joinPath(setup.localRoot, ".run_turns");
}

/** The lock file of one folder (named by the sha256 of its real path). */
export function turnFile(folder: string, path: string): string {
  return joinPath(folder, `${sha256Hex(path).slice(0, 32)}.lock`);
}

/** `path` and every folder above it, from `/` down. */
function chainOf(path: string): string[] {
  const chain = [normalizePath(path)];
  while (dirname(chain[0]) !== chain[0]) chain.unshift(dirname(chain[0]));
  return chain;
}

/**
 * Runs `fn` in the work dir's turn (locks in `folder`, see the module doc): waits while a
 * run (of this process or another) holds the work dir, a folder above it or below it.
 *
 * @example
 * ```ts
 * import { inWorkDirTurn } from "./work_dir_turns.ts";
 * const folder = Deno.makeTempDirSync();
 * const answer = await inWorkDirTurn(folder, "/work", () => "ran in its turn");
 * if (answer !== "ran in its turn") throw new Error(answer);
 * Deno.removeSync(folder, { recursive: true });
 * ```
 */
export async function inWorkDirTurn<T>(
  folder: string,
  workDir: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  if (!isDirectory(folder)) Deno.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const chain = chainOf(workDir);
  const files: Deno.FsFile[] = [];
  try {
    for (const [i, path] of chain.entries()) {
      const file = Deno.openSync(turnFile(folder, path), { write: true, create: true });
      files.push(file);
      await file.lock(i === chain.length - 1);
    }
    return await fn();
  } finally {
    for (const file of files) file.close(); // closing a file drops its lock
  }
}
