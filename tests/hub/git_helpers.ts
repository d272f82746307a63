/**
 * Test helpers for real git repositories in temp folders ([HUB-1]).
 *
 * @module
 */
import { equal } from "node:assert/strict";

/** Runs git in `repo` with a fixed author, and asserts it succeeded. */
export function git(repo: string, ...args: string[]): void {
  const out = new Deno.Command("git", {
    args,
    cwd: repo,
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@e",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@e",
    },
  }).outputSync();
  equal(out.success, true, new TextDecoder().decode(out.stderr));
}

/** Makes `repo` a repository on branch `main` with everything in it committed. */
export function commitAll(repo: string, message = "v1"): void {
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", message);
}
