/**
 * Reading the usage counters of a root (`<root>/.usage.json`, [U-1]) without changing
 * them. A file that does not parse is reported, never reset.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isMapping } from "../frontmatter/parse.ts";

/** The usage file's name inside a root. */
export const USAGE_FILE = ".usage.json";

/** How often each skill was used (view_count + use_count), by name. */
export function readUsageCounts(root: string, diagnostics: Diagnostic[] = []): Map<string, number> {
  const counts = new Map<string, number>();
  const file = `${root}/${USAGE_FILE}`;
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return counts;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    diagnostics.push(
      diagnostic(
        "error",
        "usage.unparseable",
        `Usage file does not parse (${(error as Error).message}); it was ignored, not reset.`,
        { path: file },
      ),
    );
    return counts;
  }
  if (!isMapping(data)) return counts;
  for (const [name, entry] of Object.entries(data)) {
    if (!isMapping(entry)) continue;
    const n = (Number(entry.view_count) || 0) + (Number(entry.use_count) || 0);
    counts.set(name, n);
  }
  return counts;
}
