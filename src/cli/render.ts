/**
 * Output for people and for programs: one JSON document with `--json` ([C-2]),
 * aligned tables and colour only on a terminal otherwise.
 *
 * @module
 */
import { clip, terminalColumns } from "../clip.ts";
import type { SkillrtError } from "../errors.ts";
import { type ErrorOutcome, errorOutcome, failureDocument } from "../error_boundary.ts";
import { toJsonDocument } from "../json_document.ts";
import type { PermissionPlan } from "../warden/permission_plan.ts";
import type { GlobalOptions, Outcome } from "../worker/request.ts";

/** Documents larger than this are printed compact (a 10,000-skill list is megabytes). */
const PRETTY_LIMIT = 256 * 1024;

/** One JSON document with a final newline: indented for people, compact when large. */
export function jsonText(value: unknown): string {
  const doc = toJsonDocument(value);
  const compact = JSON.stringify(doc);
  return (compact.length > PRETTY_LIMIT ? compact : JSON.stringify(doc, null, 2)) + "\n";
}

/** A successful outcome: the JSON document, or the text for people. */
export function respond(
  global: GlobalOptions,
  json: unknown,
  text: () => string,
  exitCode = 0,
  stderr = "",
): Outcome {
  if (global.typed) {
    return { exitCode, stdout: "", stderr, result: json as Record<string, unknown> };
  }
  if (global.json) return { exitCode, stdout: jsonText(json), stderr: "" };
  const out = text();
  return { exitCode, stdout: out === "" || out.endsWith("\n") ? out : out + "\n", stderr };
}

/** The outcome of an error: one line on stderr, and the JSON with `success:false` under `--json`. */
export function failure(
  global: Pick<GlobalOptions, "json" | "typed">,
  error: SkillrtError,
): Outcome {
  return failureOf(global, errorOutcome(error));
}

/**
 * The CLI's output of the boundary's outcome: its line (and what follows it for people),
 * its JSON; for a typed call (the library's), the JSON as the result and nothing printed.
 */
function failureOf(global: Pick<GlobalOptions, "json" | "typed">, outcome: ErrorOutcome): Outcome {
  const { error } = outcome;
  if (global.typed) {
    const { exitCode, code } = outcome;
    return { exitCode, code, stdout: "", stderr: "", result: cliJson(outcome) };
  }
  const usage = typeof error.details.usage === "string" ? `\n${error.details.usage}` : "";
  const close = error.details.suggestions;
  const dashed = Array.isArray(close) ? close.find((n) => String(n).startsWith("-")) : undefined;
  const didYouMean = Array.isArray(close) && close.length
    ? `\nDid you mean: ${close.join(", ")}?${
      dashed === undefined ? "" : ` (a name that begins with '-' goes after '--': -- ${dashed})`
    }`
    : "";
  return {
    exitCode: outcome.exitCode,
    code: outcome.code,
    stdout: global.json ? jsonText(cliJson(outcome)) : "",
    stderr: `skillrt: ${outcome.message}${
      global.json ? "" : matchesLine(error) + findingLines(error) + didYouMean + usage
    }\n`,
  };
}

/**
 * An error's JSON as the CLI prints it: [R-4]'s hint names the MCP tool `skills_list`,
 * which a CLI user has no use for; here it names `skillrt list`.
 */
function cliJson(outcome: ErrorOutcome): Record<string, unknown> {
  const doc = failureDocument(outcome);
  if (typeof doc.hint === "string") {
    doc.hint = doc.hint.replace(/^Use skills_list to see/, "Use 'skillrt list' to see");
  }
  return doc;
}

/** The scanner's findings of a blocked install ([HUB-5]), one line each, as `hub scan` shows them. */
function findingLines(error: SkillrtError): string {
  const findings = error.details.findings;
  if (error.code !== "blocked" || !Array.isArray(findings)) return "";
  return findings.map((f: Record<string, unknown>) =>
    `\n  ${f.severity}  ${f.rule}  ${f.file}${f.line ? `:${f.line}` : ""}  ${
      clip(String(f.excerpt ?? ""), 80)
    }`
  ).join("");
}

/**
 * The skills an ambiguous name matches, each as a path that loads it: a folder at the top
 * of a root with a `/` after it (its bare name is the ambiguous one, [S-7]).
 */
function matchesLine(error: SkillrtError): string {
  const matches = error.details.matches;
  if (error.code !== "ambiguous" || !Array.isArray(matches)) return "";
  return `\nMatches: ${matches.map((m) => String(m).includes("/") ? m : `${m}/`).join(", ")}`;
}

/** `1 skill`, `2 skills`: a count with its noun in the right number ([C-8]). */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}

/** Makes `text` bold, dim or coloured when colours are on. */
export function paint(
  on: boolean,
  style: "bold" | "dim" | "red" | "yellow" | "green" | "cyan",
  text: string,
): string {
  if (!on) return text;
  const codes = { bold: 1, dim: 2, red: 31, yellow: 33, green: 32, cyan: 36 } as const;
  return `\x1b[${codes[style]}m${text}\x1b[0m`;
}

export { clip } from "../clip.ts";

/**
 * An aligned table: a header row and rows of cells; the last column is not padded. With
 * `last`, the last column is cut (with `…`) to what the terminal's width leaves it — at
 * least 20 characters — or to `last` characters when stdout is no terminal.
 */
export function table(
  header: string[],
  rows: string[][],
  color = false,
  last?: number,
  columns: number | undefined = terminalColumns(),
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const lead = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const room = last === undefined ? Infinity : columns ? Math.max(20, columns - lead - 1) : last;
  const cell = (c: string, i: number, n: number) =>
    i === n - 1 ? (room === Infinity ? c : clip(c, room)) : c.padEnd(widths[i]);
  const line = (cells: string[]) =>
    cells.map((c, i) => cell(c, i, cells.length)).join("  ").trimEnd();
  return [paint(color, "bold", line(header)), ...rows.map(line)].join("\n");
}

/** The sandbox rule named in an exit-3 error. */
export function sandboxRule(plan: PermissionPlan): string {
  const count = (
    n: number,
    what: string,
  ) => (n ? `${what} ${plural(n, "path")}` : `${what} nothing`);
  const run = plan.run.length ? `runs only ${plan.run.join(", ")}` : "runs no program";
  return `the sandbox plan of '${plan.command}' ${count(plan.read.length, "reads")}, ${
    count(plan.write.length, "writes")
  } and ${run}; see 'skillrt sandbox ${plan.command}'`;
}

/**
 * Converts any thrown value into an outcome through the one error boundary
 * (`src/error_boundary.ts`): its family's exit code, a permission error under a plan exit 3,
 * anything else one line of an internal failure.
 */
export function outcomeOfError(
  error: unknown,
  global: Pick<GlobalOptions, "json">,
  plan?: PermissionPlan,
): Outcome {
  return failureOf(global, errorOutcome(error, plan ? sandboxRule(plan) : undefined));
}
