/**
 * The skillrt command line: the warden of. Run it with the flags of
 * `deno task skillrt` (see `src/warden/warden_flags.ts`); each command runs in a
 * Worker that holds only the permissions its plan names.
 *
 * @example
 * ```sh
 * deno task skillrt --home examples/home list --json
 * ```
 *
 * @module
 */
import denoJson from "./deno.json" with { type: "json" };
import { runCli } from "./src/cli/warden.ts";
import { writeAll } from "./src/worker/write_all.ts";

/** The version printed by `--version`, from deno.json. */
export const VERSION: string = denoJson.version;

if (import.meta.main) {
  const outcome = await runCli(Deno.args, VERSION, { writeStdout: true });
  writeAll(Deno.stdout, outcome.stdout);
  writeAll(Deno.stderr, outcome.stderr);
  Deno.exit(outcome.exitCode);
}
