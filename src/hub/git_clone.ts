/**
 * Cloning a git source ([HUB-1], [IO-5]) with the `git` program: a branch or tag is a
 * shallow clone of it; a commit (`#<sha>`, 7 to 40 hex digits) is a clone without a
 * checkout and then a detached checkout of that commit — `git clone --branch` takes no
 * commit. Only ordinary transports (never `ext::`), no terminal prompt, no hooks. The
 * commit checked out is returned, for the lock to record.
 *
 * @module
 */
import { InterruptedError, SkillrtError } from "../errors.ts";
import { interruptSignal, runInterruptible, throwIfInterrupted } from "../interruption.ts";
import { progress } from "./progress.ts";

/** A ref that names a commit: 7 to 40 hex digits (a branch or tag so named is read as one). */
export const COMMIT = /^[0-9a-f]{7,40}$/i;

/** The environment of every git run: no prompt, only ordinary transports. */
const GIT_ENV = { GIT_TERMINAL_PROMPT: "0", GIT_ALLOW_PROTOCOL: "https:http:ssh:git:file" };

/**
 * Runs git with `args` (no hooks) in its own process group, which Ctrl-C ends with its
 * remote helper (`runInterruptible`); the output, or a refusal when git is not installed.
 */
async function runGit(args: string[]): Promise<Deno.CommandOutput> {
  try {
    return await runInterruptible("git", {
      args: ["-c", "core.hooksPath=/dev/null", ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: GIT_ENV,
    });
  } catch (error) {
    throwIfInterrupted();
    if (error instanceof Deno.errors.NotFound) {
      throw new SkillrtError("The git program is not installed.");
    }
    throw error;
  }
}

/** The last line git wrote to stderr. */
const lastLine = (out: Deno.CommandOutput) =>
  new TextDecoder().decode(out.stderr).trim().split("\n").pop() ?? "";

/** The clone's arguments: shallow at a branch or tag, or whole (no checkout) for a commit. */
function cloneArgs(url: string, ref: string | undefined, dir: string): string[] {
  const at = ref === undefined
    ? ["--depth", "1"]
    : COMMIT.test(ref)
    ? ["--no-checkout"]
    : ["--depth", "1", "--branch", ref];
  return ["clone", "--quiet", ...at, "--", url, dir];
}

/** Checks out the commit `sha` in the clone at `dir`; returns its full id. */
async function checkoutCommit(url: string, dir: string, sha: string): Promise<string> {
  const checkout = await runGit(["-C", dir, "checkout", "--quiet", "--detach", sha, "--"]);
  if (!checkout.success) {
    throw new SkillrtError(`git clone of '${url}' has no commit '${sha}': ${lastLine(checkout)}`);
  }
  return await headOf(dir);
}

/** The commit checked out at `dir`. */
async function headOf(dir: string): Promise<string> {
  const head = await runGit(["-C", dir, "rev-parse", "--verify", "HEAD"]);
  if (!head.success) throw new SkillrtError(`git rev-parse failed: ${lastLine(head)}`);
  return new TextDecoder().decode(head.stdout).trim();
}

/** Clones `url` at `ref` (a branch, tag or commit) into `dir`; returns the commit checked out. */
export async function gitClone(url: string, ref: string | undefined, dir: string): Promise<string> {
  const what = `Cloning ${url}${ref ? ` at ${ref}` : ""}`;
  progress(`${what}…`);
  let out: Deno.CommandOutput;
  try {
    out = await runGit(cloneArgs(url, ref, dir));
  } catch (error) {
    progress(`${what}: ${interruptSignal.aborted ? "interrupted" : "failed"}.`, true);
    throw error;
  }
  if (interruptSignal.aborted) {
    progress(`${what}: interrupted.`, true);
    throw new InterruptedError();
  }
  progress(`${what}: ${out.success ? "done" : "failed"}.`, true);
  if (!out.success) throw new SkillrtError(`git clone of '${url}' failed: ${lastLine(out)}`);
  return ref !== undefined && COMMIT.test(ref)
    ? await checkoutCommit(url, dir, ref)
    : await headOf(dir);
}
