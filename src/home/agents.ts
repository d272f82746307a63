/**
 * Other agents' skill folders ([H-5]): where Claude Code, Codex and the cross-agent
 * `.agents` convention keep their skills, in one table. Such folders are roots after the
 * external dirs when `skills.agents` or `--agent` names them, and skillrt never writes
 * them — except `hub install --agent NAME`, whose grant is that one agent's folder.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { joinPath } from "./paths.ts";

/** The agents whose skill folders skillrt knows. */
export const AGENT_NAMES: readonly string[] = ["claude", "codex", "agents"];

/** Where one agent keeps skills. */
export interface AgentConvention {
  /** Its name in `skills.agents` and `--agent`. */
  name: string;
  /** What people call it. */
  label: string;
  /** The user's folder, relative to the user's home directory. */
  user: string;
  /** The folder inside a trusted project, relative to the project root, when it has one. */
  project?: string;
}

/** The conventions, looked up for each agent (see the table in docs/configuration.md). */
export const AGENT_CONVENTIONS: readonly AgentConvention[] = [
  { name: "claude", label: "Claude Code", user: ".claude/skills", project: ".claude/skills" },
  { name: "codex", label: "Codex", user: ".codex/skills" },
  {
    name: "agents",
    label: "cross-agent (.agents)",
    user: ".agents/skills",
    project: ".agents/skills",
  },
];

/** skillrt's own skills folders inside a trusted project, relative to its root ([H-4]). */
export const PROJECT_SKILL_FOLDERS: readonly string[] = [".hermes/skills", ".agents/skills"];

/**
 * The top folders of every place, relative to a folder, where skillrt or a known agent
 * would find skills (and, for the agents, their settings): `.hermes`, `.agents`,
 * `.claude`, `.codex`. A script's work dir keeps them read-only ([RUN-2]).
 */
export function skillFolderTops(): string[] {
  const all = [
    ...PROJECT_SKILL_FOLDERS,
    ...AGENT_CONVENTIONS.flatMap((a) => [a.user, ...(a.project ? [a.project] : [])]),
  ];
  return [...new Set(all.map((p) => p.split("/")[0]))];
}

/** The convention of an agent, or undefined for a name skillrt does not know. */
export function agentConvention(name: string): AgentConvention | undefined {
  return AGENT_CONVENTIONS.find((a) => a.name === name);
}

/** The `source` of a record found in an agent's folder ([H-5]): `agent:<name>`. */
export function agentSource(name: string): `agent:${string}` {
  return `agent:${name}`;
}

/** The agent named by a record's `source`, or undefined when it is no agent folder. */
export function agentOfSource(source: string): string | undefined {
  return source.startsWith("agent:") ? source.slice("agent:".length) : undefined;
}

/**
 * Checks the agent names of `--agent` (each may be a comma-separated list).
 * @throws {UsageError} for a name skillrt does not know (exit 2).
 */
export function checkAgentNames(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    if (!agentConvention(name)) {
      throw new UsageError(
        `Unknown agent '${name}'; use one of ${AGENT_NAMES.join(", ")}.`,
      );
    }
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** One agent skill folder on this machine (it may not exist). */
export interface AgentFolder {
  /** The agent. */
  agent: string;
  /** `user` (under the user's home) or `project` (inside the trusted project). */
  scope: "user" | "project";
  /** The folder, absolute (as written, not resolved). */
  path: string;
}

/**
 * Every folder of every known agent: the user's (when the user's home is known) and the
 * project's (when a trusted project root is given), in the table's order, user first.
 */
export function agentFolders(userHome: string | undefined, project: string | null): AgentFolder[] {
  const out: AgentFolder[] = [];
  for (const a of AGENT_CONVENTIONS) {
    if (userHome?.startsWith("/")) {
      out.push({ agent: a.name, scope: "user", path: joinPath(userHome, a.user) });
    }
    if (project && a.project) {
      out.push({ agent: a.name, scope: "project", path: joinPath(project, a.project) });
    }
  }
  return out;
}
