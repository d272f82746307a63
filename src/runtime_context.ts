/**
 * What a `SkillRuntime`'s calls hand the layers below, from its setup and
 * options: environment names and admitted values ([V-4], [P-7]), a skill's preprocess
 * context ([P-1..5]) and view context ([V-1..10]), and category descriptions ([L0-6]).
 * Kept apart from the runtime so that the class holds only its calls.
 *
 * @module
 */
import type { HomeLayout } from "./home/layout.ts";
import { readEnv } from "./home/host.ts";
import { existsHere, joinPath } from "./home/paths.ts";
import {
  answerReadiness,
  type ReadinessAnswer,
  type ReadinessAsk,
} from "./home/readiness_probe.ts";
import {
  entryIn,
  hubMayHave,
  type LockEntry,
  lockFile,
  type LockState,
  readLock,
  trustIn,
} from "./hub/lockfile.ts";
import { type Look, oneLook, settledStamp, stampHolds } from "./scan/watcher_sees.ts";
import { lockRootOf } from "./hub/hub_root.ts";
import { type CategoriesResult, categoryDescription, listCategories } from "./level0/list.ts";
import type { VisibilityFacts } from "./level0/visibility.ts";
import { admitsAsk, type EnvAsk } from "./preprocess/env_access.ts";
import type { InlineShellOptions } from "./preprocess/inline_shell.ts";
import type { PreprocessContext } from "./preprocess/preprocess.ts";
import type { Resolved } from "./resolve/resolve.ts";
import type { Catalog } from "./scan/catalog.ts";
import { openSkillFile, reachOf } from "./scan/containment.ts";
import { frontmatterOf, type SkillRecord } from "./scan/record.ts";
import { readHeadOf } from "./frontmatter/read_head.ts";
import { dotenvNames } from "./view/env_vars.ts";
import type { ViewContext } from "./view/view.ts";
import type { SkillFilesFacts } from "./view/skill_files.ts";
import type { RuntimeOptions, ViewOptions } from "./runtime_options.ts";

/** Names of environment variables set in the process or in `<home>/.env`. */
export function envNamesOf(setup: HomeLayout): Set<string> {
  const names = new Set(setup.host.envNames);
  try {
    for (const n of dotenvNames(Deno.readTextFileSync(joinPath(setup.home, ".env")))) {
      names.add(n);
    }
  } catch {
    // No .env: only the process environment counts.
  }
  return names;
}

/** Values of the variables asked for, only those whose ground holds ([P-7]). */
export function envValuesOf(
  setup: HomeLayout,
  options: RuntimeOptions,
  asks: EnvAsk[],
): Promise<Record<string, string>> {
  const rules = { passthrough: setup.config.env_passthrough, userConfig: setup.config.config };
  const admitted = asks.filter((ask) => admitsAsk(ask, rules));
  if (options.envValues) return options.envValues(admitted);
  const env = options.env ?? readEnv;
  const out: Record<string, string> = {};
  for (const { name } of admitted) {
    const value = env(name);
    if (value !== undefined) out[name] = value;
  }
  return Promise.resolve(out);
}

/** Which programs are on PATH and which credential files exist under the home ([V-9]). */
export function readinessOf(
  setup: HomeLayout,
  options: RuntimeOptions,
  ask: ReadinessAsk,
): Promise<ReadinessAnswer> {
  if (options.readiness) return options.readiness(ask);
  const env = options.env ?? readEnv;
  return Promise.resolve(answerReadiness(ask, env("PATH"), setup.home));
}

/** Why a skill's inline shell never runs ([P-3]): community trust, or a lock that does not parse. */
function shellRefusal(record: SkillRecord, lock: LockState): string | undefined {
  if (lock.state === "unparseable") {
    return `the hub lock '${lock.file}' does not parse, so whether skill '${record.name}' came from the hub is unknown; its inline shell does not run`;
  }
  return trustIn(lock, record.skillDir) === "community"
    ? `skill '${record.name}' was installed from the hub with community trust; its inline shell never runs`
    : undefined;
}

/** How a skill's content is preprocessed ([P-1..5]): template vars, arguments, gated inline shell. */
export function preprocessContextOf(
  setup: HomeLayout,
  options: RuntimeOptions,
  record: SkillRecord,
  args?: string,
): PreprocessContext {
  const { config, host } = setup;
  const sessionId = options.sessionId;
  let inlineShell: InlineShellOptions | undefined;
  if (config.inline_shell) {
    const lock = readLock(lockRootOf(setup, record));
    inlineShell = {
      cwd: record.skillDir,
      groups: options.processGroups,
      allow: config.inline_shell_allow,
      timeoutSeconds: config.inline_shell_timeout,
      env: {
        ...host.shellEnv,
        HERMES_SKILL_DIR: record.skillDir,
        ...(sessionId ? { HERMES_SESSION_ID: sessionId } : {}),
      },
      blocked: shellRefusal(record, lock),
    };
  }
  return {
    skillDir: record.skillDir,
    sessionId,
    templateVars: config.template_vars,
    args,
    inlineShell,
  };
}

/**
 * The hub lock entry of a skill (its trust, [HUB-3]). The lock is remembered with the
 * catalog while its root is watched (the watcher counts `.hub/lock.json`) and that watcher
 * sees every change of the file (`watcherSees`, looked at on every call: no link on the
 * way, one hard link); read on every call otherwise.
 */
export function hubEntryIn(
  setup: HomeLayout,
  catalog: Catalog,
  record: SkillRecord,
  look: Look = oneLook(),
): LockEntry | undefined {
  return entryIn(hubLockIn(setup, catalog, record, look), record.skillDir);
}

