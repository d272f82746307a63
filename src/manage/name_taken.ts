/**
 * A skill's name taken by another ([S-7], [M-2]): the refusal of a create under an existing
 * skill's name, or of content that declares another skill's name, carrying the skill that
 * has it — so a caller that must not name that skill (MCP, for one hidden from the model,
 * [IO-3]) can answer without it.
 *
 * @module
 */
import { type ErrorCode, SkillrtError } from "../errors.ts";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { parseFrontmatter } from "../frontmatter/parse.ts";
import type { Catalog } from "../scan/catalog.ts";
import { sameName } from "../scan/name_key.ts";
import type { SkillRecord } from "../scan/record.ts";

/**
 * A name another skill has: the message names it, `taken` is that skill. Its family is
 * `failed` for a create under the name, `invalid` for content declaring it.
 */
export class NameTakenError extends SkillrtError {
  /** `failed` or `invalid`. */
  override readonly code: ErrorCode;
  /** The skill that has the name. */
  readonly taken: SkillRecord;
  /** Refuses with `message`, the name being `taken`'s. */
  constructor(message: string, taken: SkillRecord, code: "failed" | "invalid" = "failed") {
    super(message);
    this.code = code;
    this.taken = taken;
    this.name = "NameTakenError";
  }
}

/** The `name` a SKILL.md's content declares in its frontmatter, if it declares one. */
function declaredName(content: string): string | undefined {
  const fence = splitFrontmatter(content);
  const declared = fence.kind === "ok" ? parseFrontmatter(fence.yaml).data.name : undefined;
  return typeof declared === "string" ? declared : undefined;
}

/**
 * What `create`, `edit` and a patch of SKILL.md say of a SKILL.md whose `name:` differs from its folder: a
 * warning (it is then listed and found by that name, not the folder's), and a refusal when
 * another skill of the local root already declares that name — the name would become
 * ambiguous, and `list`, `view` and every command would refuse it ([S-7]).
 */
export function declaredNameWarnings(
  content: string,
  folder: string,
  catalog: Catalog,
  self?: string,
): string[] {
  const declared = declaredName(content);
  if (declared === undefined || sameName(declared, folder)) return [];
  const local = catalog.setup.localRoot;
  const other = catalog.index().records.find((r) =>
    r.root === local && r.skillDir !== self && sameName(r.name, declared)
  );
  if (other) {
    throw new NameTakenError(
      `The content declares name '${declared}', which the skill at ${other.skillDir} already has: the name would be ambiguous. Use name: ${folder}, or another name.`,
      other,
      "invalid",
    );
  }
  return [
    `The content declares name '${declared}', not '${folder}': the skill is listed and found as '${declared}'.`,
  ];
}
