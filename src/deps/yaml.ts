// deno-lint-ignore-file no-import-prefix -- full npm: specifiers, so the module imports with no import map ([C-7])
/**
 * The one place skillrt touches its YAML library (js-yaml from npm).
 * Moving to another YAML package means changing this file only.
 *
 * @module
 */
import { load } from "npm:js-yaml@^5";
import { fastYaml } from "../frontmatter/fast_yaml.ts";

/** A YAML syntax error with the 1-based line it was found on, if known. */
export interface YamlFailure {
  /** The parser's message, first line only. */
  message: string;
  /** 1-based line inside the parsed text, when the parser reports one. */
  line?: number;
}

/**
 * Parses YAML text with a safe schema (no custom tags, no code).
 * Returns the value, or a {@linkcode YamlFailure} when the text is not YAML.
 */
export function parseYaml(text: string): { value: unknown } | { failure: YamlFailure } {
  const fast = fastYaml(text);
  if (fast !== undefined) return { value: Object.keys(fast).length ? fast : null };
  // js-yaml 5 refuses an empty document; YAML says it is null.
  if (text.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("#"))) {
    return { value: null };
  }
  try {
    return { value: load(text) };
  } catch (error) {
    const e = error as { reason?: string; message?: string; mark?: { line?: number } };
    const message = (e.reason ?? e.message ?? String(error)).split("\n")[0];
    const line = typeof e.mark?.line === "number" ? e.mark.line + 1 : undefined;
    return { failure: { message, line } };
  }
}
