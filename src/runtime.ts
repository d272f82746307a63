/**
 * The runtime: the library's entry point, one class whose methods are the calls of
 * Level 0, 1 and 2. A call reads a {@linkcode Catalog}: a fresh scan for a short-lived
 * runtime (each call sees the skills as they are, [S-4]), or with `watch: true` the one
 * catalog the watcher keeps fresh ([PERF-5]). Its options live in `runtime_options.ts`,
 * what it hands the view and preprocess layers in `runtime_context.ts`.
 *
 * @module
 */
import type { SkillRecord } from "./scan/record.ts";
import { readEnv } from "./home/host.ts";
import { isDirectory } from "./home/paths.ts";
import { type HomeLayout, resolveHomeLayout } from "./home/layout.ts";
import {
  type CategoriesResult,
  type ListResult,
  listSkills,
  searchSkills,
  visibleSkills,
} from "./level0/list.ts";
import { buildPrompt, promptLocation, type PromptResult } from "./level0/prompt.ts";
import {
  disabledNames,
  isDisabled,
  SkillDisabledError,
  type VisibilityFacts,
} from "./level0/visibility.ts";
import { type Resolved, resolveRemembered, shownOrNotFound, walksRoot } from "./resolve/resolve.ts";
import type { Audience } from "./scan/audience.ts";
import { Catalog } from "./scan/catalog.ts";
import { entryFor } from "./scan/skill_index.ts";
import { LiveCatalog } from "./scan/live_catalog.ts";
import type { WatchStatus } from "./scan/watch_cache.ts";
import { probeRoots } from "./scan/watch_source.ts";
import { bumpView, readUsageCounts, type UpdateResult, type UsageMap } from "./usage/usage.ts";
import { agentOfSource } from "./home/agents.ts";
import { deferUsageUpdate, flushUsage, groupUpdateUsage } from "./usage/group_commit.ts";
import { type FileResult, type ReadFile, readSkillFile } from "./files/file_view.ts";
import type { ReadinessAnswer, ReadinessAsk } from "./home/readiness_probe.ts";
import type { LoadedSkill, ViewResult } from "./view/view.ts";
import { invocationMessage, type InvokeResult } from "./view/invoke.ts";
import { partialView } from "./view/partial.ts";
import { preloadSkills } from "./level0/preload.ts";
import type { PreprocessContext } from "./preprocess/preprocess.ts";
import type { EnvAsk } from "./preprocess/env_access.ts";
import type { RunOptions, RunResult } from "./run/run_skill.ts";
import { type Look, oneLook } from "./scan/watcher_sees.ts";
import { loadBundles } from "./bundles/bundles.ts";
import type { PromptReader, SetupResult } from "./home/skill_setup.ts";
import { invokeBundle } from "./bundles/invoke_bundle.ts";

import {
  categoriesIn,
  envNamesOf,
  envValuesOf,
  hubEntryIn,
  preprocessContextOf,
  readinessOf,
  viewContextOf,
} from "./runtime_context.ts";
export type {
  CatalogOption,
  ListOptions,
  PromptOptions,
  RuntimeOptions,
  SearchOptions,
  ViewOptions,
} from "./runtime_options.ts";
import type {
  CatalogOption,
  ListOptions,
  PromptOptions,
  RuntimeOptions,
  SearchOptions,
  ViewOptions,
} from "./runtime_options.ts";

/** Why a usage update failed, if it did. */
const problemOf = (result: UpdateResult) => typeof result === "string" ? undefined : result.problem;

/** A skills runtime over one home: Level 0, 1 and 2 of progressive disclosure. */
export class SkillRuntime {
  /** The home, config and roots this runtime reads. */
  readonly setup: HomeLayout;
  /** The options it was opened with. */
  readonly options: RuntimeOptions;

  /** Opens a runtime; reads config.yaml (throws a clear error when it does not parse). */
  constructor(options: RuntimeOptions = {}) {
    this.options = options;
    this.setup = options.setup ?? resolveHomeLayout(options);
  }

  #live?: LiveCatalog;

  #scans = 0;

  /** How many times this runtime has walked a root: one walk per root, then none while nothing changes. */
  get scanCount(): number {
    return this.#scans;
  }

