/**
 * Preparing one script run ([RUN-1], [RUN-2]), inside the Worker that may parse the skill:
 * resolve the skill, read the script through a checked handle (its bytes hashed, its first
 * line for the interpreter), read what the skill declares (its frontmatter, else Codex's
 * `agents/openai.yaml`), place it (the real skill folder, the work dir) and compute the
 * grant — refused with a one-line reason before anything runs.
 *
 * @module
 */
import { NotFoundError, NotPermittedError, UsageError } from "../errors.ts";
import { parseYaml } from "../deps/yaml.ts";
import { readSkillFile } from "../files/file_view.ts";
import {
  basename,
  dirname,
  isDirectory,
  joinPath,
  normalizePath,
  realPathOrUndefined,
  resolvePath,
} from "../home/paths.ts";
import { sha256Hex } from "../hash/sha256.ts";
import type { Resolved } from "../resolve/resolve.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { RuntimeOptions } from "../runtime_options.ts";
import { hubMayHaveIn } from "../runtime_context.ts";
import { isSynced } from "../hub/bundled_manifest.ts";
import type { Catalog } from "../scan/catalog.ts";
import { type Declared, declaredPermissions } from "./permissions.ts";
import { type Grant, grantFor } from "./grant.ts";
import { isRepositoryShaped } from "./kept_places.ts";
import { type ScriptKind, scriptKind } from "./script_kind.ts";
import { needsConsent } from "./consent.ts";
import { isAgentWritten } from "../manage/agent_written.ts";
import { reachOf } from "../scan/containment.ts";
import type { Audience } from "../scan/audience.ts";
import type { Look } from "../scan/watcher_sees.ts";

/** What running a script needs of the runtime (`SkillRuntime` is one). */
export interface ScriptRuntime {
  /** The home, config and roots. */
  readonly setup: HomeLayout;
  /** Who answers environment questions and kills process groups, when not this process. */
  readonly options: Pick<RuntimeOptions, "envValues" | "processGroups">;
  /** A fresh catalog. */
  catalog(): Catalog;
  /** Resolves a name in a catalog (refusing disabled skills, and those `audience` may not see). */
  resolveIn(name: string, catalog: Catalog, look?: Look, audience?: Audience): Resolved;
}

/** A script ready to be placed in its sandbox. */
export interface PreparedRun {
  /** The skill's name. */
  name: string;
  /** The script, relative to the skill folder, normalized. */
  script: string;
  /** The script, absolute (in the real skill folder). */
  scriptPath: string;
  /** The script's sha256. */
  sha256: string;
  /** What the skill declares. */
  declared: Declared;
  /** What it is granted. */
  grant: Grant;
  /** How it runs. */
  kind: Exclude<ScriptKind, { refused: string }>;
  /** Whether running it needs the user's approval ([RUN-3]). */
  needsConsent: boolean;
  /** Whether an MCP client wrote the skill (`agent_written.ts`). */
  byAgent: boolean;
  /** The real roots the skill folder must lie in (its files are read inside them); anywhere when absent. */
  reach?: readonly string[];
  /** The work dir's `device:inode` when it was checked (the box refuses any other folder there). */
  workDirId: string;
  /** The skill's root kind (`local`, `project`, …; `hub` when installed from the hub, `synced` when `sync` brought it). */
  origin: string;
}

/** The one-line refusal of a run (exit 3). */
export function runRefusal(name: string, script: string, why: string): NotPermittedError {
  return new NotPermittedError(`Refusing to run '${script}' of skill '${name}': ${why}.`, {
    rule: "[RUN-1] a script gets what its skill declares, never more",
  });
}

