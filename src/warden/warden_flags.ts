/**
 * The warden's own permission flags: the ceiling that each command's Worker is cut
 * down from. One source for `deno task skillrt`, `deno task demo` and `deno task
 * compile` (a test checks that deno.json agrees).
 *
 * @module
 */

/** Flags the warden runs with: it reads config, expands `${VAR}`, and grants Workers a subset. */
export const WARDEN_FLAGS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
  "--no-prompt",
];
