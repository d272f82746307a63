/**
 * Errors that skillrt reports to its users: each carries the exit code of SPEC [C-3]
 * and the extra JSON fields the spec names (hints, matches, available names).
 *
 * @module
 */

/** Extra fields carried into the `success:false` JSON of an error. */
export type ErrorDetails = Record<string, unknown>;

/**
 * The stable code of every error, one per family ([C-7]): `not_found` (a skill, file or
 * plugin), `ambiguous` (a name several skills share), `invalid` (content or names that do
 * not validate), `usage` (the command line), `not_permitted` (the sandbox), `blocked` (the
 * hub's trust policy) and `failed` (anything else).
 */
export type ErrorCode =
  | "not_found"
  | "ambiguous"
  | "invalid"
  | "usage"
  | "not_permitted"
  | "blocked"
  | "failed";

/** An operation failed (not found, ambiguous, invalid, blocked): exit code 1. */
export class SkillrtError extends Error {
  /** The process exit code the CLI uses for this error. */
  readonly exitCode: number;
  /** Extra JSON fields, for example `hint`, `matches` or `available_skills`. */
  readonly details: ErrorDetails;
  /** The error's family ({@linkcode ErrorCode}); each family has its class. */
  readonly code: ErrorCode = "failed";

  /** Creates an error with a one-line message, extra fields and an exit code. */
  constructor(message: string, details: ErrorDetails = {}, exitCode = 1) {
    super(message);
    this.name = "SkillrtError";
    this.details = details;
    this.exitCode = exitCode;
  }

  /** The `{"success":false,"error":…}` document of SPEC [C-2]. */
  toJSON(): Record<string, unknown> {
    return { success: false, error: this.message, ...this.details };
  }
}

/** A skill, a file in a skill or a plugin that is not there: exit 1. */
export class NotFoundError extends SkillrtError {
  /** Always `not_found`. */
  override readonly code: ErrorCode = "not_found";
  /** `NotFoundError`. */
  override name = "NotFoundError";
}

/** A name several skills of one root share ([R-3]): exit 1. */
export class AmbiguousError extends SkillrtError {
  /** Always `ambiguous`. */
  override readonly code: ErrorCode = "ambiguous";
  /** `AmbiguousError`. */
  override name = "AmbiguousError";
}

/** Content, a name or a path that does not validate ([M-2]): exit 1. */
export class ValidationError extends SkillrtError {
  /** Always `invalid`. */
  override readonly code: ErrorCode = "invalid";
  /** `ValidationError`. */
  override name = "ValidationError";
}

/** An install the hub's trust policy blocked ([HUB-5]): exit 1. */
export class HubBlockedError extends SkillrtError {
  /** Always `blocked`. */
  override readonly code: ErrorCode = "blocked";
  /** `HubBlockedError`. */
  override name = "HubBlockedError";
}

/** The command line was wrong (unknown command or option, missing argument): exit 2. */
export class UsageError extends SkillrtError {
  /** Always `usage`. */
  override readonly code: ErrorCode = "usage";
  /**
   * Creates a usage error; `usage` is the command's usage line, shown after it, `details`
   * further fields of its JSON (for example the skills to choose from).
   */
  constructor(message: string, usage?: string, details: ErrorDetails = {}) {
    super(message, usage ? { ...details, usage } : details, 2);
    this.name = "UsageError";
  }
}

/** The sandbox refused an access the command attempted: exit 3 ([X-2]). */
export class NotPermittedError extends SkillrtError {
  /** Always `not_permitted`. */
  override readonly code: ErrorCode = "not_permitted";
  /** Creates the error from what was attempted and the sandbox rule that refused it. */
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details, 3);
    this.name = "NotPermittedError";
  }
}

/**
 * The user interrupted the command (Ctrl-C at a prompt or during a long step): exit 130,
 * as a shell reports SIGINT. The message says what was and was not changed.
 */
