/**
 * The one error boundary of every front end ([C-3], [C-7], [X-2]): the CLI's Worker and
 * warden, the MCP server's tools, prompts and resources turn whatever was thrown into the
 * same {@linkcode ErrorOutcome}. What it means is decided by the error's `code` (its
 * family), never by the words of its message; a value that is no {@linkcode SkillrtError}
 * — a Deno permission or operating-system error aside, which are explained — is an
 * internal failure: one line, marked as such, never its stack.
 *
 * @module
 */
import {
  type ErrorCode,
  type ErrorDetails,
  explainOsError,
  explainPermissionError,
  InternalError,
  SkillrtError,
} from "./errors.ts";

/** What every front end shows of a thrown value. */
export interface ErrorOutcome {
  /** The error of its family: the thrown one, an explained one, or an {@linkcode InternalError}. */
  readonly error: SkillrtError;
  /** Its family ([C-7]). */
  readonly code: ErrorCode;
  /** The exit code of [C-3]. */
  readonly exitCode: number;
  /** The message, one line. */
  readonly message: string;
  /** The extra fields of its `success:false` document. */
  readonly details: ErrorDetails;
  /** True for a failure of skillrt itself (no error of a family was thrown), never the user's input. */
  readonly internal: boolean;
}

/**
 * Turns any thrown value into its outcome. `rule` names the sandbox plan a permission error
 * is explained by (exit 3); without it a permission error is an internal failure.
 *
 * @example
 * ```ts
 * import { errorOutcome } from "./error_boundary.ts";
 * const outcome = errorOutcome(new TypeError("x is not a function"));
 * console.log(outcome.internal, outcome.message); // true "Unexpected error: x is not a function"
 * ```
 */
export function errorOutcome(thrown: unknown, rule?: string): ErrorOutcome {
  const error = familyError(rule === undefined ? thrown : explainPermissionError(thrown, rule));
  return {
    error,
    code: error.code,
    exitCode: error.exitCode,
    message: firstLine(error.message),
    details: error.details,
    internal: error instanceof InternalError,
  };
}

/** The error of a family for any thrown value. */
function familyError(thrown: unknown): SkillrtError {
  if (thrown instanceof SkillrtError) return thrown;
  const os = explainOsError(thrown);
  if (os) return os;
  return new InternalError(thrown instanceof Error ? thrown.message : String(thrown));
}

/** The first line of a message (a foreign error's message may go on, a stack after it). */
function firstLine(message: string): string {
  return message.split("\n")[0];
}

/** The `{"success":false,"error":…}` document of an outcome ([C-2]; MCP's tool errors too). */
export function failureDocument(outcome: ErrorOutcome): Record<string, unknown> {
  return { ...outcome.error.toJSON(), error: outcome.message };
}
