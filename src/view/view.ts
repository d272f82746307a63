/**
 * Level 1 ([V-1..6], [V-9]): one whole SKILL.md with what an agent needs around it — linked
 * files and their summaries, required environment, programs and credential files, config
 * values, readiness, warnings.
 *
 * @module
 */
import { SkillrtError, ValidationError } from "../errors.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import type { Resolved } from "../resolve/resolve.ts";
import { buildRecord, type SkillRecord } from "../scan/record.ts";
import { openSkillFile, type Reach, reachOf } from "../scan/containment.ts";
import { openedSize, readCapped } from "../files/open_inside.ts";
import { basename } from "../home/paths.ts";
import { type Look, watcherSees } from "../scan/watcher_sees.ts";
import {
  configBlock,
  configEntries,
  rawConfigValues,
  resolveConfig,
  type ResolvedConfig,
} from "../preprocess/config_block.ts";
import type { EnvAsk } from "../preprocess/env_access.ts";
import { preprocess, type PreprocessContext } from "../preprocess/preprocess.ts";
import { type RequiredEnvVar, requiredEnvVars } from "./env_vars.ts";
import {
  type FileSummary,
  type LinkedFiles,
  type SkillFilesFacts,
  skillFilesFacts,
} from "./skill_files.ts";
import { type ContentWarning, contentWarnings } from "./warnings.ts";
import {
  refuseInjection,
  sanitizeUntrusted,
  untrustedBanner,
  type UntrustedOrigin,
} from "./untrusted.ts";
import { platformMatches } from "../level0/visibility.ts";
import type { OutlineEntry } from "./outline.ts";
import type { ReadinessProbe } from "../home/readiness_probe.ts";
import { readinessOf, refusedNote } from "./readiness.ts";
import type { RequiredCommand, RequiredCredentialFile } from "./requirements.ts";

/** The success document of `view NAME` ([V-1]). */
export interface ViewResult {
  /** Always true. */
  success: true;
  /** Name. */
  name: string;
  /** Description. */
  description: string;
  /** Category or null. */
  category: string | null;
  /** Tags. */
  tags: string[];
  /** Related skills. */
  relatedSkills: string[];
  /** `version` from the frontmatter, or null ([V-10]). */
  version: string | null;
  /** `author` from the frontmatter, or null. */
  author: string | null;
  /** `license` from the frontmatter, or null. */
  license: string | null;
  /** `disable-model-invocation: true`: never shown to the model, invoked by name only ([IO-3]). */
  disableModelInvocation: boolean;
  /** False with `user-invocable: false`: not offered as a slash command (MCP prompt). */
  userInvocable: boolean;
  /** `when_to_use`, or null (the model reads it after the description). */
  whenToUse: string | null;
  /** `argument-hint`, or null (shown with the skill's MCP prompt and `invoke NAME --help`). */
  argumentHint: string | null;
  /** The root's kind. */
  source: string;
  /** The whole SKILL.md, preprocessed. */
  content: string;
  /** The skill folder relative to its root. */
  path: string;
  /** The skill folder, absolute. */
  skillDir: string;
  /** Support files by folder, or null. */
  linkedFiles: LinkedFiles;
  /** Title and first paragraph of each linked text file. */
  fileSummaries: FileSummary[];
  /** How to open a linked file, when there are any. */
  usageHint: string | null;
  /** Variables the skill needs. */
  requiredEnvironmentVariables: RequiredEnvVar[];
  /** Those of them not set in the environment or `<home>/.env`. */
  missingRequiredEnvironmentVariables: string[];
  /** Programs the skill needs on PATH ([V-9]). */
  requiredCommands: RequiredCommand[];
  /** Those not found on PATH. */
  missingRequiredCommands: string[];
  /** Files the skill needs under the home ([V-9]). */
  requiredCredentialFiles: RequiredCredentialFile[];
  /** Those not present under the home. */
  missingRequiredCredentialFiles: string[];
  /** True when any required variable, program or credential file is missing. */
  setupNeeded: boolean;
  /** `available` or `setup_needed`. */
  readinessStatus: "available" | "setup_needed" | "unsupported";
  /** Resolved config values by key. */
  config: Record<string, unknown>;
  /** Content warnings ([V-6]). */
  warnings: ContentWarning[];
  /** Problems around the skill that did not stop the view (a corrupt usage file). */
  notes?: string[];
  /** With `--brief`: every heading with its slug and section size ([V-8]). */
  outline?: OutlineEntry[];
  /** With `--brief`: the first paragraph of the body ([V-8]). */
  firstParagraph?: string;
  /** With `--section`: the slugs of the sections returned, in the text's order ([V-8]). */
  sections?: string[];
}