export class InterruptedError extends SkillrtError {
  /** True when no message was given: it says only "nothing was changed", for a caller to name what. */
  readonly unspecific: boolean;
  /** Creates the error; `message` says what was and was not changed. */
  constructor(message?: string) {
    super(message ?? "Interrupted; nothing was changed.", {}, 130);
    this.name = "InterruptedError";
    this.unspecific = message === undefined;
  }
}

/**
 * A failure of skillrt itself: something threw that is no error of a family (a bug, not the
 * user's input). Its message is the thrown one's first line after `Unexpected error:`,
 * never its stack; its family is `failed` (exit 1).
 */
export class InternalError extends SkillrtError {
  /** Creates the error from the thrown value's message. */
  constructor(message: string) {
    super(`Unexpected error: ${message.split("\n")[0]}`);
    this.name = "InternalError";
  }
}

const CLASSES: Record<ErrorCode, typeof SkillrtError> = {
  not_found: NotFoundError,
  ambiguous: AmbiguousError,
  invalid: ValidationError,
  blocked: HubBlockedError,
  failed: SkillrtError,
  usage: SkillrtError,
  not_permitted: SkillrtError,
};

/**
 * The error of a family again, from its code (after crossing the Worker boundary): the same
 * class, message, details and exit code.
 */
export function errorOfCode(
  code: string | undefined,
  message: string,
  details: ErrorDetails,
  exitCode: number,
): SkillrtError {
  if (code === "usage") {
    const { usage, ...rest } = details;
    return new UsageError(message, usage as string | undefined, rest);
  }
  if (code === "not_permitted") return new NotPermittedError(message, details);
  const Class = CLASSES[code as ErrorCode] ?? SkillrtError;
  return new Class(message, details, exitCode);
}

/** True for Deno's permission errors (`NotCapable`, and `PermissionDenied` from a prompt). */
export function isPermissionError(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable ||
    (error instanceof Deno.errors.PermissionDenied &&
      /Requires \w+ access/.test((error as Error).message));
}

const OS_VERBS: Record<string, string> = {
  readfile: "read",
  open: "open",
  stat: "read",
  lstat: "read",
  readdir: "read the folder",
  realpath: "resolve",
  mkdir: "create the folder",
  remove: "remove",
  rename: "move",
  copy: "copy",
  writefile: "write",
  readlink: "read the link",
  chmod: "change the mode of",
  symlink: "link",
};

/**
 * Turns an operating-system error (`No such file or directory (os error 2): readdir
 * '/x'`) into one line naming the path and the reason ([C-8]); undefined for anything else.
 */
export function explainOsError(error: unknown): SkillrtError | undefined {
  if (!(error instanceof Error) || error instanceof SkillrtError) return undefined;
  const m = /^(.+?) \(os error \d+\)(?:: (\w+) '([^']*)')?/.exec(error.message.split("\n")[0]);
  if (!m) return undefined;
  const reason = m[1].charAt(0).toLowerCase() + m[1].slice(1);
  if (!m[3]) return new SkillrtError(`${m[1]}.`);
  const verb = OS_VERBS[m[2].toLowerCase()] ?? m[2];
  return new SkillrtError(`Cannot ${verb} '${m[3]}': ${reason}.`, { path: m[3] });
}

/**
 * Turns Deno's permission error into a {@linkcode NotPermittedError} naming the access
 * and the sandbox rule ([X-2]); other errors are returned unchanged.
 */
export function explainPermissionError(error: unknown, rule: string): unknown {
  if (!isPermissionError(error)) return error;
  const m = /Requires (\w+) access to "?([^",]*)"?/.exec((error as Error).message);
  const kind = m?.[1] ?? "this";
  const target = m?.[2] ?? "";
  const what = target ? `${kind} access to "${target}"` : `${kind} access`;
  return new NotPermittedError(`Not permitted by the sandbox: ${what} (${rule}).`, {
    permission: kind,
    target,
    rule,
  });
}
