/**
 * skillrt — a skill runtime for AI agents.
 *
 * A skill is a folder with a `SKILL.md` (YAML frontmatter + Markdown). skillrt shows an
 * agent a cheap map of all skills (Level 0), loads one skill in full when it is used
 * (Level 1), and one of its files only when needed (Level 2). It reads Hermes homes
 * (`~/.hermes`), Agent Skills and Claude Code skills.
 *
 * In-process, the runtime works with whatever permissions its host grants; an
 * unreadable root becomes a diagnostic ([X-4] in SPEC.md).
 *
 * @example
 * ```ts
 * import { SkillRuntime } from "./mod.ts";
 *
 * const runtime = new SkillRuntime({ home: "examples/home" });
 * const map = await runtime.list(); // Level 0
 * console.log(map.count, map.categories);
 * const skill = await runtime.view("docker-basics"); // Level 1
 * console.log(skill.linkedFiles?.references);
 * const file = await runtime.viewFile("docker-basics", "references/layers.md"); // Level 2
 * console.log(file.bytes);
 * ```
 *
 * @module
 */
export {
  type CatalogOption,
  type ListOptions,
  type PromptOptions,
  type RuntimeOptions,
  type SearchOptions,
  SkillRuntime,
  type ViewOptions,
} from "./src/runtime.ts";
export { openSandboxedRuntime, type SandboxedRuntime } from "./src/sandbox/sandboxed_runtime.ts";
export {
  AmbiguousError,
  type ErrorCode,
  errorOfCode,
  HubBlockedError,
  NotFoundError,
  NotPermittedError,
  SkillrtError,
  UsageError,
  ValidationError,
} from "./src/errors.ts";
export type { Diagnostic, Notice, Severity } from "./src/diagnostics.ts";
export type { SkillsConfig } from "./src/home/config.ts";
export type { HostFacts } from "./src/home/host.ts";
export type { AgentFolder } from "./src/home/agents.ts";
export {
  type AgentFolderState,
  type HomeLayout,
  type HomeLayoutOptions,
  type PluginRoot,
  resolveHomeLayout,
  type Root,
} from "./src/home/layout.ts";
export { resolveSetup, type Setup, type SetupOptions } from "./src/home/layout_deprecated.ts";
export type { SkillAbout, SkillRecord, SkillSource } from "./src/scan/record.ts";
export type { Invocation } from "./src/scan/invocation.ts";
export type {
  Audience,
  CategoriesResult,
  CategoryInfo,
  ListedSkill,
  ListResult,
} from "./src/level0/list.ts";
export type { HiddenReason } from "./src/level0/visibility.ts";
export type { PromptFormat, PromptResult } from "./src/level0/prompt.ts";
export type { ViewResult } from "./src/view/view.ts";
export type { OutlineEntry } from "./src/view/outline.ts";
export type { RequiredCommand, RequiredCredentialFile } from "./src/view/requirements.ts";
export type { RequiredEnvVar } from "./src/view/env_vars.ts";
export type { PromptReader, SetupQuestion, SetupResult } from "./src/home/skill_setup.ts";
export type { ContentWarning } from "./src/view/warnings.ts";
export type { FileSummary, LinkedFiles } from "./src/view/skill_files.ts";
export type { FileResult, ReadFile } from "./src/files/file_view.ts";
export type { Finding, Profile } from "./src/validate/rules.ts";
export type { ValidateResult } from "./src/validate/validate.ts";
export type { ErrorDetails } from "./src/errors.ts";
export type { InvokeResult } from "./src/view/invoke.ts";
export type { Resolved } from "./src/resolve/resolve.ts";
export type { Frontmatter } from "./src/frontmatter/parse.ts";
export type { SkillFiles } from "./src/view/skill_files.ts";
export type { PermissionPlan } from "./src/warden/plan.ts";
export type { WatchStatus } from "./src/scan/watch_cache.ts";
export type { FsWatch, WatchOpener } from "./src/scan/watch_source.ts";
export type { RunOptions, RunResult } from "./src/run/run_skill.ts";
export type { ConsentOptions } from "./src/run/approve.ts";
export type { SandboxKind } from "./src/run/sandbox_line.ts";
export type { Grant } from "./src/run/grant.ts";
export type { Declared } from "./src/run/permissions.ts";
export type { SandboxHost } from "./src/run/sandbox_host.ts";
export type { SystemEntry } from "./src/run/bwrap_args.ts";
export type { EnvAsk, EnvGround } from "./src/preprocess/env_access.ts";
export type { ProcessGroups } from "./src/preprocess/process_group.ts";
