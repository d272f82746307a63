/**
 * The folder a hub command works in: the local root, or with `--agent NAME` that agent's
 * own skill folder ([HUB-8], [H-5]) — its skills, and its own `.hub/` (lock, audit log,
 * quarantine) beside them, so an install there is as self-contained as one in the home.
 *
 * @module
 */
import { agentConvention, agentOfSource } from "../home/agents.ts";
import { UsageError } from "../errors.ts";
import { basename, dirname, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";

/** Where a hub command installs and keeps its records. */
export interface HubRoot {
  /** The folder, absolute (its real path when it exists). */
  root: string;
  /** The agent whose folder it is; undefined for the local root. */
  agent?: string;
}

/** The real path of `path`, or of its parent joined with its name when it does not exist yet. */
function realOrParent(path: string): string {
  const real = realPathOrUndefined(path);
  if (real) return real;
  const parent = realPathOrUndefined(dirname(path));
  return parent ? joinPath(parent, basename(path)) : path;
}

/**
 * The hub root of a setup: the agent named by `--agent` (at most one for a hub command),
 * else the local root.
 * @throws {UsageError} when `--agent` names more than one agent, or the user's home is unknown.
 */
export function hubRoot(setup: HomeLayout): HubRoot {
  const agents = setup.agentOptions;
  if (agents.length === 0) return { root: setup.localRoot };
  if (agents.length > 1) {
    throw new UsageError(
      `A hub command works in one agent's folder; --agent names ${agents.join(", ")}.`,
    );
  }
  const agent = agents[0];
  const folder = setup.agentFolders.find((f) => f.agent === agent && f.scope === "user");
  if (!folder || !agentConvention(agent)) {
    throw new UsageError(
      `Cannot tell where agent '${agent}' keeps its skills: HOME is not set to an absolute path.`,
    );
  }
  return { root: folder.real ?? realOrParent(folder.path), agent };
}

/** The folders skillrt only reads ([H-5]): every known agent folder that is no other kind of root. */
export function readOnlyFolders(setup: HomeLayout): string[] {
  const own = new Set(
    [
      setup.localRoot,
      ...setup.roots.filter((r) => !r.source.startsWith("agent:")).map((r) => r.path),
    ],
  );
  return setup.agentFolders.flatMap((f) => [f.path, ...(f.real ? [f.real] : [])])
    .filter((p) => !own.has(p) && !own.has(realPathOrUndefined(p) ?? p));
}

/**
 * The folder whose hub lock says how far a skill is trusted: its agent folder for a skill
 * of an agent's folder (`hub install --agent` keeps that folder's own lock, [HUB-8]),
 * else the local root.
 */
export function lockRootOf(setup: HomeLayout, record: { source: string; root: string }): string {
  return agentOfSource(record.source) !== undefined ? record.root : setup.localRoot;
}