  /**
   * A fresh catalog, scanning each root on first use: what it reads is the skills as they
   * are now. (A catalog is what one call reads; see `src/scan/skill_index.ts` for the nouns.)
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  catalog(): Catalog {
    return new Catalog(this.setup, undefined, () => this.#scans++);
  }

  /**
   * The current catalog: with `watch: true`, one backed by the watched cache that reuses
   * roots unchanged since the last call (proved fresh first); otherwise a fresh catalog,
   * already scanned whole (on two threads when a `scanHelper` was given). Pass it to
   * `list`, `search`, `prompt`.
   *
   * @ignore Internal: for the CLI's commands and the MCP server.
   */
  async currentCatalog(): Promise<Catalog> {
    // Without watch, and for the first call of a watching runtime ([PERF-5]): a fresh catalog.
    const live = this.#liveCatalog();
    const current = await live?.current();
    if (current) return current;
    const started = Date.now();
    const catalog = this.catalog();
    // A watching runtime's first scan notes its folders (on this thread without a helper).
    const helper = this.options.scanHelper ?? (live ? () => undefined : undefined);
    if (helper) await catalog.prefetch(helper, undefined, !!live);
    live?.adopt(catalog, started); // its scans, proved unchanged since, serve the next calls
    return catalog;
  }

