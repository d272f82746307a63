/**
 * The home layout of a command: the home ([H-1]), its config ([H-2]), and the roots in
 * precedence order ([S-1], [H-3], [H-4]). Computed once, by the warden or in-process,
 * as plain data that can be posted to the sandbox Worker.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isPermissionError, SkillrtError } from "../errors.ts";
import { loadConfig, type SkillsConfig } from "./config.ts";
import {
  type AgentFolder,
  agentFolders,
  agentSource,
  checkAgentNames,
  PROJECT_SKILL_FOLDERS,
} from "./agents.ts";
import { detectHost, expandPath, type HostFacts, readEnv } from "./host.ts";
import { isDirectory, isInside, joinPath, realPathOrUndefined, resolvePath } from "./paths.ts";

/** A folder searched for skills. */
export interface Root {
  /** The real path of the folder. */
  path: string;
  /** Its kind, which is also its place in the precedence order ([S-1]); `agent:<name>` ([H-5]). */
  source: "project" | "local" | "external" | `agent:${string}`;
}

/** One known agent skill folder and its state on this machine ([H-5]). */
export interface AgentFolderState extends AgentFolder {
  /** Its real path when it exists as a folder. */
  real?: string;
  /** Whether it is a root of this setup (its agent named by `skills.agents` or `--agent`). */
  enabled: boolean;
}

/** A plugin's skills folder: `<home>/plugins/<namespace>/skills` ([R-5]). */
export interface PluginRoot {
  /** The plugin's namespace (its folder name). */
  namespace: string;
  /** The real path of its `skills` folder. */
  path: string;
}

/** The resolved home, its config and its roots: everything a command needs to know before it reads a single skill. */
export interface HomeLayout {
  /** The home folder, absolute. */
  home: string;
  /** Whether the home folder exists (looked at by whoever made the setup: the warden). */
  homeExists: boolean;
  /** `<home>/skills`, absolute (it may not exist yet). */
  localRoot: string;
  /** `<home>/config.yaml`. */
  configFile: string;
  /** Whether config.yaml exists. */
  configExists: boolean;
  /** The parsed `skills:` section. */
  config: SkillsConfig;
  /** Config values of the wrong type, roots declared but missing: for `doctor`. */
  problems: Diagnostic[];
  /** Existing roots in precedence order. */
  roots: Root[];
  /** Existing plugin skills folders, sorted by namespace. */
  plugins: PluginRoot[];
  /** Every known agent skill folder, found or not, enabled or not ([H-5]). */
  agentFolders: AgentFolderState[];
  /** The agents named by `--agent` for this command (checked names). */
  agentOptions: string[];
  /** The project root found from the cwd, trusted or not; null when there is none. */
  projectRoot: string | null;
  /** The machine's facts. */
  host: HostFacts;
}

/** How to compute a {@linkcode HomeLayout}. */
export interface HomeLayoutOptions {
  /**
   * The home folder (`--home`).
   * @default {`$HERMES_HOME`, else `~/.hermes`}
   */
  home?: string;
  /**
   * Host facts.
   * @default {detected in this process}
   */
  host?: HostFacts;
  /**
   * Reads an environment variable.
   * @default {`Deno.env`, where permitted}
   */
  env?: (name: string) => string | undefined;
  /**
   * Agents whose skill folders are roots besides those of `skills.agents` (`--agent`, [H-5]).
   * @default {[]}
   */
  agents?: string[];
}

/** Picks the home folder of [H-1]. */
export function resolveHome(
  home: string | undefined,
  env: (name: string) => string | undefined,
  host: HostFacts,
): string {
  const chosen = home ?? env("HERMES_HOME");
  if (chosen === undefined || chosen === "") {
    // Never a `.hermes` found relative to the working directory: a cloned repository
    // would then be the trusted home ([H-1]).
    if (!host.userHome?.startsWith("/")) {
      throw noUserHome("Pass --home DIR (in the library: the home option) or set HERMES_HOME.");
    }
    return resolvePath(host.userHome, ".hermes");
  }
  // `~` is the user's home, never a folder named `~` here.
  if (/^~(\/|$)/.test(chosen) && !host.userHome?.startsWith("/")) {
    throw noUserHome(`Pass the home '${chosen}' as an absolute path.`);
  }
  return resolvePath(host.cwd, expandPath(chosen, env, host.userHome));
}