/** What a view needs besides the skill itself. */
export interface ViewContext {
  /** The current platform. */
  platform: string;
  /** Names of set environment variables (process and `.env`). */
  envNames: ReadonlySet<string>;
  /** `skills.config` values from config.yaml. */
  configValues: Record<string, unknown>;
  /** config.yaml's path, named in the config block. */
  configFile: string;
  /** The user's home, for `~` in config values. */
  userHome?: string;
  /** Largest SKILL.md read, in bytes. */
  maxBytes: number;
  /** Refuse a skill with warnings instead of loading it ([V-6]). */
  strict?: boolean;
  /** Set for a `community`-trust hub skill: its content is sanitised and checked ([V-10]). */
  untrusted?: UntrustedOrigin;
  /** Load an untrusted skill even when it holds an injection instruction ([V-10]). */
  allowUntrusted?: boolean;
  /** Sibling skill names, for plugin skills ([V-5]). */
  siblings?: string[];
  /** How to preprocess this skill's content ([P-1..5]); the content is kept as written when absent. */
  preprocess?: (record: SkillRecord) => PreprocessContext;
  /** Values of the environment variables asked for (the warden answers for a sandboxed Worker). */
  env: (asks: EnvAsk[]) => Promise<Record<string, string>>;
  /** `skills.env_passthrough` ([P-7]). */
  envPassthrough: readonly string[];
  /** The skill's hub trust level, when it was installed from the hub ([P-7]). */
  trust?: (record: SkillRecord) => string | undefined;
  /** The real paths of every root of the setup ([S-9]); the skill's own root when absent. */
  realRoots?: readonly string[];
  /** Looks programs up on PATH and credential files under the home ([V-9]); all missing when absent. */
  probe?: ReadinessProbe;
  /**
   * Remembers what a view reads from disk while nothing can have changed it (the watched
   * catalog's `memo`); everything is read on every view when absent.
   */
  memo?: <T>(key: string, compute: () => T) => T;
  /** `memo` for what is read on another thread: one promise, shared while it runs. */
  memoAsync?: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
  /**
   * Reads a skill folder's files on a helper thread (a long-lived runtime's), so that a
   * skill's first view does not hold up every other call; this thread reads when absent.
   */
  readFiles?: (dir: string, reach: Reach) => Promise<SkillFilesFacts>;
  /** Whether the watchers see every change at a path, as this call looks (`watcherSees`). */
  look?: Look;
}

/** A loaded skill: the view, and the parts an invocation message is built from. */
export interface LoadedSkill {
  /** The view document. */
  view: ViewResult;
  /** The preprocessed content without banner or config block. */
  body: string;
  /** The config block (empty when the skill declares no config). */
  configBlock: string;
  /** The plugin banner of [V-5] (empty for other skills). */
  banner: string;
}

/**
 * Reads a whole SKILL.md (or flat `.md`) with the Level-1 limits: size and strict UTF-8.
 * The file is opened as [S-9] allows (see `openSkillFile`) and read through that handle.
 */
export function readSkillText(record: SkillRecord, maxBytes: number, reach: Reach): string {
  const name = record.name;
  using file = openSkillFile(record.skillDir, basename(record.file), reach);
  const bytes = openedSize(file, record.file);
  const data = bytes > maxBytes ? null : readCapped(file, maxBytes);
  if (data === null) {
    throw new ValidationError(
      `SKILL.md of skill '${name}' is ${bytes} bytes; the limit is ${maxBytes} bytes.`,
      { bytes, limit: maxBytes },
    );
  }
  const decoded = decodeUtf8(data);
  if (decoded.invalid) throw new ValidationError(`SKILL.md of skill '${name}' is not valid UTF-8.`);
  return decoded.text;
}