  /** The live catalog of `watch: true` (undefined without). */
  #liveCatalog(): LiveCatalog | undefined {
    if (!this.options.watch) return undefined;
    return this.#live ??= new LiveCatalog(this.setup, {
      sentinel: this.options.watchSentinel,
      opener: this.options.watchOpener,
      helper: this.options.watchHelper,
    }, () => this.#scans++);
  }

  /**
   * How each root of a `watch: true` runtime is kept fresh, once its watchers are open
   * (this opens them): `watched`, or `fallback` with the reason (validated by
   * modification times on every call instead).
   */
  async watchStatus(): Promise<WatchStatus[]> {
    return (await this.#liveCatalog()?.status()) ?? [];
  }

  /**
   * How each root is kept fresh at this moment, without opening the watchers or waiting
   * for them ([PERF-6]: an answer never waits for seconds of watch setup); a root whose
   * watcher is not open yet is `waiting` or `opening`.
   *
   * @ignore Internal: for the MCP server's session log.
   */
  watchStatusNow(): WatchStatus[] {
    return this.#live?.statusNow() ?? [];
  }

  /**
   * Roots (that exist) a file watcher cannot cover, with the reason: those of this
   * runtime's own watchers with `watch: true`, else found by opening one on each root and
   * closing it at once (in a watch helper Worker when one is at hand: start this, do other
   * work, then await it). `doctor` reports them.
   */
  async unwatchedRoots(): Promise<{ root: string; reason: string }[]> {
    const roots = [...this.setup.roots, ...this.setup.plugins].map((r) => r.path)
      .filter((path) => isDirectory(path));
    if (!this.options.watch) return await probeRoots(roots, this.options);
    return (await this.watchStatus())
      .filter((s) => s.state === "fallback" && roots.includes(s.root))
      .map((s) => ({ root: s.root, reason: s.reason ?? "unknown" }));
  }

  /**
   * The catalog a call reads: the one it was given, else the current one — the watched
   * catalog with `watch: true`; otherwise a fresh one, scanned whole up front (on two
   * threads with a helper) for calls that read every root, lazily for the rest.
   */
  #catalogOf(options: CatalogOption, whole = false): Promise<Catalog> {
    if (options.catalog) return Promise.resolve(options.catalog);
    return this.options.watch || whole ? this.currentCatalog() : Promise.resolve(this.catalog());
  }

  /**
   * Calls `listener` (debounced) whenever the skills change — with `watch: true` only;
   * returns the function that stops it. The MCP server sends `list_changed` from it.
   * Changes are seen from the moment the watchers are open: after the first answer, or
   * two seconds after this call when no call comes before.
   */
  onChange(listener: () => void): () => void {
    return this.#liveCatalog()?.onChange(listener) ?? (() => {});
  }

  /**
   * Stops the file watchers of `watch: true` and writes the usage counts still waiting;
   * resolves when they are on disk.
   */
  close(): Promise<void> {
    this.#live?.close();
    return flushUsage(this.setup.localRoot);
  }

  /**
   * The facts that decide who is visible at Level 0.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  visibility(): VisibilityFacts {
    const env = this.options.env ?? readEnv;
    const platform = this.options.platform ?? env("HERMES_PLATFORM");
    return {
      platform: this.setup.host.platform,
      environments: this.setup.host.environments,
      disabled: disabledNames(this.setup.config, platform),
      toolsets: this.options.toolsets,
      tools: this.options.tools,
    };
  }

  /** Level 0: every visible skill, optionally of one category ([L0-1]). */
  async list(options: ListOptions = {}): Promise<ListResult> {
    const catalog = await this.#catalogOf(options, true);
    const { category, all, audience } = options;
    return listSkills(catalog.index(), this.visibility(), category, all, audience);
  }

  /** Level 0, coarse: one entry per category with counts and descriptions ([L0-6]). */
  async categories(
    options: CatalogOption = {},
  ): Promise<CategoriesResult> {
    const catalog = await this.#catalogOf(options, true);
    // Remembered for the catalog's life while every root is watched, as its scans are.
    // (Keyed by what decides visibility besides the config: the platform named in the environment.)
    const facts = this.visibility();
    const platform = (this.options.env ?? readEnv)("HERMES_PLATFORM") ?? "";
    const { categories } = catalog.memo(
      `categories\0${this.options.platform ?? platform}`,
      () => categoriesIn(this.setup, catalog, facts),
      (found) => found.seen(),
    );
    const copy = categories.map((c) => ({ ...c }));
    return { success: true, categories: copy, count: copy.length };
  }

  /** Level 0, ranked: skills matching a query, best first ([L0-7]). */
  async search(query: string, options: SearchOptions = {}): Promise<ListResult> {
    const catalog = await this.#catalogOf(options, true);
    return searchSkills(catalog.index(), this.visibility(), query, options.audience);
  }

  /** The Level-0 block for a system prompt ([L0-8]), then the preloaded skills ([L0-10]). */
  async prompt(options: PromptOptions = {}): Promise<PromptResult> {
    const catalog = await this.#catalogOf(options, true);
    const index = catalog.index();
    // Preloading is not a view: nothing is counted ([U-1]; `prompt` never writes).
    const preloaded = await preloadSkills(options.preload ?? [], (n) => this.#read(n, { catalog }));
    const uses = readUsageCounts(this.setup.localRoot); // the home's counters ([U-1])
    // The model's list ([IO-3]): no `disable-model-invocation` skill, `when_to_use` counted.
    const skills = visibleSkills(index, this.visibility(), false, "model").map((s) => ({
      name: s.name,
      description: s.description,
      location: promptLocation(entryFor(index, s.name)!.record),
      uses: uses.get(s.name) ?? 0,
    }));
    return buildPrompt(skills, options.format ?? "xml", options.budgetChars, preloaded);
  }

  /** Resolves a name to one skill, refusing disabled skills ([R-1..5], [L0-4]). */
  async resolve(name: string, options: CatalogOption = {}): Promise<Resolved> {
    return this.resolveIn(name, await this.#catalogOf(options));
  }

  /**
   * {@linkcode resolve} in a given catalog, without waiting (for callers that hold one).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  resolveIn(
    name: string,
    catalog: Catalog,
    look: Look = oneLook(),
    audience?: Audience,
  ): Resolved {
    const resolved = resolveRemembered(name, catalog, look, audience);
    // Checked on the skill the name resolved to, whatever its spelling ([IO-3], [M-6]).
    shownOrNotFound(resolved, name, catalog, audience);
    if (isDisabled(this.visibility().disabled, resolved.record.name)) {
      throw new SkillDisabledError(resolved.record.name);
    }
    return resolved;
  }

  /**
   * Names of environment variables set in the process or in `<home>/.env`.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  envNames(): Set<string> {
    return envNamesOf(this.setup);
  }

  /**
   * Values of the variables asked for, only those whose ground holds ([P-7]).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  envValues(asks: EnvAsk[]): Promise<Record<string, string>> {
    return envValuesOf(this.setup, this.options, asks);
  }

  /**
   * Which of these programs are on PATH and which credential files exist under the home ([V-9]).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  probeReadiness(ask: ReadinessAsk): Promise<ReadinessAnswer> {
    return readinessOf(this.setup, this.options, ask);
  }

  /**
   * How a skill's content is preprocessed ([P-1..5]): template vars, arguments, gated inline shell.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  preprocessContext(record: SkillRecord, args?: string): PreprocessContext {
    return preprocessContextOf(this.setup, this.options, record, args);
  }

  /**
   * Resolves and loads one skill at Level 1. Pass one `catalog` to several loads (a
   * bundle's members) so that each root is walked once for all of them.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  async load(name: string, options: ViewOptions = {}): Promise<LoadedSkill> {
    const loaded = await this.#read(name, options);
    // The part asked for ([V-8]) before counting: an unknown section changes nothing.
    const view = partialView(loaded, options);
    // Count the use ([U-1]) in the home's one counter file, whatever root the skill is in;
    // no other root is ever written. A home that cannot be written gets no counts.
    // Concurrent views share one write of the file; a long-lived runtime does not wait for
    // it (written within a moment, and before close()), a command does. Another agent's
    // skill folder is only read: its skills are counted nowhere ([H-5]).
    if (agentOfSource(view.source) !== undefined) return { ...loaded, view };
    const now = new Date();
    const count = (map: UsageMap) => bumpView(map, loaded.view.name, now);
    const problem = this.options.watch
      ? deferUsageUpdate(this.setup.localRoot, count)
      : problemOf(await groupUpdateUsage(this.setup.localRoot, count));
    if (problem !== undefined) view.notes = [...view.notes ?? [], problem];
    return { ...loaded, view };
  }

  /** Resolves and loads one skill at Level 1 without counting the use. */
  async #read(name: string, options: ViewOptions): Promise<LoadedSkill> {
    const catalog = await this.#catalogOf(options);
    // A bare name walks the first root; with a helper, that walk is shared ([PERF-2]).
    const first = this.setup.roots[0];
    if (first && this.options.scanHelper && walksRoot(first, name.replace(/\/+$/, ""))) {
      await catalog.prefetch(this.options.scanHelper, [first]);
    }
    // One look at the paths this read relies on, shared by its steps.
    const look = oneLook();
    const resolved = this.resolveIn(name, catalog, look, options.audience);
    const { loadSkill } = await import("./view/view.ts");
    return await loadSkill(resolved, viewContextOf(this, resolved, catalog, options, look));
  }

  /** Level 1: one whole skill, preprocessed, with everything around it ([V-1..6], [P-1..6]). */
  async view(name: string, options: ViewOptions = {}): Promise<ViewResult> {
    return (await this.load(name, options)).view;
  }

  /** The message an agent injects when a user invokes a skill by slash command ([V-7]). */
  async invoke(
    name: string,
    instruction?: string,
    options: ViewOptions = {},
  ): Promise<InvokeResult> {
    // A bundle of that name wins over a skill ([B-2]).
    const bundle = loadBundles(this.setup.home).bundles.find((b) => b.name === name);
    if (bundle) {
      const catalog = await this.#catalogOf(options); // One walk of each root for all members.
      const load = (member: string) => this.load(member, { ...options, catalog });
      return await invokeBundle(bundle, load, this.setup.home, instruction);
    }
    const loaded = await this.load(name, options);
    const message = invocationMessage(loaded, this.setup.home, instruction);
    return { success: true, kind: "skill", name: loaded.view.name, message, chars: message.length };
  }

  /** Level 2: one file inside a skill ([F-1..3]). */
  async viewFile(name: string, path: string, options: ViewOptions = {}): Promise<FileResult> {
    return (await this.readFile(name, path, options)).result;
  }

  /**
   * Level 2 with the bytes: one file inside a skill, read once through one checked handle
   * ([S-9]); a community skill's text is sanitised and refused on an injection ([V-10]).
   */
  async readFile(name: string, path: string, options: ViewOptions = {}): Promise<ReadFile> {
    const catalog = await this.#catalogOf(options);
    const resolved = this.resolveIn(name, catalog, oneLook(), options.audience);
    const read = readSkillFile(resolved, path, this.setup.config.max_file_bytes, catalog.realRoots);
    const hub = hubEntryIn(this.setup, catalog, resolved.record);
    if (hub?.trust_level !== "community" || read.result.content === null) return read;
    const { untrustedFile } = await import("./view/untrusted.ts");
    const content = untrustedFile(read.result, hub, options.allowUntrusted === true);
    return { ...read, result: { ...read.result, content } };
  }

  /**
   * `setup NAME` ([V-9]): asks `ask` for each missing variable and config entry of a
   * skill, and stores the answers in `<home>/.env` and config.yaml; without a reader
   * it refuses (a usage error) listing what is missing.
   */
  async setupSkill(name: string, ask?: PromptReader): Promise<SetupResult> {
    const catalog = await this.#catalogOf({});
    const { runSkillSetup, setupNeeds } = await import("./home/skill_setup.ts");
    const needs = setupNeeds(name, catalog, this.setup, this.envNames());
    return await runSkillSetup(needs, this.setup, ask);
  }

  /**
   * Runs one script of a skill in a sandbox ([RUN-1..4]) with exactly the permissions the
   * skill declares (`metadata.skillrt.permissions`, or Codex's `agents/openai.yaml`): a
   * Deno script under `deno run` with those flags, anything else under bubblewrap. A
   * script outside the local root runs only once approved (`yes`, or `confirm` at a
   * terminal; never with `approvedOnly`). Its stdin is closed unless `stdin: "inherit"`.
   *
   * @example Run a local skill's script with an argument
   * ```ts ignore
   * import { SkillRuntime } from "@skillrt/skillrt";
   *
   * const runtime = new SkillRuntime();
   * const result = await runtime.run("pdf", "scripts/fill.py", {
   *   workdir: "./out",
   *   args: ["form one.pdf"],
   *   timeoutSeconds: 30,
   * });
   * console.log(result.exitCode, result.stdout);
   * ```
   * @throws {NotPermittedError} when the grant is refused, the script is not approved,
   *   or its sandbox is not usable here (exit 3), before anything runs.
   */
  async run(name: string, path: string, options: RunOptions = {}): Promise<RunResult> {
    const { runSkillScript } = await import("./run/run_skill.ts");
    return await runSkillScript(this, name, path, options);
  }
}
