/**
 * Paging of `prompts/list` and `resources/list` ([IO-4]): a page holds at most the list
 * budget's skills and characters (`skills.mcp_list_max_skills`, `mcp_list_max_chars`;
 * at least one entry), and `nextCursor` says where the next one starts. The cursor is
 * opaque to clients: it carries the sort key of the page's last entry, so a walk through
 * the pages neither repeats nor skips an entry that was there throughout, even when
 * skills come and go between pages. A cursor not made here is a JSON-RPC invalid-params
 * error. Pure.
 *
 * @module
 */
import type { ListBudget } from "./list_budget.ts";
import { RPC, RpcError } from "./rpc_error.ts";

/** One page of entries, and the cursor of the next when more follow. */
export interface Page<T> {
  /** The entries of this page. */
  items: T[];
  /** Where the next page starts, when there is one. */
  nextCursor?: string;
}

const PREFIX = "skillrt.page.v1:";

function encode(key: string): string {
  const bytes = new TextEncoder().encode(PREFIX + key);
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The sort key a cursor carries.
 * @throws {RpcError} `-32602` for a cursor this server did not give.
 */
export function decodeCursor(cursor: string): string {
  const invalid = () =>
    new RpcError(RPC.invalidParams, `Invalid cursor: use the nextCursor of the previous page.`, {
      field: "cursor",
    });
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) throw invalid();
  let text: string;
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    throw invalid();
  }
  if (!text.startsWith(PREFIX)) throw invalid();
  return text.slice(PREFIX.length);
}

/**
 * The page of `items` (sorted by `keyOf`, ascending and unique) after `cursor`, within
 * `budget`; `size` measures an entry as it is sent.
 */
export function pageAfter<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: string | undefined,
  budget: ListBudget,
  size: (item: T) => number = (item) => JSON.stringify(item).length,
): Page<T> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  let start = 0;
  if (after !== undefined) {
    while (start < items.length && keyOf(items[start]) <= after) start++;
  }
  const page: T[] = [];
  let chars = 0;
  let i = start;
  for (; i < items.length && page.length < Math.max(1, budget.skills); i++) {
    chars += size(items[i]);
    if (page.length > 0 && chars > budget.chars) break;
    page.push(items[i]);
  }
  return {
    items: page,
    ...(i < items.length ? { nextCursor: encode(keyOf(page.at(-1)!)) } : {}),
  };
}
