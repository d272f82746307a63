/**
 * The shapes of a management action and of the change it computes ([M-1], [B-3]), and the
 * names of the actions: shared by the skill actions (`actions.ts`), the bundle actions
 * (`bundle_actions.ts`), the writers, the approval queue, and every front end that offers
 * them (the command table, MCP's `skill_manage`, the home's skeleton).
 *
 * @module
 */
import type { Actor } from "../usage/usage.ts";

/** A bundle action as given on the command line, over MCP, or staged for approval. */
export type BundleAction =
  | {
    action: "bundle-create";
    name: string;
    skills: string[];
    description?: string;
    instruction?: string;
  }
  | {
    action: "bundle-edit";
    name: string;
    skills?: string[];
    description?: string;
    instruction?: string;
  }
  | { action: "bundle-delete"; name: string };

/** One skill action of [M-1]. */
export type SkillAction =
  | {
    action: "create";
    name: string;
    category?: string;
    content: string;
    /** Empty support folders made with it (`init`). */
    dirs?: string[];
  }
  | { action: "edit"; name: string; content: string }
  | {
    action: "patch";
    name: string;
    old: string;
    new: string;
    file_path?: string;
    replace_all?: boolean;
  }
  | { action: "delete"; name: string; absorbed_into?: string }
  | {
    action: "write-file";
    name: string;
    path: string;
    content: string;
    encoding?: "utf8" | "base64";
  }
  | { action: "remove-file"; name: string; path: string };

/** The skill actions of [M-1], in the order help lists them; each is a command of its own. */
export const SKILL_ACTIONS = [
  "create",
  "edit",
  "patch",
  "delete",
  "write-file",
  "remove-file",
] as const satisfies readonly SkillAction["action"][];

/** True when `name` is one of the {@linkcode SKILL_ACTIONS}. */
export function isSkillAction(name: string): name is SkillAction["action"] {
  return (SKILL_ACTIONS as readonly string[]).includes(name);
}

/** The bundle actions of [B-3], as a management action names them. */
export const BUNDLE_ACTIONS: readonly string[] = [
  "bundle-create",
  "bundle-edit",
  "bundle-delete",
] satisfies BundleAction["action"][];

/** The `bundle` sub-actions that write ([B-3]): `bundle create|edit|delete`. */
export const BUNDLE_WRITE_ACTIONS: readonly string[] = BUNDLE_ACTIONS.map((a) =>
  a.slice("bundle-".length)
);

/**
 * One management action, as given on the command line, over MCP or staged for approval:
 * a skill action or a bundle action, with who asks for it (`user` when absent; set by
 * skillrt — the CLI or the MCP server — never taken from a caller's arguments).
 */
export type ManageAction = (SkillAction | BundleAction) & { actor?: Actor };

/** One file an action changes: its text before and after (null = absent). */
export interface FileChange {
  /** Absolute path. */
  path: string;
  /** Path relative to the skill folder, for diffs. */
  rel: string;
  /** Content before, or null when the file is new. */
  before: string | null;
  /** Content after (bytes for binary support files), or null when it is removed. */
  after: string | Uint8Array | null;
}

/** An action checked and computed, not yet applied. */
export interface PreparedChange {
  /** The action. */
  action: ManageAction;
  /** The skill's name as used in usage counters. */
  name: string;
  /** A one-line description. */
  summary: string;
  /** The root written. */
  root: string;
  /** The skill folder. */
  skillDir: string;
  /** Files written or removed. */
  files: FileChange[];
  /** A folder removed with everything in it (delete). */
  removeDir?: string;
  /** A folder removed when it is left empty (an emptied category). */
  removeIfEmpty?: string;
  /** Empty support folders made in the skill folder (`init`, [M-6]). */
  dirs?: string[];
  /** How the usage counters change (`none`: a bundle, which has none). */
  usage: "create" | "patch" | "forget" | "none";
  /** The bundle file written or removed, for a bundle action ([B-3]). */
  bundleFile?: string;
  /** What the caller should know (a bundle member that names no skill). */
  warnings?: string[];
}
