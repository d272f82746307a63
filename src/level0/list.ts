/**
 * Level 0 ([L0-1], [L0-6], [L0-7]): the cheap map of all visible skills, their
 * categories, and a ranked search — pure functions over an index.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import type { SkillIndex } from "../scan/skill_index.ts";
import type { SkillRecord } from "../scan/record.ts";
import { type Invocation, modelDescription } from "../scan/invocation.ts";
import { type Audience, shownTo } from "../scan/audience.ts";
import { type HiddenReason, hiddenReason, isVisible, type VisibilityFacts } from "./visibility.ts";
import { queryWords, wordMatch, wordsOf } from "./search_words.ts";

/** One skill as `list` shows it; Claude Code's invocation fields when set ([IO-3]). */
export interface ListedSkill extends Invocation {
  /** Name. */
  name: string;
  /** Description. */
  description: string;
  /** Top-level category, or null. */
  category: string | null;
  /** Tags. */
  tags: string[];
  /** Present and true when two skills of this name share a root ([S-7]). */
  ambiguous?: true;
  /** The colliding skills' paths, when ambiguous. */
  matches?: string[];
  /** Search relevance, for `search` only. */
  score?: number;
  /** `version`, when the skill declares one ([V-10]). */
  version?: string;
  /** `author`, when declared. */
  author?: string;
  /** `license`, when declared. */
  license?: string;
  /** With `list --all`: why Level 0 hides this skill ([L0-9]). */
  hidden?: HiddenReason;
}

/** The JSON of `list --categories` ([L0-6]). */
export interface CategoriesResult {
  /** Always true. */
  success: true;
  /** One entry per category. */
  categories: CategoryInfo[];
  /** Number of categories. */
  count: number;
}

/** The JSON of `list` ([L0-1]). */
export interface ListResult {
  /** Always true. */
  success: true;
  /** Visible skills sorted by (category, name). */
  skills: ListedSkill[];
  /** Sorted categories of the listed skills. */
  categories: string[];
  /** Number of skills. */
  count: number;
  /** How to go on, when there are skills. */
  hint?: string;
  /** `No skills found.`, when there are none. */
  message?: string;
  /** With `--category` naming no category: the categories there are. */
  availableCategories?: string[];
}

/** The hint of [L0-1]. */
export const LIST_HINT = "Use skill_view(name) to see full content, tags, and linked files";

/**
 * Who a list is for ([IO-3], `src/scan/audience.ts`): `people` see every visible skill with
 * its invocation fields; the `model` never sees a skill with `disable-model-invocation`,
 * and reads `when_to_use` in the description.
 */
export type { Audience } from "../scan/audience.ts";

/** The skill as the model reads it: `when_to_use` in its description, no invocation fields. */
function forModel(item: ListedSkill): ListedSkill {
  const { disableModelInvocation: _d, userInvocable: _u, whenToUse, argumentHint: _a, ...rest } =
    item;
  return { ...rest, description: modelDescription(item.description, { whenToUse }) };
}

/**
 * The visible entries of an index, each with its record; with `all`, the hidden ones
 * too, each saying why it is hidden ([L0-9]); for the `model`, as {@linkcode Audience} says.
 */
export function visibleSkills(
  index: SkillIndex,
  facts: VisibilityFacts,
  all = false,
  audience: Audience = "people",
): ListedSkill[] {
  const out: ListedSkill[] = [];
  for (const entry of index.entries.values()) {
    const hidden = hiddenReason(entry.record, facts);
    if (hidden !== null && !all) continue;
    if (!shownTo(entry.record, audience)) continue;
    const matches = entry.ambiguous ? entry.matches : undefined;
    const mine = listed(entry.record, matches);
    const item = audience === "model" ? forModel(mine) : mine;
    if (hidden !== null) item.hidden = hidden;
    out.push(item);
  }
  return out.sort(byCategoryThenName);
}

/** How many skills Level 0 hides, by reason ([L0-9]; `doctor` reports it). */
export function hiddenCounts(
  index: SkillIndex,
  facts: VisibilityFacts,
): Record<HiddenReason, number> {
  const counts: Record<HiddenReason, number> = {
    disabled: 0,
    platform: 0,
    environment: 0,
    conditions: 0,
  };
  for (const entry of index.entries.values()) {
    const hidden = hiddenReason(entry.record, facts);
    if (hidden !== null) counts[hidden]++;
  }
  return counts;
}

function listed(record: SkillRecord, matches?: SkillRecord[]): ListedSkill {
  const item: ListedSkill = {
    name: record.name,
    description: record.description,
    category: record.category,
    tags: record.tags,
    ...record.about,
    ...record.invocation,
  };
  if (matches) {
    item.ambiguous = true;
    item.matches = matches.map((m) => m.path);
  }
  return item;
}

