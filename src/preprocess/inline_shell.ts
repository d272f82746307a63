/**
 * Running one inline-shell command ([P-3], [P-4]): gated by the allow list and the
 * argument policies (`inline_command.ts`), run without a shell (or as `bash -c` when it
 * needs one and bash is allowed), in the skill folder, with stdin closed and a cleared
 * environment. The child leads its own process group (`detached`, i.e. setsid); its
 * output is read as a stream, at most {@linkcode OUTPUT_BYTE_LIMIT} bytes of each pipe,
 * and the whole group is killed as soon as a pipe passes that, at the timeout, and once
 * the command is done (so nothing it started in the background lives on). Every
 * failure becomes a marker in the text, never an exception.
 *
 * @module
 */
import { isPermissionError } from "../errors.ts";
import { blockedMarker, errorMarker, gateCommand } from "./inline_command.ts";
import { LOCAL_GROUPS, type ProcessGroups } from "./process_group.ts";
import type { VariableValues } from "./variables.ts";

export { blockedMarker, errorMarker, gateCommand };

/** Output longer than this is cut ([P-3]). */
export const MAX_OUTPUT_CHARS = 4000;

/**
 * Bytes read from each pipe at most: enough for {@linkcode MAX_OUTPUT_CHARS} characters
 * of up to 4 bytes and one more character, so reaching it always means a cut.
 */
export const OUTPUT_BYTE_LIMIT = MAX_OUTPUT_CHARS * 4 + 4;

/** How to run inline shell for one skill. */
export interface InlineShellOptions {
  /** The skill folder: the working directory of every command. */
  cwd: string;
  /** Program names that may run ([P-4]). */
  allow: readonly string[];
  /** Seconds before a command is killed. */
  timeoutSeconds: number;
  /** The environment the command gets (PATH, HOME, LANG, HERMES_SKILL_DIR, HERMES_SESSION_ID). */
  env: Record<string, string>;
  /** When set, nothing runs and every command becomes a blocked marker with this reason. */
  blocked?: string;
  /** Who kills the commands' process groups; this process ({@linkcode LOCAL_GROUPS}) when absent. */
  groups?: ProcessGroups;
}

/** Trims trailing newlines and cuts at {@linkcode MAX_OUTPUT_CHARS} characters. */
export function shapeOutput(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === "\n" || text[end - 1] === "\r")) end--;
  const trimmed = text.slice(0, end);
  return trimmed.length > MAX_OUTPUT_CHARS
    ? trimmed.slice(0, MAX_OUTPUT_CHARS) + "...[truncated]"
    : trimmed;
}

/** What was read from one pipe. */
export interface Captured {
  /** The bytes kept (at most the limit). */
  bytes: Uint8Array;
  /** True when the pipe had more than the limit. */
  overflow: boolean;
}

/** Reads a pipe keeping at most `limit` bytes; calls `onOverflow` and stops reading once it passes it. */
async function capture(
  stream: ReadableStream<Uint8Array>,
  onOverflow: () => void,
  readers: ReadableStreamDefaultReader<Uint8Array>[],
  limit: number,
): Promise<Captured> {
  const reader = stream.getReader();
  readers.push(reader);
  const kept = new Uint8Array(limit);
  let length = 0;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return { bytes: kept.subarray(0, length), overflow: false };
      const room = limit - length;
      kept.set(value.subarray(0, room), length);
      length += Math.min(room, value.length);
      if (value.length > room) {
        onOverflow();
        await reader.cancel().catch(() => {});
        return { bytes: kept, overflow: true };
      }
    }
  } catch {
    // The pipe was cancelled (timeout): what was read so far.
    return { bytes: kept.subarray(0, length), overflow: false };
  }
}

/** The text a finished command stands for: stdout, else stderr; cut when a pipe overflowed. */
function outputText(out: Captured, err: Captured): string {
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const stdout = decode(out.bytes);
  const chosen = stdout.trim() === "" ? err : out;
  const text = chosen === out ? stdout : decode(err.bytes);
  return chosen.overflow ? text.slice(0, MAX_OUTPUT_CHARS) + "...[truncated]" : shapeOutput(text);
}

/** Starts argv in its own process group, or returns the marker of why it could not start. */
function spawn(argv: string[], options: InlineShellOptions): Deno.ChildProcess | string {
  try {
    return new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: options.env,
      detached: true,
    }).spawn();
  } catch (error) {
    if (isPermissionError(error)) {
      return blockedMarker(`not permitted by the sandbox: run access to '${argv[0]}'`);
    }
    if (error instanceof Deno.errors.NotFound) return errorMarker(`program '${argv[0]}' not found`);
    return errorMarker(`${(error as Error).message.split("\n")[0]}`);
  }
}

/** How a supervised child ended: its pipes and status, or killed at the time limit. */
export type Supervised =
  | { timedOut: false; out: Captured; err: Captured; status: Deno.CommandStatus }
  | { timedOut: true; out: Captured; err: Captured };

/**
 * Watches a child that leads its own process group: reads each pipe up to `limit` bytes,
 * and kills the whole group (through `groups`) when a pipe passes it, at the timeout, and
 * once the child is done — so nothing it started in the background lives on.
 */
export async function superviseChild(
  child: Deno.ChildProcess,
  groups: ProcessGroups,
  timeoutSeconds: number,
  limit: number,
): Promise<Supervised> {
  groups.started(child.pid);
  const stop = () => {
    groups.kill(child.pid);
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutSeconds * 1000);
  });
  const pipes = Promise.all([
    capture(child.stdout, stop, readers, limit),
    capture(child.stderr, stop, readers, limit),
  ]);
  // Once the child is done its group goes too: a background job holding a pipe open
  // would otherwise keep the reads waiting until the timeout. What is in the pipes stays.
  const ended = child.status.then((status) => {
    stop();
    return status;
  });
  const result = await Promise.race([Promise.all([pipes, ended]), timeout]);
  clearTimeout(timer);
  stop();
  if (result === "timeout") {
    await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
    await child.status;
    const [out, err] = await pipes;
    return { timedOut: true, out, err };
  }
  const [[out, err], status] = result;
  return { timedOut: false, out, err, status };
}

/**
 * Runs argv as a child process (no shell). Deno's own permission check applies: a
 * program outside the Worker's run grant fails with `NotCapable`, reported as blocked.
 */
export async function runArgv(
  argv: string[],
  cmd: string,
  options: InlineShellOptions,
): Promise<string> {
  const child = spawn(argv, options);
  if (typeof child === "string") return child;
  const groups = options.groups ?? LOCAL_GROUPS;
  const result = await superviseChild(child, groups, options.timeoutSeconds, OUTPUT_BYTE_LIMIT);
  if (result.timedOut) return `[inline-shell timeout after ${options.timeoutSeconds}s: ${cmd}]`;
  const text = outputText(result.out, result.err);
  if (text === "" && !result.status.success) {
    return errorMarker(`exit code ${result.status.code}: ${cmd}`);
  }
  return text;
}

/** Runs one inline-shell command and returns its output or a marker; `values` fill its variables as data. */
export function runInlineShell(
  cmd: string,
  options: InlineShellOptions,
  values?: VariableValues,
): Promise<string> {
  if (options.blocked) return Promise.resolve(blockedMarker(options.blocked));
  const gate = gateCommand(cmd, options.allow, values);
  if ("marker" in gate) return Promise.resolve(gate.marker);
  return runArgv(
    gate.argv,
    cmd,
    gate.env ? { ...options, env: { ...options.env, ...gate.env } } : options,
  );
}
