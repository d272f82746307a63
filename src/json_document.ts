/**
 * The one place where TypeScript field names become JSON document names ([C-2]).
 *
 * The library's types use `camelCase` fields (`skillDir`, `linkedFiles`); the documents
 * skillrt prints — `--json` output, MCP results, error documents — keep the `snake_case`
 * names Hermes and the SPEC use (`skill_dir`, `linked_files`). Only the fields named in
 * {@linkcode JSON_NAMES} are renamed, so data keyed by names (categories, env variables,
 * file names) passes unchanged, and nothing below a field of {@linkcode OPAQUE_FIELDS}
 * (a skill's own frontmatter, config values) is touched.
 *
 * Types that describe a file on disk (`lock.json` entries, usage records, pending
 * records, the `skills:` mapping of config.yaml) keep the file's own names; they are
 * documents, not results.
 *
 * @example
 * ```ts
 * import { toJsonDocument } from "./json_document.ts";
 *
 * const doc = toJsonDocument({ skillDir: "/h/skills/a", frontmatter: { skillDir: 1 } });
 * // { skill_dir: "/h/skills/a", frontmatter: { skillDir: 1 } }
 * console.log(JSON.stringify(doc));
 * ```
 *
 * @module
 */

/** Every camelCase result field and its name in JSON documents. */
export const JSON_NAMES: Readonly<Record<string, string>> = Object.freeze({
  relatedSkills: "related_skills",
  skillDir: "skill_dir",
  linkedFiles: "linked_files",
  fileSummaries: "file_summaries",
  usageHint: "usage_hint",
  requiredEnvironmentVariables: "required_environment_variables",
  missingRequiredEnvironmentVariables: "missing_required_environment_variables",
  firstParagraph: "first_paragraph",
  requiredCommands: "required_commands",
  missingRequiredCommands: "missing_required_commands",
  requiredCredentialFiles: "required_credential_files",
  missingRequiredCredentialFiles: "missing_required_credential_files",
  setupNeeded: "setup_needed",
  readinessStatus: "readiness_status",
  requiredFor: "required_for",
  availableCategories: "available_categories",
  estimatedTokens: "estimated_tokens",
  budgetChars: "budget_chars",
  descriptionsDropped: "descriptions_dropped",
  overBudget: "over_budget",
  fileType: "file_type",
  availableFiles: "available_files",
  homeExists: "home_exists",
  localRoot: "local_root",
  configFile: "config_file",
  configExists: "config_exists",
  projectRoot: "project_root",
  envNames: "env_names",
  userHome: "user_home",
  shellEnv: "shell_env",
  storedEnv: "stored_env",
  storedConfig: "stored_config",
  stillMissing: "still_missing",
  disableModelInvocation: "disable_model_invocation",
  userInvocable: "user_invocable",
  whenToUse: "when_to_use",
  argumentHint: "argument_hint",
  commandLine: "command_line",
  exitCode: "exit_code",
  filesSha256: "files_sha256",
  timedOut: "timed_out",
  declaredIn: "declared_in",
  workDir: "work_dir",
  installPath: "install_path",
  trustLevel: "trust_level",
  scanVerdict: "scan_verdict",
  scanFindings: "scan_findings",
  contentHash: "content_hash",
  signedBy: "signed_by",
  declaredName: "declared_name",
  collectionPath: "collection_path",
  installedAt: "installed_at",
  updatedAt: "updated_at",
  createdAt: "created_at",
  daysUnused: "days_unused",
  createdBy: "created_by",
  agentCreated: "agent_created",
  agentCreatedOnly: "agent_created_only",
  dryRun: "dry_run",
  markedStale: "marked_stale",
  originPath: "origin_path",
  archivedAt: "archived_at",
  agentFolders: "agent_folders",
  denoPath: "deno_path",
  bwrapPath: "bwrap_path",
  userModified: "user_modified",
  userDeleted: "user_deleted",
  pendingId: "pending_id",
});

/** Fields whose values are data as written by someone else: never renamed inside. */
export const OPAQUE_FIELDS: ReadonlySet<string> = new Set(["frontmatter", "config", "shellEnv"]);

/** Each JSON name and its camelCase field: {@linkcode JSON_NAMES} turned round. */
const FIELD_NAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(JSON_NAMES).map(([field, name]) => [name, field])),
);

/**
 * A copy of `value` with result field names in their JSON form. Arrays and plain
 * objects are copied; other values (strings, numbers, null) are returned as they are.
 */
export function toJsonDocument(value: unknown): unknown {
  return renamed(value, JSON_NAMES);
}

/**
 * The inverse of {@linkcode toJsonDocument}: a JSON document's result fields in their
 * camelCase form (for results that crossed a process or Worker boundary as JSON).
 */
export function fromJsonDocument(value: unknown): unknown {
  return renamed(value, FIELD_NAMES);
}

function renamed(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((v) => renamed(v, names));
  if (value === null || typeof value !== "object") return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const name = Object.hasOwn(names, key) ? names[key] : key;
    const copy = OPAQUE_FIELDS.has(key) || OPAQUE_FIELDS.has(name) ? child : renamed(child, names);
    // A data key `__proto__` stays a plain own property, never the object's prototype.
    if (name === "__proto__") {
      Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true });
    } else out[name] = copy;
  }
  return out;
}
