/**
 * Running one inline-shell command ([P-3], [P-4]): gated by the allow list, split into
 * argv and run without a shell (or as `bash -c` when it needs one and bash is allowed),
 * in the skill folder, with stdin closed, a cleared environment and a timeout that kills
 * the process. Every failure becomes a marker in the text, never an exception.
 *
 * @module
 */
import { isPermissionError } from "../errors.ts";
import { splitCommand } from "./shell_words.ts";

/** Output longer than this is cut ([P-3]). */
export const MAX_OUTPUT_CHARS = 4000;

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
}

/** The marker of a command that was not allowed to run. */
export function blockedMarker(reason: string): string {
  return `[inline-shell blocked: ${reason}]`;
}

/** The marker of a command that could not run or failed. */
export function errorMarker(reason: string): string {
  return `[inline-shell error: ${reason}]`;
}

/** Trims trailing newlines and cuts at {@linkcode MAX_OUTPUT_CHARS} characters. */
export function shapeOutput(text: string): string {
  const trimmed = text.replace(/[\r\n]+$/, "");
  return trimmed.length > MAX_OUTPUT_CHARS
    ? trimmed.slice(0, MAX_OUTPUT_CHARS) + "...[truncated]"
    : trimmed;
}

/** Decides how a command runs, or why it may not: pure, for tests and for {@linkcode runInlineShell}. */
export function gateCommand(
  cmd: string,
  allow: readonly string[],
): { argv: string[] } | { marker: string } {
  const split = splitCommand(cmd);
  if ("error" in split) return { marker: errorMarker(`${split.error} in: ${cmd}`) };
  if (split.shellSyntax) {
    if (!allow.includes("bash")) {
      return {
        marker: blockedMarker(`shell syntax needs 'bash' in skills.inline_shell_allow: ${cmd}`),
      };
    }
    return { argv: ["bash", "-c", cmd] };
  }
  const program = split.argv[0];
  if (program.includes("/") || program.includes("\\")) {
    return { marker: blockedMarker(`programs are named, not given as paths: '${program}'`) };
  }
  if (!allow.includes(program)) {
    return {
      marker: blockedMarker(
        `'${program}' is not in skills.inline_shell_allow (${allow.join(", ") || "empty"})`,
      ),
    };
  }
  return { argv: split.argv };
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
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: options.env,
    }).spawn();
  } catch (error) {
    if (isPermissionError(error)) {
      return blockedMarker(`not permitted by the sandbox: run access to '${argv[0]}'`);
    }
    if (error instanceof Deno.errors.NotFound) return errorMarker(`program '${argv[0]}' not found`);
    return errorMarker(`${(error as Error).message.split("\n")[0]}`);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutSeconds * 1000);
  });
  const result = await Promise.race([child.output(), timeout]);
  clearTimeout(timer);
  if (result === "timeout") {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    return `[inline-shell timeout after ${options.timeoutSeconds}s: ${cmd}]`;
  }
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const out = decode(result.stdout);
  const text = shapeOutput(out.trim() === "" ? decode(result.stderr) : out);
  if (text === "" && !result.success) return errorMarker(`exit code ${result.code}: ${cmd}`);
  return text;
}

/** Runs one inline-shell command and returns its output or a marker. */
export function runInlineShell(cmd: string, options: InlineShellOptions): Promise<string> {
  if (options.blocked) return Promise.resolve(blockedMarker(options.blocked));
  const gate = gateCommand(cmd, options.allow);
  if ("marker" in gate) return Promise.resolve(gate.marker);
  return runArgv(gate.argv, cmd, options);
}
