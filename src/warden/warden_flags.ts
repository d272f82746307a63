/**
 * The warden's own permission flags: the ceiling that each command's Worker is cut
 * down from. One source for `deno task skillrt`, `deno task demo` and `deno task
 * compile` (a test checks that deno.json agrees).
 *
 * @module
 */

/**
 * Flags the warden runs with: it reads config, expands `${VAR}`, and grants Workers a
 * subset. The V8 flag caps each isolate's young generation (the warden, the command's
 * Worker and the scan helper each grew theirs to 16 MB semi-spaces): a cold `list` of
 * 10,000 skills peaks ~14 MB lower, at no measured cost in time ([PERF-4]).
 */
export const WARDEN_FLAGS: readonly string[] = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
  "--no-prompt",
  "--v8-flags=--max-semi-space-size=8",
];
