/**
 * What the warden hands a command: the parsed command line, as plain data that can be
 * posted to a Worker, and what a command hands back.
 *
 * @module
 */

/** The global options of [C-1]. */
export interface GlobalOptions {
  /** `--home DIR`. */
  home?: string;
  /** `--json`: one JSON document on stdout ([C-2]). */
  json: boolean;
  /**
   * The caller takes the typed result (the library's sandboxed runtime): the outcome carries
   * the document as `result`, an object posted back as it is, and no text.
   */
  typed?: boolean;
  /** `--platform P` (else `$HERMES_PLATFORM`). */
  platform?: string;
  /** `--platform P` as typed on the command line only (`enable`/`disable` edit that platform's list). */
  platformOption?: string;
  /** `--session-id ID`. */
  sessionId?: string;
  /** `--toolsets a,b`. */
  toolsets?: string[];
  /** `--tools x,y`. */
  tools?: string[];
  /** `--agent claude,codex` (repeatable): agent skill folders to read ([H-5]). */
  agents?: string[];
  /** Colours on: stdout is a terminal and neither `--no-color` nor `NO_COLOR`. */
  color: boolean;
}

/** One parsed command line. */
export interface CommandRequest {
  /** The command name (`list`, `view`, …). */
  command: string;
  /** Its positional arguments. */
  args: string[];
  /** Its own options. */
  options: Record<string, string | boolean | number | string[] | undefined>;
  /** The global options. */
  global: GlobalOptions;
}

/** What a command produced: the CLI prints it and exits with its code. */
export interface Outcome {
  /** Exit code of [C-3]. */
  exitCode: number;
  /** Text for stdout. */
  stdout: string;
  /** Text for stderr. */
  stderr: string;
  /** The error's family when the command failed ([C-7]), for the library across the Worker. */
  code?: string;
  /**
   * The typed result of a `typed` request: the document the command would print as JSON
   * (an error's with `success: false`), as an object, never its text.
   */
  result?: Record<string, unknown>;
}
