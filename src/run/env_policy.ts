/**
 * Which environment names a skill's script may be given from the user's environment
 * ([RUN-1]): the names the sandbox sets itself never, and every other name as the home's
 * one environment-name policy says (`src/preprocess/env_policy.ts`: no loader, shell,
 * interpreter or tool options, proxies, TLS trust, config locations, search paths, agents'
 * sockets, skillrt's own). Pure.
 *
 * @module
 */
import { envNamePolicy } from "../preprocess/env_policy.ts";

/** Set by the sandbox itself: never taken from the user's environment. */
export const SANDBOX_SET_NAMES: readonly string[] = ["PATH", "HOME", "LANG", "TMPDIR", "DENO_DIR"];

/** Why `name` may not be passed to a script, or undefined when it may. */
export function envNameRefusal(name: string): string | undefined {
  if (SANDBOX_SET_NAMES.includes(name.toUpperCase())) return `${name} is set by the sandbox itself`;
  const verdict = envNamePolicy(name);
  return verdict.allowed ? undefined : verdict.reason;
}
