/**
 * `doctor` ([C-4]): roots (present, missing, unreadable), shadowed and ambiguous names,
 * frontmatter diagnostics, config problems, roots no file watcher can cover, the sandbox
 * plan, the hub lock, and what each skill still needs ([V-9]).
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isDirectory } from "../home/paths.ts";
import { readLock } from "../hub/lockfile.ts";
import { readUsage, usageFile } from "../usage/usage.ts";
import type { AgentFolderState, HomeLayout } from "../home/layout.ts";
import { agentConvention } from "../home/agents.ts";
import type { PermissionPlan } from "../warden/permission_plan.ts";
import type { SandboxHost } from "../run/host_kinds.ts";
import { entryFor, type SkillIndex } from "../scan/skill_index.ts";
import { hiddenCounts } from "../level0/list.ts";
import type { SkillReadiness } from "./readiness.ts";
import type { HiddenReason, VisibilityFacts } from "../level0/visibility.ts";

/** The document `doctor` prints. */
export interface DoctorReport {
  /** True when nothing is an error. */
  success: boolean;
  /** The home. */
  home: string;
  /** config.yaml and whether it exists. */
  config: { file: string; exists: boolean };
  /** Every root with its kind and status. */
  roots: {
    path: string;
    source: string;
    status: "present" | "missing" | "unreadable";
    skills: number;
  }[];
  /** Plugin skills folders. */
  plugins: { namespace: string; path: string; skills: number }[];
  /** Other agents' skill folders found on this machine, enabled or not ([H-5]). */
  agentFolders: { agent: string; scope: string; path: string; enabled: boolean }[];
  /** Skills that lose to a same-named skill in a higher root. */
  shadowed: { name: string; path: string; shadowed_by: string }[];
  /** Names used twice in one root. */
  ambiguous: { name: string; root: string; matches: string[] }[];
  /** Skills Level 0 hides, by reason, and in all ([L0-9]; `list --all` shows them). */
  hidden: Record<HiddenReason, number> & { total: number };
  /** Frontmatter, walk, config and hub findings. */
  diagnostics: Diagnostic[];
  /** The sandbox plan of `list`. */
  sandbox: PermissionPlan;
  /** Which sandboxes run skills' scripts here ([RUN-4]); null when the warden did not look. */
  scripts: ScriptSandboxes | null;
  /** The hub lock file's state. */
  hub: { lock: "absent" | "ok" | "unparseable"; installed: number };
  /** Skills that declare environment variables, programs or credential files, and what is missing ([V-9]). */
  readiness: SkillReadiness[];
  /** Counts by severity. */
  summary: { errors: number; warnings: number; info: number };
}

/** The sandboxes for skills' scripts on this machine ([RUN-4]). */
export interface ScriptSandboxes {
  /** How a Deno script runs: inside bubblewrap, under Deno alone, or not at all (no deno). */
  deno: "deno+bwrap" | "deno" | "unavailable";
  /** How any other script runs: under bubblewrap, or refused. */
  other: "bwrap" | "refused";
  /** The deno executable, when found. */
  denoPath: string | null;
  /** The bubblewrap executable, when usable. */
  bwrapPath: string | null;
  /** Why bubblewrap is not usable (with the install line), when it is not. */
  problem: string | null;
}

/** What the host's sandboxes mean for scripts. */
export function scriptSandboxes(host: SandboxHost | undefined): ScriptSandboxes | null {
  if (host === undefined) return null;
  const deno = host.deno === undefined ? "unavailable" : host.bwrap ? "deno+bwrap" : "deno";
  return {
    deno,
    other: host.bwrap ? "bwrap" : "refused",
    denoPath: host.deno ?? null,
    bwrapPath: host.bwrap ?? null,
    problem: host.bwrapProblem ?? null,
  };
}

/** Checks `<local root>/.hub/lock.json`: parses, and every installed path exists. */
export function checkHubLock(
  localRoot: string,
): { state: DoctorReport["hub"]; diagnostics: Diagnostic[] } {
  const lock = readLock(localRoot);
  if (lock.state === "absent") return { state: { lock: "absent", installed: 0 }, diagnostics: [] };
  if (lock.state === "unparseable") {
    return {
      state: { lock: "unparseable", installed: 0 },
      diagnostics: [
        diagnostic(
          "error",
          "hub.lock_unparseable",
          `Hub lock file does not parse (${lock.error}).`,
          { path: lock.file },
        ),
      ],
    };
  }
  const diagnostics = lock.entries
    .filter((e) => !e.dir || !isDirectory(e.dir))
    .map((e) =>
      diagnostic(
        "error",
        "hub.lock_orphan",
        `Hub skill '${e.name}' is in the lock file but its folder is missing.`,
        {
          path: e.dir || lock.file,
        },
      )
    );
  return { state: { lock: "ok", installed: lock.entries.length }, diagnostics };
}

