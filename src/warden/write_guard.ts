/**
 * The fence around every write grant ([X-6]): a plan may write only below the home, inside
 * a root, or inside an output the user named on the command line (`hub publish --out
 * SITE`, `hub keygen --out KEYFILE`), never in another agent's skill folder ([H-5]) but
 * the one `hub install --agent NAME` names, and never `/`, the user's home directory, the
 * skillrt home itself, or any folder above a root or the home. A plan that breaks the
 * rule is refused (exit 3) before any Worker holds it — fail closed, whatever computed
 * the targets. Pure: paths in, a verdict out.
 *
 * @module
 */
import { NotPermittedError } from "../errors.ts";
import { basename, dirname, isInside, joinPath, normalizePath } from "../home/paths.ts";
import { lockedWritePaths } from "../manage/mutex.ts";
import type { HomeLayout } from "../home/layout.ts";
import { readOnlyFolders } from "../hub/hub_root.ts";

/** The folders a write may never be granted on, and the folders writes must stay in. */
export interface WriteFence {
  /** Never granted as such: `/`, the user's home directory, the skillrt home. */
  forbidden: string[];
  /** The roots: no grant may contain one (a root itself may be granted, e.g. to `mcp`). */
  roots: string[];
  /** The skillrt home (real and as written): grants strictly below it are allowed. */
  homes: string[];
  /** Outputs the user named explicitly: grants at or below them are allowed. */
  outputs: string[];
  /** Other agents' skill folders ([H-5]): never granted, nor anything in them … */
  readOnly: string[];
  /** … except the one agent folder `hub install --agent NAME` installs into. */
  agentTarget: string[];
}

/**
 * The fence of a setup: computed from paths only. `outputs` are the outputs the user
 * named on the command line; each is admitted only when it is itself a safe grant (not
 * forbidden, containing no root and not the home or above it — checked as written and
 * as its real path).
 */
export function writeFence(
  setup: HomeLayout,
  realPath: (p: string) => string | undefined,
  outputs: readonly string[] = [],
  agentTarget?: string,
): WriteFence {
  const both = (p: string | undefined) => (p ? [p, realPath(p) ?? p] : []);
  const homes = both(setup.home);
  const fence: WriteFence = {
    forbidden: ["/", ...both(setup.host.userHome), ...homes],
    roots: [
      setup.localRoot,
      ...setup.roots.map((r) => r.path),
      ...setup.plugins.map((p) => p.path),
    ].flatMap(both),
    homes,
    outputs: [],
    readOnly: readOnlyFolders(setup).flatMap(both),
    agentTarget: [],
  };
  const admissible = (o: string) =>
    both(o).every((p) =>
      unsafeWrite(p, { ...fence, homes: [], outputs: [p], readOnly: [] }) === undefined &&
      !fence.forbidden.some((f) => isInside(p, f))
    );
  fence.outputs = outputs.filter(admissible);
  if (agentTarget !== undefined && admissible(agentTarget)) fence.agentTarget = both(agentTarget);
  return fence;
}

/** Why a write grant of `path` is refused, or undefined when it is allowed. */
export function unsafeWrite(path: string, fence: WriteFence): string | undefined {
  if (
    !path.startsWith("/") || normalizePath(path) !== path || (path.endsWith("/") && path !== "/")
  ) {
    return "it is not an absolute, normal path";
  }
  if (fence.forbidden.includes(path)) return "no command may write it as a whole";
  const root = fence.roots.find((r) => r !== path && isInside(path, r));
  if (root !== undefined) return `it contains the skills folder '${root}'`;
  const target = fence.agentTarget.some((t) => isInside(t, path));
  const agent = fence.readOnly.find((r) => isInside(r, path) || isInside(path, r));
  const inOwnHome = fence.homes.some((h) => isInside(h, path)); // a home kept inside an agent's folder
  if (agent !== undefined && !target && !inOwnHome) {
    const where = isInside(agent, path) ? "is in" : "contains";
    return `it ${where} the agent skills folder '${agent}', which skillrt only reads`;
  }
  const inHome = fence.homes.some((h) => h !== path && isInside(h, path));
  const named = fence.outputs.some((o) => isInside(o, path));
  if (!inHome && !named && !target && !fence.roots.some((r) => isInside(r, path))) {
    return "it is outside the home, every skills folder and every output named on the command line";
  }
  return undefined;
}

/**
 * The user's own files ([H-2], [V-9]): config.yaml and `<home>/.env` with their temporary
 * and lock files, as written and as real paths. Only the commands the user runs to change
 * them (their row says `userFiles`: enable, disable, setup) may be granted them — never MCP.
 */
export function userFiles(
  setup: HomeLayout,
  realPath: (p: string) => string | undefined,
): Set<string> {
  const files = [setup.configFile, joinPath(setup.home, ".env")];
  const paths = new Set<string>();
  for (const file of files) {
    const real = realPath(dirname(file));
    for (const p of lockedWritePaths(file)) {
      paths.add(p);
      if (real) paths.add(joinPath(real, basename(p)));
    }
  }
  return paths;
}

/** What the fence admits for one command besides the home and the roots. */
export interface FenceAdmits {
  /** Outputs the user named on the command line (see {@linkcode writeFence}). */
  outputs?: readonly string[];
  /** The agent folder `hub install --agent NAME` installs into. */
  agentTarget?: string;
  /** The command may write the user's own files ({@linkcode userFiles}). */
  userFiles?: boolean;
}

/**
 * Refuses a plan whose write list breaks the fence.
 * @throws {NotPermittedError} naming the first path refused and why (exit 3).
 */
export function checkWrites(
  command: string,
  writes: readonly string[],
  setup: HomeLayout,
  realPath: (p: string) => string | undefined,
  admits: FenceAdmits = {},
): void {
  const fence = writeFence(setup, realPath, admits.outputs, admits.agentTarget);
  const own = userFiles(setup, realPath);
  for (const path of writes) {
    const why = own.has(path) && admits.userFiles !== true
      ? "it is the user's own config.yaml or .env, which only enable, disable and setup write"
      : unsafeWrite(path, fence);
    if (why !== undefined) {
      throw new NotPermittedError(
        `Refusing the sandbox plan of '${command}': it would grant write access to '${path}', and ${why}.`,
        { permission: "write", target: path, rule: "[X-6] exact write targets only" },
      );
    }
  }
}
