/**
 * One run at a time in a work dir ([RUN-2]). A box keeps the work dir's `.git` and agents'
 * folders read-only, making an empty read-only folder where one is absent and removing it
 * when its script ends; a second box in the same work dir would bind that folder as
 * existing, and lose it — and with it its protection — when the first box removed it. So
 * every run (the CLI's, the library's, MCP's `skill_run`, in any process) takes its work
 * dir's turn first: an exclusive lock on a file in the local root, out of every script's
 * reach, held until its script and its box's clean-up are done. The kernel drops the lock
 * of a killed process: no lock is ever left behind.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { joinPath } from "../home/paths.ts";

/** The folder of the work dirs' lock files (in the local root: no script reaches it). */
export function turnsFolder(localRoot: string): string {
  return joinPath(localRoot, ".run_turns");
}

/** The lock file of one work dir (named by the sha256 of its real path). */
export function turnFile(localRoot: string, workDir: string): string {
  return joinPath(turnsFolder(localRoot), `${sha256Hex(workDir).slice(0, 32)}.lock`);
}

/**
 * Runs `fn` in the work dir's turn: waits while another run (of this process or another)
 * holds it.
 *
 * @example
 * ```ts
 * import { inWorkDirTurn } from "./work_dir_turns.ts";
 * const root = Deno.makeTempDirSync();
 * const answer = await inWorkDirTurn(root, "/work", () => "ran in its turn");
 * if (answer !== "ran in its turn") throw new Error(answer);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function inWorkDirTurn<T>(
  localRoot: string,
  workDir: string,
  fn: () => T | Promise<T>,
): Promise<T> {
  Deno.mkdirSync(turnsFolder(localRoot), { recursive: true });
  const file = Deno.openSync(turnFile(localRoot, workDir), { write: true, create: true });
  try {
    await file.lock(true);
    return await fn();
  } finally {
    file.close(); // closing the file drops its lock
  }
}
