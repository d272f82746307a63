/**
 * The options of `SkillRuntime`: how to open one, and what each call takes
 * (the catalog it reads, list/view/prompt options).
 *
 * @module
 */
import type { HomeLayout, HomeLayoutOptions } from "./home/layout.ts";
import type { PromptFormat } from "./level0/prompt.ts";
import type { Audience } from "./level0/list.ts";
import type { Catalog } from "./scan/catalog.ts";
import type { HelperSource } from "./scan/parallel.ts";
import type { WatchOpener } from "./scan/watch_source.ts";
import type { EnvAsk } from "./preprocess/env_access.ts";
import type { ProcessGroups } from "./preprocess/process_group.ts";
import type { ReadinessProbe } from "./home/readiness_probe.ts";

/** How to open a runtime. */
export interface RuntimeOptions extends HomeLayoutOptions {
  /**
   * A home layout computed elsewhere (the warden's).
   * @default {computed from the other options}
   */
  setup?: HomeLayout;
  /**
   * The platform for `skills.platform_disabled` (`--platform`).
   * @default {`$HERMES_PLATFORM`}
   */
  platform?: string;
  /** The session id for `${HERMES_SESSION_ID}`. */
  sessionId?: string;
  /**
   * Available toolsets: when given, `requires_toolsets`/`fallback_for_toolsets` apply ([L0-5]).
   * @default {undefined (those conditions are not applied)}
   */
  toolsets?: string[];
  /**
   * Available tools: when given, `requires_tools`/`fallback_for_tools` apply.
   * @default {undefined (those conditions are not applied)}
   */
  tools?: string[];
  /**
   * Keep scanned roots between calls, invalidated by a file watcher (for long-lived
   * processes: every call reads the watched roots). Call `close()` when done.
   * @default {false}
   */
  watch?: boolean;
  /**
   * Gets a scan helper Worker when a scan is big enough to share: `list`, `search` and
   * `prompt` through `SkillRuntime.currentCatalog()`, and a bare-name view, then read
   * skill heads on two threads (the CLI's sandbox Worker asks the warden for one).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  scanHelper?: HelperSource;
  /**
   * With `watch`: a folder this process may write in, used to prove freshness.
   * @default {a temp folder}
   */
  watchSentinel?: string;
  /**
   * With `watch`: opens the file watchers, one per root. When absent they open in a
   * helper Worker this runtime starts, so that setting up thousands of watches never
   * blocks a call. A root it cannot watch is validated by modification times on every
   * call instead (and `doctor` names it).
   * @default {a watch helper Worker this runtime starts}
   */
  watchOpener?: WatchOpener;
  /**
   * With `watch`: gets the port of a watch helper Worker (the sandbox Worker asks the warden).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  watchHelper?: () => MessagePort;
  /**
   * Values of environment variables, for `${VAR}` in skill config ([P-6]), asked for only
   * on the grounds of [P-7]. Reads this process's environment (where permitted) when
   * absent; the sandbox Worker asks the warden.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  envValues?: (asks: EnvAsk[]) => Promise<Record<string, string>>;
  /**
   * Who kills inline-shell process groups ([P-4]); when absent the runtime does it itself
   * (which needs an unrestricted run grant; the sandbox Worker asks the warden).
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  processGroups?: ProcessGroups;
  /**
   * Looks programs up on PATH and credential files under the home ([V-9]); this process
   * does it itself (by `stat`, as far as its permissions allow) when absent; the sandbox
   * Worker asks the warden.
   *
   * @ignore Internal: for the CLI's sandbox Worker and the MCP server.
   */
  readiness?: ReadinessProbe;
}

/**
 * The catalog a call reads. Every operation takes one in its options; without it, a call
 * reads the runtime's current catalog (`SkillRuntime.currentCatalog()`): with
 * `watch: true` one catalog kept fresh by the watcher and shared by every call, otherwise
 * a fresh scan.
 */
export interface CatalogOption {
  /**
   * Read this catalog (several calls of one command share one).
   *
   * @ignore Internal: for the CLI's commands and the MCP server, which share one per request.
   */
  catalog?: Catalog;
}

/** Options of `SkillRuntime.search()`. */
export interface SearchOptions extends CatalogOption {
  /**
   * Who reads the answer: `model` leaves out `disable-model-invocation` skills and puts `when_to_use` in the description ([IO-3]).
   * @default {"people"}
   */
  audience?: Audience;
}

/** Options of `SkillRuntime.list()`. */
export interface ListOptions extends SearchOptions {
  /**
   * Only skills of this top-level category.
   * @default {every category}
   */
  category?: string;
  /**
   * Also the skills Level 0 hides (platform, environment, disabled, conditions), each with `hidden` ([L0-9]).
   * @default {false}
   */
  all?: boolean;
}

/** Options of `SkillRuntime.view()` and `SkillRuntime.invoke()`. */
export interface ViewOptions extends CatalogOption {
  /**
   * Who reads it: the `model` is answered not-found for a `disable-model-invocation` skill ([IO-3]).
   * @default {"people"}
   */
  audience?: Audience;
  /**
   * Refuse a skill whose content has warnings ([V-6]).
   * @default {false}
   */
  strict?: boolean;
  /** Text for `$ARGUMENTS`, `$ARGUMENTS[N]` and `$N` ([P-5]). */
  args?: string;
  /**
   * Load a `community`-trust skill even when it holds an injection instruction ([V-10]).
   * @default {false}
   */
  allowUntrusted?: boolean;
  /**
   * `view` only: the outline and first paragraph instead of the content ([V-8]).
   * @default {false}
   */
  brief?: boolean;
  /**
   * `view` only: just these sections, by slug ([V-8]).
   * @default {every section}
   */
  sections?: readonly string[];
}

/** Options of `SkillRuntime.prompt()`. */
export interface PromptOptions extends CatalogOption {
  /**
   * `xml`, `markdown` or `json`.
   * @default {"xml"}
   */
  format?: PromptFormat;
  /**
   * Largest size in characters (preloaded content included); descriptions of the least-used skills go first.
   * @default {no limit}
   */
  budgetChars?: number;
  /**
   * Skills whose full preprocessed content follows the block ([L0-10]).
   * @default {[]}
   */
  preload?: readonly string[];
}
