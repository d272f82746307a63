/**
 * `deno task compile`: builds `dist/skillrt`, one executable holding the warden, the
 * sandbox Worker, the scan helper Worker and every component, with the warden's flags from
 * `src/warden/warden_flags.ts` (the same source as `deno task skillrt`).
 *
 * `deno compile` needs Deno's `denort` runtime. It downloads it unless `DENORT_BIN`
 * names a local copy; where neither works, this prints one line saying so and exits 1.
 *
 * @module
 */
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

/** The `deno compile` arguments for the single executable. */
export function compileArgs(output = "dist/skillrt"): string[] {
  return [
    "compile",
    ...WARDEN_FLAGS,
    "--unstable-worker-options",
    "--include",
    "src/cli/command_worker.ts",
    "--include",
    "src/cli/mcp_worker.ts",
    "--include",
    "src/scan/scan_helper.ts",
    "--include",
    "src/scan/watch_helper.ts",
    "--output",
    output,
    "main.ts",
  ];
}

if (import.meta.main) {
  const root = new URL("..", import.meta.url).pathname;
  const result = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(),
    cwd: root,
    stdout: "inherit",
    stderr: "piped",
  })
    .output();
  const stderr = new TextDecoder().decode(result.stderr);
  if (result.code === 0) {
    console.log(`Built ${root}dist/skillrt`);
    Deno.exit(0);
  }
  if (/denort|dl\.deno\.land|dns error|error sending request/i.test(stderr)) {
    console.error(
      `skillrt: cannot build dist/skillrt: deno compile needs Deno's denort runtime for Deno ${Deno.version.deno}, which could not be downloaded here (no network); set DENORT_BIN to a local denort binary or build on a machine with network access.`,
    );
  } else {
    console.error(
      `skillrt: deno compile failed: ${
        stderr.trim().split("\n").find((l) => l.trim()) ?? "no message"
      }`,
    );
  }
  Deno.exit(1);
}