/** The note for an agent skill folder that exists but is not read ([H-5]). */
function notEnabled(folder: AgentFolderState): Diagnostic {
  const label = agentConvention(folder.agent)?.label ?? folder.agent;
  return diagnostic(
    "info",
    "agent.not_enabled",
    `The ${label} skill folder is not enabled; add '${folder.agent}' to skills.agents in config.yaml (or pass --agent ${folder.agent}) to read its skills.`,
    { path: folder.path },
  );
}

/**
 * One warning per root a file watcher cannot cover ([PERF-5]): long-lived processes
 * re-check that root by modification times on every call instead.
 */
export function watchDiagnostics(roots: { root: string; reason: string }[]): Diagnostic[] {
  return roots.map(({ root, reason }) =>
    diagnostic(
      "warning",
      "watch.fallback",
      `Changes in this root cannot be watched (${reason}); the MCP server and watching library runtimes re-check its folders' modification times on every call instead.`,
      { path: root },
    )
  );
}

/**
 * Builds the doctor report from a full index of the setup, who sees what at Level 0, and
 * the roots no watcher covers, and its skills' readiness ([V-9]).
 */
export function doctorReport(
  setup: HomeLayout,
  index: SkillIndex,
  plan: PermissionPlan,
  facts: VisibilityFacts,
  watch: Diagnostic[] = [],
  readiness: { skills: SkillReadiness[]; diagnostics: Diagnostic[] } = {
    skills: [],
    diagnostics: [],
  },
): DoctorReport {
  const diagnostics = setupDiagnostics(setup, index, watch);
  const hub = checkHubLock(setup.localRoot);
  diagnostics.push(...hub.diagnostics);
  const agentFolders = setup.agentFolders.filter((f) => f.real !== undefined);
  diagnostics.push(...agentFolders.filter((f) => !f.enabled).map(notEnabled));
  diagnostics.push(...readiness.diagnostics);
  const hidden = hiddenCounts(index, facts);
  const count = (root: string) => index.records.filter((r) => r.root === root).length;
  const summary = { errors: 0, warnings: 0, info: 0 };
  for (const d of diagnostics) {
    summary[d.severity === "error" ? "errors" : d.severity === "warning" ? "warnings" : "info"]++;
  }
  return {
    success: summary.errors === 0,
    home: setup.home,
    config: { file: setup.configFile, exists: setup.configExists },
    roots: rootsOf(setup, index),
    plugins: setup.plugins.map((p) => ({
      namespace: p.namespace,
      path: p.path,
      skills: count(p.path),
    })),
    agentFolders: agentFolders.map((f) => ({
      agent: f.agent,
      scope: f.scope,
      path: f.path,
      enabled: f.enabled,
    })),
    shadowed: index.shadowed.map((r) => ({
      name: r.name,
      path: r.skillDir,
      shadowed_by: entryFor(index, r.name)!.record.skillDir,
    })),
    ambiguous: [...index.entries.values()].filter((e) => e.ambiguous).map((e) => ({
      name: e.name,
      root: e.record.root,
      matches: e.matches.map((m) => m.path),
    })),
    hidden: { ...hidden, total: Object.values(hidden).reduce((a, b) => a + b, 0) },
    diagnostics,
    sandbox: plan,
    scripts: scriptSandboxes(setup.host.sandbox),
    hub: hub.state,
    readiness: readiness.skills,
    summary,
  };
}

/** The home's, the roots', the skills' and the usage file's diagnostics (shadowing apart). */
function setupDiagnostics(setup: HomeLayout, index: SkillIndex, watch: Diagnostic[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [
    ...(setup.homeExists ? [] : [
      diagnostic("error", "home.missing", `The home '${setup.home}' does not exist.`, {
        path: setup.home,
      }),
    ]),
    ...setup.problems,
    ...index.diagnostics.filter((d) => d.code !== "skill.shadowed" && d.code !== "skill.ambiguous"),
    ...watch,
  ];
  for (const r of index.records) diagnostics.push(...r.diagnostics);
  try {
    readUsage(setup.localRoot); // the home's counters only ([U-1])
  } catch (error) {
    diagnostics.push(
      diagnostic("error", "usage.unparseable", (error as Error).message, {
        path: usageFile(setup.localRoot),
      }),
    );
  }
  return diagnostics;
}

/** Every root with its state and skill count, the missing and forbidden ones included. */
function rootsOf(setup: HomeLayout, index: SkillIndex): DoctorReport["roots"] {
  const unreadable = new Set(
    index.diagnostics.filter((d) => d.code === "walk.not_permitted" || d.code === "walk.unreadable")
      .map((d) => d.path),
  );
  const count = (root: string) => index.records.filter((r) => r.root === root).length;
  return [
    ...setup.roots.map((r) => ({
      path: r.path,
      source: r.source,
      status: unreadable.has(r.path) ? "unreadable" as const : "present" as const,
      skills: count(r.path),
    })),
    ...setup.problems.filter((p) => p.code === "root.missing" || p.code === "root.not_permitted")
      .map((p) => ({
        path: p.path!,
        source: "external",
        status: p.code === "root.missing" ? "missing" as const : "unreadable" as const,
        skills: 0,
      })),
  ];
}
