/**
 * Parsing frontmatter YAML the forgiving way of [S-6]: a safe load; on failure one
 * retry with values containing `: ` quoted; then plain `key: value` lines. Every repair
 * leaves a diagnostic, so a skill never vanishes silently because of its YAML.
 *
 * @module
 */
import { parseYaml } from "../deps/yaml.ts";
import type { Diagnostic } from "../diagnostics.ts";
import { frontmatterProblem } from "./problems.ts";
import { isMapping } from "../mapping.ts";

/** Aliases may not expand a frontmatter beyond this many characters ([S-6]). */
export const MAX_EXPANDED_CHARS = 1024 * 1024;

/** A plain mapping of frontmatter keys to values. */
export type Frontmatter = Record<string, unknown>;

/** The mapping read from a frontmatter block and what was noticed on the way. */
export interface ParsedFrontmatter {
  /** The frontmatter mapping (`{}` when it could not be read as one). */
  data: Frontmatter;
  /** Repairs and refusals, with lines relative to the file when `firstLine` was given. */
  diagnostics: Diagnostic[];
  /** How the mapping was obtained. */
  mode: "yaml" | "quoted_retry" | "plain_lines" | "refused";
}

/**
 * Parses frontmatter YAML. `firstLine` is the file line of the block's first line
 * (2 for a SKILL.md), used to point diagnostics at the file.
 */
export function parseFrontmatter(yaml: string, firstLine = 2, path?: string): ParsedFrontmatter {
  const at = (line?: number) => ({
    path,
    line: line === undefined ? undefined : line + firstLine - 1,
  });
  const first = parseYaml(yaml);
  if ("value" in first) return accept(first.value, "yaml", [], at);
  const failure = first.failure;
  const diagnostics: Diagnostic[] = [];
  const quoted = quoteColonValues(yaml);
  if (quoted !== yaml) {
    const retry = parseYaml(quoted);
    if ("value" in retry && isMapping(retry.value)) {
      diagnostics.push(
        frontmatterProblem(
          "frontmatter.yaml_repaired",
          `Frontmatter YAML did not parse (${failure.message}); read it again with values containing ': ' quoted.`,
          at(failure.line),
        ),
      );
      return accept(retry.value, "quoted_retry", diagnostics, at);
    }
  }
  diagnostics.push(
    frontmatterProblem(
      "frontmatter.yaml_invalid",
      `Frontmatter is not valid YAML (${failure.message}); read it as plain 'key: value' lines.`,
      at(failure.line),
    ),
  );
  return { data: plainLines(yaml), diagnostics, mode: "plain_lines" };
}

function accept(
  value: unknown,
  mode: ParsedFrontmatter["mode"],
  diagnostics: Diagnostic[],
  at: (line?: number) => { path?: string; line?: number },
): ParsedFrontmatter {
  if (value === null || value === undefined) return { data: {}, diagnostics, mode };
  if (!isMapping(value)) {
    diagnostics.push(
      frontmatterProblem(
        "frontmatter.not_mapping",
        `Frontmatter must be a YAML mapping, not ${
          Array.isArray(value) ? "a list" : typeof value
        }.`,
        at(1),
      ),
    );
    return { data: {}, diagnostics, mode };
  }
  if (exceedsExpandedSize(value, MAX_EXPANDED_CHARS)) {
    diagnostics.push(
      frontmatterProblem(
        "frontmatter.alias_bomb",
        `Frontmatter refused: its aliases expand beyond ${MAX_EXPANDED_CHARS} characters.`,
        at(1),
      ),
    );
    return { data: {}, diagnostics, mode: "refused" };
  }
  return { data: value, diagnostics, mode };
}

/**
 * True when the value, with every alias expanded, would be larger than `limit`
 * characters (or nests deeper than 64 levels). Stops as soon as the limit is passed.
 */
export function exceedsExpandedSize(value: unknown, limit: number): boolean {
  let budget = limit;
  const visit = (v: unknown, depth: number): boolean => {
    if (depth > 64) return true;
    if (typeof v === "string") budget -= v.length + 2;
    else if (Array.isArray(v)) {
      budget -= 2;
      for (const item of v) if (visit(item, depth + 1)) return true;
    } else if (isMapping(v)) {
      budget -= 2;
      for (const [k, item] of Object.entries(v)) {
        budget -= k.length + 2;
        if (visit(item, depth + 1)) return true;
      }
    } else budget -= 8;
    return budget < 0;
  };
  return visit(value, 0);
}

const COLON_VALUE = /^(\s*[A-Za-z0-9_.-]+:[ \t]+)([^"'\[{|>&*!#\s].*: .*)$/;

/** Quotes the value of every `key: value` line whose value itself contains `: `. */
export function quoteColonValues(yaml: string): string {
  return yaml.split("\n").map((line) => {
    const m = COLON_VALUE.exec(line);
    if (!m) return line;
    const value = m[2].trimEnd().replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    return `${m[1]}"${value}"`;
  }).join("\n");
}

const PLAIN_LINE = /^([A-Za-z_][A-Za-z0-9_.-]*):[ \t]*(.*)$/;

/** The last resort of [S-6]: top-level `key: value` lines as strings, quotes stripped. */
export function plainLines(yaml: string): Frontmatter {
  const data: Frontmatter = {};
  for (const line of yaml.split("\n")) {
    const m = PLAIN_LINE.exec(line);
    if (!m || m[2] === "") continue;
    data[m[1]] = stripQuotes(m[2].trim());
  }
  return data;
}

/** Removes one pair of matching surrounding quotes. */
export function stripQuotes(s: string): string {
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s.at(-1) === s[0]) return s.slice(1, -1);
  return s;
}