/** The plugin banner of [V-5]. */
export function pluginBanner(namespace: string, siblings: string[]): string {
  const example = siblings[0] ?? "skill";
  return `[Bundle context: This skill is part of the '${namespace}' plugin.\nSibling skills: ${
    siblings.join(", ")
  }.\nUse qualified form to invoke siblings (e.g. ${namespace}:${example}).]\n\n`;
}

/** A skill's config values ([P-6]) under the environment rule of [P-7]. */
function skillConfig(
  record: SkillRecord,
  declared: string[],
  ctx: ViewContext,
): Promise<ResolvedConfig> {
  let trust: { level?: string } | undefined;
  const skill = {
    skill: record.name,
    declared,
    // Read from the hub lock (once) only when a skill's value names a variable.
    get trust() {
      trust ??= { level: ctx.trust?.(record) };
      return trust.level;
    },
  };
  return resolveConfig(
    rawConfigValues(configEntries(record), ctx.configValues),
    skill,
    { passthrough: ctx.envPassthrough, userConfig: ctx.configValues },
    ctx.env,
    ctx.userHome,
  );
}

/**
 * Remembers what a view reads of one skill while nothing can change it: keyed by the
 * skill's own paths, and only while the watcher of its root sees every change there
 * (`watcherSees`: no link on the way to its SKILL.md, looked at on every view). A skill
 * reached through a link is read on every view: no watcher sees its target change.
 */
interface ViewCache {
  memo: <T>(key: string, compute: () => T) => T;
  memoAsync: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
}

function viewCache(ctx: ViewContext, head: SkillRecord): ViewCache {
  const seen = ctx.memo !== undefined && (ctx.look ?? watcherSees)(head.root, head.file);
  return {
    memo: (seen && ctx.memo) || ((_key, compute) => compute()),
    memoAsync: (seen && ctx.memoAsync) || ((_key, compute) => compute()),
  };
}

/** The skill's text, its warnings and its record as built from that text. */
function readRecord(resolved: Resolved, ctx: ViewContext, cache: ViewCache) {
  const head = resolved.record;
  const reach = reachOf(head.source, ctx.realRoots ?? [head.root]);
  const { text, warnings } = cache.memo(
    `text\0${head.source}\0${head.file}\0${ctx.maxBytes}`,
    () => {
      const text = readSkillText(head, ctx.maxBytes, reach);
      return { text, warnings: contentWarnings(text) };
    },
  );
  const folder = head.path.split("/").pop() || head.skillDir.split("/").pop()!;
  const record = buildRecord(
    {
      file: head.file,
      dir: head.skillDir,
      rel: head.path,
      root: head.root,
      source: head.source,
      namespace: head.namespace,
      fallbackName: resolved.flat ? folder.replace(/\.md$/, "") : folder,
      flat: resolved.flat,
    },
    splitFrontmatter(text, true),
  );
  return { text, warnings, record, reach };
}

/** Refuses a skill of another platform ([V-3]), one with warnings under --strict ([V-6]), an injection ([V-10]). */
function refuseUnloadable(
  record: SkillRecord,
  text: string,
  warnings: ContentWarning[],
  ctx: ViewContext,
): void {
  if (!platformMatches(record.frontmatter, ctx.platform)) {
    throw new SkillrtError(`Skill '${record.name}' is not supported on this platform.`, {
      readinessStatus: "unsupported",
    });
  }
  if (ctx.strict && warnings.length) {
    throw new ValidationError(
      `Skill '${record.name}' was refused under --strict: ${warnings[0].message}`,
      { warnings },
    );
  }
  if (ctx.untrusted) refuseInjection(record.name, text, ctx.untrusted, ctx.allowUntrusted === true);
}

/**
 * The linked files and their summaries ([V-2]), copied: a caller may change its view.
 * Read on the helper thread when there is one (and here should it fail).
 */
