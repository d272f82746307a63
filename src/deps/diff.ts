// deno-lint-ignore-file no-import-prefix -- full npm: specifiers, so the module imports with no import map ([C-7])
/**
 * The one place skillrt touches its diff library (jsdiff from npm).
 *
 * @module
 */
import { createTwoFilesPatch } from "npm:diff@^9";

/** A unified diff of two texts, with `a/` and `b/` file names as git writes them. */
export function unifiedDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, "", "", {
    context: 3,
  });
  return patch.replace(/^=+\n/, "").replace(/^(---|\+\+\+) (\S+)\t$/gm, "$1 $2");
}