/** The parsed `agents/openai.yaml` of a skill, when it ships one. */
function codexFile(resolved: Resolved, catalog: Catalog, max: number): unknown {
  try {
    const { data } = readSkillFile(resolved, "agents/openai.yaml", max, catalog.realRoots);
    const parsed = parseYaml(new TextDecoder().decode(data));
    return "value" in parsed ? parsed.value : undefined;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** The work dir, real and a folder, or the error saying why not. */
function workDirOf(runtime: ScriptRuntime, workdir: string | undefined): string {
  const path = resolvePath(runtime.setup.host.cwd, workdir ?? ".");
  const real = realPathOrUndefined(path);
  if (real === undefined || !isDirectory(real)) {
    throw new UsageError(`The work dir '${path}' is not a folder.`);
  }
  return real;
}

/** What the box and the sweeps compare a place by: `device:inode` (as `stat -c %d:%i` prints it). */
export function identity(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino}`;
}

/** A folder's identity, taken without following a link (one swapped in since is refused). */
function identityOf(dir: string): string {
  const info = Deno.lstatSync(dir);
  if (!info.isDirectory) throw new UsageError(`The work dir '${dir}' is not a folder.`);
  return identity(info);
}

/**
 * The skillrt home's real path, as far as the Worker can tell without reading the home:
 * the folder of the local root when that is a root (roots are real paths; a linked local
 * root gives its real folder, refused too), else as given.
 */
function realHome(setup: HomeLayout): string {
  const local = setup.roots.find((r) => r.source === "local")?.path;
  return local !== undefined && basename(local) === "skills" ? dirname(local) : setup.home;
}

/** Resolves, reads and checks one script of a skill; throws the refusal when it may not run. */
export function prepareRun(
  runtime: ScriptRuntime,
  name: string,
  path: string,
  workdir?: string,
  audience?: Audience,
): PreparedRun {
  const catalog = runtime.catalog();
  const resolved = runtime.resolveIn(name, catalog, undefined, audience);
  const { record } = resolved;
  if (resolved.flat) {
    throw new NotFoundError(`Skill '${record.name}' is a single file; it has no scripts.`);
  }
  const max = runtime.setup.config.max_file_bytes;
  const { data } = readSkillFile(resolved, path, max, catalog.realRoots);
  const script = normalizePath(path);
  const skillDir = realPathOrUndefined(record.skillDir) ?? record.skillDir;
  const declared = declaredPermissions(record.frontmatter, codexFile(resolved, catalog, max));
  if ("problem" in declared) {
    throw runRefusal(record.name, script, `its declared ${declared.problem}`);
  }
  const { setup } = runtime;
  const places = {
    skillDir,
    workDir: workDirOf(runtime, workdir),
    userHome: setup.host.userHome,
    skillrtHome: setup.home,
    skillrtHomeReal: realHome(setup),
    roots: [...setup.roots.map((r) => r.path), ...setup.plugins.map((p) => p.path)],
    isRepository: isRepositoryShaped,
  };
  const verdict = grantFor(declared, places, (p) => realPathOrUndefined(p) ?? p);
  if ("refused" in verdict) throw runRefusal(record.name, script, verdict.refused);
  const firstLine = new TextDecoder().decode(data.subarray(0, 256)).split("\n")[0];
  const kind = scriptKind(script, firstLine);
  if ("refused" in kind) {
    throw runRefusal(record.name, script, `skillrt cannot tell how to run it: ${kind.refused}`);
  }
  const workDirId = identityOf(places.workDir);
  const fromHub = hubMayHaveIn(setup, catalog, record);
  const local = record.source === "local";
  const synced = local && !fromHub && isSynced(setup.localRoot, record.skillDir, record.name);
  const byAgent = local && isAgentWritten(setup.localRoot, skillDir);
  const reach = reachOf(record.source, catalog.realRoots);
  return {
    name: record.name,
    script,
    scriptPath: joinPath(skillDir, script),
    sha256: sha256Hex(data),
    declared,
    grant: verdict.grant,
    kind,
    needsConsent: needsConsent(record.source, fromHub || synced, byAgent),
    byAgent,
    workDirId,
    ...(reach ? { reach } : {}),
    origin: fromHub ? "hub" : synced ? "synced" : record.source,
  };
}
