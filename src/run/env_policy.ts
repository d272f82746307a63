/**
 * Which environment names a skill's script may be given from the user's environment
 * ([RUN-1]): one call, {@linkcode envNameRefusal}, so that the home's env-name policy can
 * take its place when it lands. Refused: names that are not names, the ones the sandbox
 * sets itself, and names that make a loader, shell or interpreter run code of their own
 * choosing (a script could otherwise widen its own sandbox). Pure.
 *
 * @module
 */
import { isEnvName } from "../preprocess/env_access.ts";

/** Set by the sandbox itself: never taken from the user's environment. */
export const SANDBOX_SET_NAMES: readonly string[] = ["PATH", "HOME", "LANG", "TMPDIR", "DENO_DIR"];

/** Prefixes and names that change what a loader, shell or interpreter runs. */
const CODE_CHANGING =
  /^(LD_|DYLD_|PYTHON|PERL5|PERLLIB|RUBY|NODE_|DENO_|BASH_|GIT_|GCONV_)|^(ENV|SHELLOPTS|PS4|PROMPT_COMMAND|IFS|CDPATH|GLOBIGNORE|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|LOCPATH|NLSPATH|HOSTALIASES|RESOLV_HOST_CONF|MALLOC_CHECK_)$/;

/** Why `name` may not be passed to a script, or undefined when it may. */
export function envNameRefusal(name: string): string | undefined {
  if (!isEnvName(name)) return `'${name}' is not a valid variable name`;
  if (SANDBOX_SET_NAMES.includes(name)) return `${name} is set by the sandbox itself`;
  if (CODE_CHANGING.test(name)) {
    return `${name} changes what a loader, shell or interpreter runs`;
  }
  return undefined;
}