/** Whether the hub may have brought the skill in ({@linkcode hubMayHave}: moved, or an unreadable lock). */
export function hubMayHaveIn(
  setup: HomeLayout,
  catalog: Catalog,
  record: SkillRecord,
  look: Look = oneLook(),
): boolean {
  return hubMayHave(hubLockIn(setup, catalog, record, look), record.skillDir, record.name);
}

/** The hub trust of a skill ({@linkcode trustIn}: `community` when the lock does not parse). */
export function hubTrustIn(
  setup: HomeLayout,
  catalog: Catalog,
  record: SkillRecord,
  look: Look = oneLook(),
): string | undefined {
  return trustIn(hubLockIn(setup, catalog, record, look), record.skillDir);
}

/** The hub lock holding a skill's trust, remembered as {@linkcode hubEntryIn} says. */
function hubLockIn(
  setup: HomeLayout,
  catalog: Catalog,
  record: SkillRecord,
  look: Look,
): LockState {
  const root = lockRootOf(setup, record);
  if (!setup.roots.some((r) => r.path === root)) return readLock(root);
  return catalog.memo(`lock\0${root}`, () => heldLock(root), (held) => held.holds(look)).lock;
}

/**
 * A root's hub lock as read now, and how to tell on a later call that the watcher would
 * have reported any change since. A lock that is there: its path is looked at
 * (`watcherSees`). None: the stamp of the folder it would appear in (`.hub`, else the
 * root) tells, since a lock or `.hub` made there later as a link is never reported but
 * changes that folder. No look throws for a missing path.
 */
function heldLock(root: string): { lock: LockState; holds: (look: Look) => boolean } {
  const hub = joinPath(root, ".hub");
  const where = existsHere(hub) ? hub : root;
  const stamp = settledStamp(where); // before the read: a change after it changes the stamp
  const lock = readLock(root);
  if (lock.state === "absent") {
    return { lock, holds: () => stamp !== undefined && stampHolds(where, stamp) };
  }
  return { lock, holds: (look) => look(root, lockFile(root)) };
}

/** Everything `loadSkill` needs for one resolved skill, read through `catalog` ([V-1..10]). */
export function viewContextOf(
  runtime: RuntimeParts,
  resolved: Resolved,
  catalog: Catalog,
  options: ViewOptions,
  look: Look = oneLook(),
): ViewContext {
  const { setup } = runtime;
  const plugin = resolved.plugin;
  const siblings = plugin
    ? catalog.root(plugin).records.map((r) => r.name.slice(plugin.namespace.length + 1))
    : undefined;
  const hub = hubEntryIn(setup, catalog, resolved.record, look);
  let envNames: Set<string> | undefined;
  return {
    platform: setup.host.platform,
    // Read only for a skill that names variables it needs.
    get envNames() {
      return envNames ??= envNamesOf(setup);
    },
    configValues: setup.config.config,
    configFile: setup.configFile,
    userHome: setup.host.userHome,
    maxBytes: setup.config.max_file_bytes,
    strict: options.strict,
    untrusted: hub?.trust_level === "community"
      ? { source: hub.source, trust: hub.trust_level }
      : undefined,
    allowUntrusted: options.allowUntrusted,
    siblings,
    preprocess: (record) => preprocessContextOf(setup, runtime.options, record, options.args),
    env: (asks) => envValuesOf(setup, runtime.options, asks),
    envPassthrough: setup.config.env_passthrough,
    // [P-7]: only the local root's skills may name variables of their own; a skill of
    // an external, project, plugin or agent root (a cloned repository) counts as community.
    trust: (record) =>
      record.source === "local" ? hubTrustIn(setup, catalog, record, look) : "community",
    realRoots: catalog.realRoots,
    probe: (ask) => readinessOf(setup, runtime.options, ask),
    look,
    memo: (key, compute) => catalog.memo(key, compute),
    memoAsync: (key, compute) => catalog.memoAsync(key, compute),
    readFiles: catalog.helperFiles &&
      (async (dir, reach) => await catalog.helperFiles!(dir, reach) as SkillFilesFacts),
  };
}

/**
 * The category map of a catalog, each description read through a checked handle ([L0-6],
 * [S-9]); `seen()` tells whether the watchers still see every `DESCRIPTION.md` it read.
 */
export function categoriesIn(
  setup: HomeLayout,
  catalog: Catalog,
  facts: VisibilityFacts,
): CategoriesResult & { seen: () => boolean } {
  const realRoots = catalog.realRoots;
  const holds: ((look: Look) => boolean)[] = [];
  const result = listCategories(catalog.index(), facts, (root, category) => {
    const folder = joinPath(root, category);
    const file = joinPath(folder, "DESCRIPTION.md");
    const stamp = settledStamp(folder); // before the read: a file made after it changes it
    const source = setup.roots.find((r) => r.path === root)?.source ?? "plugin";
    try {
      using opened = openSkillFile(folder, "DESCRIPTION.md", reachOf(source, realRoots));
      holds.push((look) => look(root, file));
      const { data: fm, body } = frontmatterOf(readHeadOf(opened).fence, file);
      return categoryDescription(fm, body);
    } catch (error) {
      // None there: the folder's stamp vouches that none (nor a link) was made since.
      holds.push(
        error instanceof Deno.errors.NotFound
          ? () => stamp !== undefined && stampHolds(folder, stamp)
          : (look) => look(root, file),
      );
      return null;
    }
  });
  // True while the watchers see every change of a DESCRIPTION.md read, or made since.
  return {
    ...result,
    seen: () => {
      const look = oneLook();
      return holds.every((held) => held(look));
    },
  };
}

/** What {@linkcode viewContextOf} reads of a runtime: its setup and options. */
export interface RuntimeParts {
  readonly setup: HomeLayout;
  readonly options: RuntimeOptions;
}