async function filesOf(
  resolved: Resolved,
  record: SkillRecord,
  reach: Reach,
  cache: ViewCache,
  { readFiles }: ViewContext,
): Promise<SkillFilesFacts> {
  if (resolved.flat) return { linked: null, summaries: [] };
  const dir = record.skillDir;
  const here = () => skillFilesFacts(dir, reach);
  // Remembered while the watcher reports nothing in the skill (its SKILL.md looked at, see
  // viewCache). A listed file swapped for a link by a move the watcher cannot report keeps
  // its old summary until then; reading it is proved again (Level 2) and refused.
  const files = await cache.memoAsync(
    `files\0${record.source}\0${dir}`,
    () => readFiles ? readFiles(dir, reach).catch(here) : Promise.resolve(here()),
  );
  const linked = files.linked && {
    references: [...files.linked.references],
    templates: [...files.linked.templates],
    assets: [...files.linked.assets],
    scripts: [...files.linked.scripts],
  };
  return { linked, summaries: files.summaries.map((summary) => ({ ...summary })) };
}

/** What the skill still needs ([V-4], [V-9]): variables, programs, credential files. */
async function readinessView(record: SkillRecord, vars: RequiredEnvVar[], ctx: ViewContext) {
  const missing = vars.filter((v) => !ctx.envNames.has(v.name)).map((v) => v.name);
  const { refused, ...ready } = await readinessOf(record.frontmatter, ctx.probe);
  const needed = missing.length + ready.missingRequiredCommands.length +
      ready.missingRequiredCredentialFiles.length > 0;
  return {
    fields: {
      requiredEnvironmentVariables: vars,
      missingRequiredEnvironmentVariables: missing,
      ...ready,
      setupNeeded: needed,
      readinessStatus: needed ? "setup_needed" as const : "available" as const,
    },
    notes: refused.map(refusedNote),
  };
}

/** Loads a resolved skill at Level 1 ([V-1..6], [P-1..6]). */
export async function loadSkill(resolved: Resolved, ctx: ViewContext): Promise<LoadedSkill> {
  const cache = viewCache(ctx, resolved.record);
  const { text, warnings, record, reach } = readRecord(resolved, ctx, cache);
  refuseUnloadable(record, text, warnings, ctx);
  const shown = ctx.untrusted ? sanitizeUntrusted(text) : text;
  const body = ctx.preprocess ? await preprocess(shown, ctx.preprocess(record)) : shown;
  const { vars } = requiredEnvVars(record.frontmatter);
  const resolvedConfig = await skillConfig(record, vars.map((v) => v.name), ctx);
  const config = resolvedConfig.values;
  const block = configBlock(config, ctx.configFile);
  const banner = (ctx.untrusted ? untrustedBanner(record.name, ctx.untrusted) : "") +
    (record.namespace ? pluginBanner(record.namespace, ctx.siblings ?? []) : "");
  const { linked, summaries } = await filesOf(resolved, record, reach, cache, ctx);
  const readiness = await readinessView(record, vars, ctx);
  const notes = [...resolvedConfig.notes, ...readiness.notes];
  const view: ViewResult = {
    success: true,
    name: record.name,
    description: record.description,
    category: record.category,
    tags: record.tags,
    relatedSkills: record.relatedSkills,
    version: record.about.version ?? null,
    author: record.about.author ?? null,
    license: record.about.license ?? null,
    disableModelInvocation: record.invocation.disableModelInvocation === true,
    userInvocable: record.invocation.userInvocable !== false,
    whenToUse: record.invocation.whenToUse ?? null,
    argumentHint: record.invocation.argumentHint ?? null,
    source: record.source,
    content: banner + (block ? `${block}\n\n` : "") + body,
    path: record.path,
    skillDir: record.skillDir,
    linkedFiles: linked,
    fileSummaries: summaries,
    usageHint: linked
      ? `To view linked files, call skill_view(name, file_path) where file_path is e.g. '${
        Object.values(linked).flat()[0]
      }'`
      : null,
    ...readiness.fields,
    config,
    warnings: warnings.map((warning) => ({ ...warning })),
    ...(notes.length ? { notes } : {}),
  };
  return { view, body, configBlock: block, banner };
}