/** Why the user's home is unknown: HOME unset, or not readable without `--allow-env`. */
function noUserHome(then: string): SkillrtError {
  let granted = true;
  try {
    granted = Deno.permissions.querySync({ name: "env", variable: "HOME" }).state === "granted";
  } catch {
    granted = false;
  }
  return new SkillrtError(
    granted
      ? `Cannot tell where the home is: HOME is not set to an absolute path. ${then}`
      : `Cannot tell where the home is: reading HOME needs --allow-env (or --allow-env=HOME). ${then}`,
  );
}

/** The nearest ancestor of `cwd` holding `.git` (at most 64 levels); the user's home is no project. */
export function findProjectRoot(cwd: string, userHome?: string): string | null {
  let dir = resolvePath(cwd, ".");
  for (let i = 0; i <= 64; i++) {
    try {
      Deno.statSync(joinPath(dir, ".git"));
      const real = realPathOrUndefined(dir) ?? dir;
      const realHome = userHome ? realPathOrUndefined(userHome) ?? userHome : undefined;
      return real === realHome ? null : real;
    } catch {
      const parent = resolvePath(dir, "..");
      if (parent === dir) return null;
      dir = parent;
    }
  }
  return null;
}

function isDenied(path: string): boolean {
  try {
    Deno.statSync(path);
    return false;
  } catch (error) {
    return isPermissionError(error);
  }
}

/** The problem of a project's or plugin's skills folder that is a link leaving it ([S-9]). */
function leavingRoot(path: string): Diagnostic {
  return diagnostic(
    "warning",
    "symlink.outside_roots",
    "Skills folder is a symbolic link leaving its project or plugin; it is not used.",
    { path },
  );
}

/**
 * The state of one agent folder: its real path when it is a folder, and a problem when a
 * project's agent folder is a link leaving the project ([S-9]) — then it is not used.
 */
function agentFolderState(
  folder: AgentFolder,
  enabled: boolean,
  project: string | null,
): { folder: AgentFolderState; problem?: Diagnostic } {
  const real = realPathOrUndefined(folder.path);
  if (!real || !isDirectory(real)) return { folder: { ...folder, enabled } };
  if (folder.scope === "project" && project && !isInside(project, real)) {
    return {
      folder: { ...folder, enabled },
      problem: enabled ? leavingRoot(folder.path) : undefined,
    };
  }
  return { folder: { ...folder, real, enabled } };
}

/** What finding the roots needs: the home, its config, and where problems go. */
interface RootSearch {
  home: string;
  config: SkillsConfig;
  env: (name: string) => string | undefined;
  host: HostFacts;
  problems: Diagnostic[];
  /** Adds a root once (a real path seen before is skipped). */
  add: (path: string, source: Root["source"]) => void;
}

/**
 * Computes the home layout: reads config.yaml and finds the roots.
 *
 * @example Where a home's skills are found
 * ```ts
 * import { resolveHomeLayout } from "@skillrt/skillrt";
 *
 * const layout = resolveHomeLayout({ home: "examples/home" });
 * console.log(layout.localRoot, layout.roots.map((root) => root.source));
 * ```
 *
 * @param options How to compute it.
 * @returns The home, its config and its roots in precedence order.
 * @throws {SkillrtError} when config.yaml does not parse.
 */
export function resolveHomeLayout(options: HomeLayoutOptions = {}): HomeLayout {
  const env = options.env ?? readEnv;
  const host = options.host ?? detectHost();
  const lexicalHome = resolveHome(options.home, env, host);
  const home = realPathOrUndefined(lexicalHome) ?? lexicalHome; // grants name real paths
  const configFile = joinPath(home, "config.yaml");
  const loaded = loadConfig(configFile);
  const config = loaded.config;
  const problems = [...loaded.problems];
  const localLexical = joinPath(home, "skills");
  const localReal = realPathOrUndefined(localLexical);
  const roots: Root[] = [];
  const seen = new Set<string>();
  const add = (path: string, source: Root["source"]) => {
    if (seen.has(path)) return;
    seen.add(path);
    roots.push({ path, source });
  };
  const search: RootSearch = { home, config, env, host, problems, add };

  // The user's own skills come first: a local version always wins ([S-1], as the seeds say).
  if (localReal && isDirectory(localReal)) add(localReal, "local");
  const project = config.project_discovery
    ? addProjectRoots(search)
    : { projectRoot: null, trusted: null };
  addExternalRoots(search, localReal);
  const agentOptions = checkAgentNames(options.agents ?? []);
  const agents = addAgentRoots(search, localReal, project.trusted, agentOptions);
  const plugins = pluginRoots(home, problems);
  return {
    home,
    homeExists: isDirectory(home),
    localRoot: localReal ?? localLexical,
    configFile: configFile,
    configExists: loaded.exists,
    config,
    problems,
    roots,
    plugins,
    projectRoot: project.projectRoot,
    agentFolders: agents,
    agentOptions,
    host,
  };
}

