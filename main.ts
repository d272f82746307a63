/**
 * The skillrt command line: the warden of. Run it with the flags of
 * `deno task skillrt` (see `src/sandbox/warden_flags.ts`); each command runs in a
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

/** The version printed by `--version`, from deno.json. */
export const VERSION: string = denoJson.version;

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let off = 0; off < bytes.length;) off += stream.writeSync(bytes.subarray(off));
}

if (import.meta.main) {
  const outcome = await runCli(Deno.args, VERSION);
  writeAll(Deno.stdout, outcome.stdout);
  writeAll(Deno.stderr, outcome.stderr);
  Deno.exit(outcome.exitCode);
}
