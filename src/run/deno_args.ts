/**
 * The `deno run` line of a Deno script ([RUN-2]): exactly the grant as `--allow-*` flags,
 * `--no-prompt`, and nothing discovered from the skill (`--no-config`, `--no-lock`).
 * Remote modules load only from the declared hosts (`--allow-import`), and not at all
 * when no network is declared (`--no-remote`). Pure.
 *
 * @module
 */
import type { Grant } from "./grant.ts";

/** The variables a Deno script may read: the sandbox's own, then the declared ones. */
export function denoEnvNames(grant: Grant): string[] {
  return [...new Set(["PATH", "HOME", "LANG", ...grant.env])];
}

/** The flags of `deno run` for `grant`, before the script. */
export function denoFlags(grant: Grant): string[] {
  const list = (xs: readonly string[]) => xs.join(",");
  const flags = ["--no-prompt", "--no-config", "--no-lock"];
  flags.push(`--allow-read=${list(grant.read)}`);
  if (grant.write.length) flags.push(`--allow-write=${list(grant.write)}`);
  if (grant.readOnly.length) flags.push(`--deny-write=${list(grant.readOnly)}`);
  if (grant.net === true) flags.push("--allow-net", "--allow-import");
  else if (grant.net.length) {
    flags.push(`--allow-net=${list(grant.net)}`, `--allow-import=${list(grant.net)}`);
  } else flags.push("--no-remote");
  flags.push(`--allow-env=${list(denoEnvNames(grant))}`);
  if (grant.run.length) flags.push(`--allow-run=${list(grant.run)}`);
  return flags;
}

/** The whole line: `deno run FLAGS SCRIPT ARGS…`, with `deno` the executable given. */
export function denoArgv(
  deno: string,
  grant: Grant,
  script: string,
  args: readonly string[],
): string[] {
  return [deno, "run", ...denoFlags(grant), script, ...args];
}