/**
 * The project's skills folders, when the project is trusted; returns the project found
 * and, when trusted, the project again.
 */
function addProjectRoots(
  search: RootSearch,
): { projectRoot: string | null; trusted: string | null } {
  const { home, config, env, host, problems } = search;
  const projectRoot = findProjectRoot(host.cwd, host.userHome);
  const trusted = new Set(config.trusted_project_dirs.map((d) => {
    const p = resolvePath(home, expandPath(d, env, host.userHome));
    return realPathOrUndefined(p) ?? p;
  }));
  if (!projectRoot || !trusted.has(projectRoot)) return { projectRoot, trusted: null };
  for (const sub of PROJECT_SKILL_FOLDERS) {
    const real = realPathOrUndefined(joinPath(projectRoot, sub));
    if (!real || !isDirectory(real)) continue;
    // A repository's skills folder linked out of the repository is not followed ([S-9]).
    if (isInside(projectRoot, real)) search.add(real, "project");
    else problems.push(leavingRoot(joinPath(projectRoot, sub)));
  }
  return { projectRoot, trusted: projectRoot };
}

/** The configured external folders; a missing or forbidden one is a problem, skipped. */
function addExternalRoots(search: RootSearch, localReal: string | undefined): void {
  const { home, config, env, host, problems } = search;
  for (const declared of config.external_dirs) {
    const p = resolvePath(home, expandPath(declared, env, host.userHome));
    const real = realPathOrUndefined(p);
    if (!real || !isDirectory(real)) {
      const denied = isDenied(p);
      problems.push(
        diagnostic(
          "warning",
          denied ? "root.not_permitted" : "root.missing",
          denied
            ? `External skills folder '${declared}' is not readable with this process's permissions; skipped.`
            : `External skills folder '${declared}' does not exist; skipped.`,
          { path: p },
        ),
      );
      continue;
    }
    if (real === localReal) continue;
    search.add(real, "external");
  }
}

/**
 * Every known agent skill folder with its state; the folders of the agents `skills.agents`
 * and `--agent` name are roots after the external dirs, in the order named ([S-1], [H-5]).
 */
function addAgentRoots(
  search: RootSearch,
  localReal: string | undefined,
  trustedProject: string | null,
  agentOptions: string[],
): AgentFolderState[] {
  const enabledAgents = new Set([...search.config.agents, ...agentOptions]);
  const agents = agentFolders(search.host.userHome, trustedProject).map((folder) => {
    const state = agentFolderState(folder, enabledAgents.has(folder.agent), trustedProject);
    if (state.problem) search.problems.push(state.problem);
    return state.folder;
  });
  for (const name of enabledAgents) {
    for (const folder of agents) {
      if (folder.agent === name && folder.real && folder.real !== localReal) {
        search.add(folder.real, agentSource(name));
      }
    }
  }
  return agents;
}

/** The plugins of the home (`plugins/<namespace>/skills`), sorted by namespace. */
function pluginRoots(home: string, problems: Diagnostic[]): PluginRoot[] {
  const plugins: PluginRoot[] = [];
  const pluginsDir = joinPath(home, "plugins");
  try {
    for (const entry of Deno.readDirSync(pluginsDir)) {
      if (!/^[A-Za-z0-9_-]+$/.test(entry.name)) continue;
      const real = realPathOrUndefined(joinPath(pluginsDir, entry.name, "skills"));
      if (!real || !isDirectory(real)) continue;
      // A plugin's skills folder linked out of the plugin is not followed ([S-9]).
      const plugin = realPathOrUndefined(joinPath(pluginsDir, entry.name));
      if (plugin !== undefined && isInside(plugin, real)) {
        plugins.push({ namespace: entry.name, path: real });
      } else problems.push(leavingRoot(joinPath(pluginsDir, entry.name, "skills")));
    }
  } catch {
    // No plugins folder: no plugins.
  }
  return plugins.sort((a, b) => (a.namespace < b.namespace ? -1 : 1));
}
