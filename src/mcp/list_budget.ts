/**
 * `skills_list` for agents with a context window ([PERF-5]): over a budget (200 skills or
 * 40,000 characters by default, `skills.mcp_list_max_skills` / `mcp_list_max_chars`), a
 * list without a category answers with the category map and a hint; `limit` and `cursor`
 * page through a category, a search, or everything. Pure: documents in, document out.
 *
 * @module
 */
import type { CategoryInfo, ListedSkill, ListResult } from "../level0/list.ts";
import { RPC, RpcError } from "./rpc_error.ts";

/** How much one answer may hold. */
export interface ListBudget {
  /** Most skills in one unpaged answer. */
  skills: number;
  /** Most characters of JSON in one unpaged answer. */
  chars: number;
}

/** What the caller asked for. */
export interface PageRequest {
  /** A category was named (the whole category is what was asked for). */
  category?: string;
  /** At most this many skills. */
  limit?: number;
  /** Where the previous page ended. */
  cursor?: string;
}

/** A page of a list: the skills, and where the next page starts. */
export type PagedList = ListResult & { next_cursor?: string };

/** The category map answered instead of a list too large for an agent. */
export interface CategoryMap {
  /** Always true. */
  success: true;
  /** Every category with its count and description. */
  categories: CategoryInfo[];
  /** Skills in all. */
  count: number;
  /** Skills without a category. */
  uncategorized: number;
  /** What to ask next. */
  hint: string;
}

function offsetOf(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const n = /^\d+$/.test(cursor) ? Number(cursor) : NaN;
  if (!(n >= 0 && n <= total)) {
    throw new RpcError(
      RPC.invalidParams,
      `Invalid cursor '${cursor}': use a next_cursor given before.`,
      {
        field: "cursor",
      },
    );
  }
  return n;
}

/** One page of `list` (the whole list when no limit or cursor is given). */
export function page(list: ListResult, request: PageRequest): PagedList {
  if (request.limit === undefined && request.cursor === undefined) return list;
  const from = offsetOf(request.cursor, list.skills.length);
  const to = request.limit === undefined ? list.skills.length : from + request.limit;
  const skills: ListedSkill[] = list.skills.slice(from, to);
  return {
    ...list,
    skills,
    ...(to < list.skills.length ? { next_cursor: String(to) } : {}),
  };
}

/**
 * The answer to `skills_list`: the (paged) list, or — with no category, limit or cursor and
 * a list over the budget — the category map.
 */
export async function budgetedList(
  list: ListResult,
  categories: () => Promise<CategoryInfo[]>,
  request: PageRequest,
  budget: ListBudget,
): Promise<PagedList | CategoryMap> {
  const unpaged = request.category === undefined && request.limit === undefined &&
    request.cursor === undefined;
  if (!unpaged) return page(list, request);
  // Measured as is: the answer is converted once, when it is sent (a list's entries carry
  // no renamed field; `availableCategories` differs from its JSON name by two characters).
  if (list.count <= budget.skills && JSON.stringify(list).length <= budget.chars) {
    return list;
  }
  // Read only when the map is the answer; counted from the list itself, which may hold
  // fewer skills than a person's categories (the model's list, [IO-3]).
  const counts = new Map<string, number>();
  for (const s of list.skills) {
    if (s.category !== null) counts.set(s.category, (counts.get(s.category) ?? 0) + 1);
  }
  const map = (await categories()).filter((c) => counts.has(c.category))
    .map((c) => ({ ...c, count: counts.get(c.category)! }));
  const categorized = map.reduce((n, c) => n + c.count, 0);
  return {
    success: true,
    categories: map,
    count: list.count,
    uncategorized: list.count - categorized,
    hint:
      `This home holds ${list.count} skills, too many to list at once. Call skills_list with a category (or with limit and cursor to page), or skills_search with a query.`,
  };
}
