/**
 * Running a script's sandbox line ([RUN-2]): `deno` or `bwrap` started as the leader of
 * its own process group, its output read up to {@linkcode OUTPUT_LIMIT} bytes a pipe (then
 * the group is killed and a marker line ends the output), killed with everything it
 * started at the time limit, and once it is done; its exit code passed through. The
 * supervision is inline shell's (`superviseChild`): one way to run a child in skillrt.
 * Inside bubblewrap the script is also the last process of a pid namespace that dies
 * with bwrap (`--die-with-parent`), so a process that left the group ends too.
 *
 * @module
 */
import { superviseChild } from "../preprocess/inline_shell.ts";
import type { ProcessGroups } from "../preprocess/process_group.ts";

/** Bytes kept from each of stdout and stderr; more stops the script ([RUN-2]). */
export const OUTPUT_LIMIT = 1024 * 1024;

/** The line that ends output cut at the limit. */
export const CUT_MARKER =
  `\n[skillrt: output cut at ${OUTPUT_LIMIT} bytes; the script was stopped]\n`;

/** What to start and how. */
export interface SpawnSpec {
  /** The sandbox line: `deno run …` or `bwrap …`. */
  argv: readonly string[];
  /** The working directory (the work dir). */
  cwd: string;
  /** The whole environment of the started program. */
  env: Record<string, string>;
  /** Seconds before the whole tree is killed. */
  timeoutSeconds: number;
  /** `inherit`: the caller's stdin, fed through a pipe (the CLI); `null`: closed (MCP, the library by default). */
  stdin: "inherit" | "null";
  /** Who kills the process group (the warden, from a Worker). */
  groups: ProcessGroups;
}

/** How a script ended. */
export interface Spawned {
  /** Its exit code (128 + signal when killed; 124 at the time limit). */
  exitCode: number;
  /** Its stdout (cut at the limit, then the marker). */
  stdout: string;
  /** Its stderr (likewise). */
  stderr: string;
  /** True when it was killed at the time limit. */
  timedOut: boolean;
  /** True when its output was cut. */
  truncated: boolean;
}

/**
 * Copies this process's stdin into the script's pipe until either ends. The script never
 * holds the caller's descriptor: at a terminal that is the tty, open for writing too, and
 * a script writing to it would reach the screen past every filter (escapes that set the
 * clipboard, clear the screen, forge skillrt's lines).
 */
function feedStdin(to: WritableStream<Uint8Array>, ended: Promise<unknown>): void {
  const writer = to.getWriter();
  let done = false;
  const close = () => writer.close().catch(() => {}); // the script may have closed it
  ended.finally(() => {
    done = true;
    close();
  });
  (async () => {
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      const n = await Deno.stdin.read(buffer);
      if (n === null || done) break;
      await writer.write(buffer.slice(0, n));
    }
    await close();
  })().catch(() => {}); // the script ended, or stopped reading, mid-write
}

/** The exit code of a timed-out script, as `timeout(1)` has it. */
export const TIMEOUT_EXIT = 124;

/** Starts the line and waits for it; a program that cannot start is an error (thrown). */
export async function spawnScript(spec: SpawnSpec): Promise<Spawned> {
  const child = new Deno.Command(spec.argv[0], {
    args: spec.argv.slice(1),
    cwd: spec.cwd,
    stdin: spec.stdin === "inherit" ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: spec.env,
    detached: true,
  }).spawn();
  if (spec.stdin === "inherit") feedStdin(child.stdin, child.status);
  const result = await superviseChild(child, spec.groups, spec.timeoutSeconds, OUTPUT_LIMIT);
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const truncated = result.out.overflow || result.err.overflow;
  const stdout = decode(result.out.bytes) + (result.out.overflow ? CUT_MARKER : "");
  let stderr = decode(result.err.bytes) + (result.err.overflow ? CUT_MARKER : "");
  if (result.timedOut) {
    stderr +=
      `[skillrt: the script ran past its time limit of ${spec.timeoutSeconds}s and was killed]\n`;
    return { exitCode: TIMEOUT_EXIT, stdout, stderr, timedOut: true, truncated };
  }
  const { code, signal } = result.status;
  const exitCode = truncated && signal ? 1 : code;
  return { exitCode, stdout, stderr, timedOut: false, truncated };
}