function byCategoryThenName(a: ListedSkill, b: ListedSkill): number {
  const ca = a.category ?? "";
  const cb = b.category ?? "";
  if (ca !== cb) return ca < cb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Wraps skills into the list document of [L0-1]. */
export function listDocument(skills: ListedSkill[]): ListResult {
  if (skills.length === 0) {
    return { success: true, skills: [], categories: [], count: 0, message: "No skills found." };
  }
  const categories = [
    ...new Set(skills.map((s) => s.category).filter((c): c is string => c !== null)),
  ].sort();
  return { success: true, skills, categories, count: skills.length, hint: LIST_HINT };
}

/**
 * `list [--category C] [--all]`: every visible skill (with `all`, the hidden ones too),
 * optionally of one top-level category.
 */
export function listSkills(
  index: SkillIndex,
  facts: VisibilityFacts,
  category?: string,
  hidden = false,
  audience: Audience = "people",
): ListResult {
  const all = visibleSkills(index, facts, hidden, audience);
  if (category === undefined) return listDocument(all);
  const doc = listDocument(all.filter((s) => s.category === category));
  if (doc.count > 0) return doc;
  const known = listDocument(all).categories;
  return {
    ...doc,
    message: `No category '${category}'. ${
      known.length ? `Categories: ${known.join(", ")}.` : "There are no categories."
    }`,
    availableCategories: known,
  };
}

/** One category as `list --categories` shows it ([L0-6]). */
export interface CategoryInfo {
  /** The category. */
  category: string;
  /** How many visible skills it holds. */
  count: number;
  /** From `<root>/<category>/DESCRIPTION.md`, else null. */
  description: string | null;
}

/**
 * `list --categories`: one entry per category with its count and description.
 * `describe(root, category)` reads the description file (I/O stays with the caller).
 */
export function listCategories(
  index: SkillIndex,
  facts: VisibilityFacts,
  describe: (root: string, category: string) => string | null,
): CategoriesResult {
  const counts = new Map<string, number>();
  const roots = new Map<string, string[]>();
  for (const entry of index.entries.values()) {
    const c = entry.record.category;
    if (c === null || !isVisible(entry.record, facts)) continue;
    counts.set(c, (counts.get(c) ?? 0) + 1);
    const list = roots.get(c) ?? [];
    if (!list.includes(entry.record.root)) list.push(entry.record.root);
    roots.set(c, list);
  }
  const categories = [...counts.keys()].sort().map((category) => {
    let description: string | null = null;
    for (const root of roots.get(category)!) {
      description = describe(root, category);
      if (description !== null) break;
    }
    return { category, count: counts.get(category)!, description };
  });
  return { success: true, categories, count: categories.length };
}

/** The description in a DESCRIPTION.md: frontmatter `description`, else its first prose line. */
export function categoryDescription(
  frontmatter: Record<string, unknown>,
  body: string,
): string | null {
  if (typeof frontmatter.description === "string" && frontmatter.description.trim()) {
    return frontmatter.description.trim();
  }
  return firstParagraph(body);
}

/** The first paragraph of Markdown prose, its lines joined ([L0-9]); headings and fences skipped. */
export function firstParagraph(body: string): string | null {
  const lines: string[] = [];
  let fenced = false;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fenced = !fenced;
      if (lines.length) break;
      continue;
    }
    if (fenced) continue;
    if (line === "" || line.startsWith("#")) {
      if (lines.length) break;
      continue;
    }
    lines.push(line);
  }
  return lines.length ? lines.join(" ") : null;
}

/**
 * The longest search query: longer is no query a person writes, and each of its terms is
 * looked for in every skill's name, tags and description ([L0-7]).
 */
export const MAX_QUERY_CHARS = 1000;

/** A query as scoring reads it: trimmed and lowercased, and the words that count. */
interface Query {
  q: string;
  terms: string[];
}

function queryOf(query: string): Query {
  const q = query.trim().toLowerCase();
  return { q, terms: q === "" ? [] : queryWords(q) };
}

/** Relevance of a skill to a query ([L0-7]): name first, then tags, then description. */
export function searchScore(skill: ListedSkill, query: string): number {
  return scoreOf(skill, queryOf(query));
}

/** {@linkcode searchScore} of a query read once for every skill: by words (search_words.ts). */
function scoreOf(skill: ListedSkill, { q, terms }: Query): number {
  if (q === "") return 0;
  const name = wordsOf(skill.name);
  const tags = skill.tags.flatMap(wordsOf);
  const description = wordsOf(skill.description);
  let score = skill.name.toLowerCase() === q ? 100 : 0;
  for (const term of terms) {
    const inName = wordMatch(term, name);
    if (inName) score += inName === "exact" ? 30 : 20;
    const inTags = wordMatch(term, tags);
    if (inTags) score += inTags === "exact" ? 10 : 6;
    if (wordMatch(term, description)) score += 2;
  }
  return score;
}

/**
 * `search QUERY`: visible skills that match, best first, with their scores ([L0-7]).
 * @throws {ValidationError} for a query over {@linkcode MAX_QUERY_CHARS} characters.
 */
export function searchSkills(
  index: SkillIndex,
  facts: VisibilityFacts,
  query: string,
  audience: Audience = "people",
): ListResult {
  if (query.length > MAX_QUERY_CHARS) {
    throw new ValidationError(
      `Search query is ${query.length} characters long; the limit is ${MAX_QUERY_CHARS}.`,
    );
  }
  const parsed = queryOf(query);
  const scored = visibleSkills(index, facts, false, audience)
    .map((s) => ({ ...s, score: scoreOf(s, parsed) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || byCategoryThenName(a, b));
  return listDocument(scored);
}
