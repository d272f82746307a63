/**
 * Writes docs/cli.md, the command-line reference, from the command table
 * (`src/cli/command_table.ts`): the global options, the exit codes of the error classes, and
 * each command's usage, arguments, options and help examples. `tests/house/docs_test.ts` fails when
 * docs/cli.md is not what this script writes, so the reference cannot drift from the code.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run --no-prompt scripts/cli_reference.ts
 * ```
 *
 * @module
 */
import { COMMANDS } from "../src/cli/command_table.ts";
import {
  type ArgumentSpec,
  type CommandSpec,
  GLOBAL_OPTIONS,
  type OptionSpec,
  PROGRAM_DESCRIPTION,
} from "../src/cli/grammar.ts";
import { HELP_EXAMPLES } from "../src/cli/help_examples.ts";
import { InterruptedError, NotPermittedError, SkillrtError, UsageError } from "../src/errors.ts";

/** Where the reference is written, from the repository's root. */
export const CLI_REFERENCE_PATH = "docs/cli.md";

/** The guide that tells more about each command: a doc of docs/, with its section. */
const GUIDES: Readonly<Record<string, string>> = {
  list: "skills.md#list",
  search: "skills.md#search",
  view: "skills.md#view",
  invoke: "skills.md#invoke",
  prompt: "skills.md#prompt",
  run: "scripts.md",
  validate: "skills.md#validate",
  doctor: "skills.md#doctor",
  sandbox: "security.md#sandbox",
  create: "managing.md#writing-skills",
  init: "managing.md#writing-skills",
  edit: "managing.md#writing-skills",
  patch: "managing.md#writing-skills",
  delete: "managing.md#writing-skills",
  "write-file": "managing.md#writing-skills",
  "remove-file": "managing.md#writing-skills",
  enable: "configuration.md#your-own-files-enable-disable-setup",
  disable: "configuration.md#your-own-files-enable-disable-setup",
  setup: "configuration.md#your-own-files-enable-disable-setup",
  pending: "managing.md#write-approval",
  curator: "managing.md#usage-counters-and-the-curator",
  bundle: "managing.md#bundles",
  graph: "skills.md#graph",
  hub: "hub.md",
  sync: "hub.md#sync",
  mcp: "mcp.md",
};

const HEADER = [
  "# Command-line reference",
  "",
  "<!-- Written by scripts/cli_reference.ts from src/cli/command_table.ts: do not edit by hand. -->",
  "",
  `skillrt: ${PROGRAM_DESCRIPTION}`,
  "",
  "Run it as `skillrt <command>` once installed, as `deno task skillrt <command>` from the",
  "repository, or as `dist/skillrt <command>` once compiled. Global options may stand before or",
  "after the command; `--help` and `--version` work on every command. A skill whose name begins",
  "with `-` is named after `--`: `skillrt view -- -name`.",
];

/** What the global options' one-line help leaves out. */
const GLOBAL_NOTES = [
  "`--toolsets` applies the skills' `requires_toolsets` and `fallback_for_toolsets`, `--tools`",
  "their `requires_tools` and `fallback_for_tools`. Colours are only used on a terminal.",
];

/** What a command that passes options on (`passesOptions`) does with the others. */
const PASSED_OPTIONS =
  "Every other option is a word of the command it names, read by that command's own grammar.";

/** The exit codes, each from the error class that carries it. */
function exitCodes(): string[] {
  const codes: [number, string][] = [
    [0, "success"],
    [
      new SkillrtError("").exitCode,
      "the operation failed (not found, ambiguous, invalid, blocked)",
    ],
    [new UsageError("").exitCode, "usage error (the message and the command's usage)"],
    [new NotPermittedError("").exitCode, "not permitted by the sandbox"],
    [new InterruptedError().exitCode, "interrupted (Ctrl-C), saying what was and was not changed"],
  ];
  return [
    "## Exit codes",
    "",
    ...codes.map(([code, meaning]) => `- \`${code}\`: ${meaning}`),
    "",
    'Errors are one line on stderr (and, with `--json`, a `{"success":false,"error":…}` document',
    "on stdout), never a stack trace. `run` passes the script's own exit code through.",
  ];
}

function optionLine(o: OptionSpec): string {
  const notes = [
    o.required ? "required" : "",
    o.repeatable && !o.description.includes("repeatable") ? "repeatable" : "",
    o.default !== undefined ? `default \`${o.default}\`` : "",
  ].filter(Boolean);
  return `- \`${o.flags}\`: ${o.description}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

function argumentLine(a: ArgumentSpec): string {
  const note = a.default !== undefined ? ` (default \`${a.default}\`)` : "";
  return `- \`${a.spec}\`: ${a.description}${note}`;
}

function usage(spec: CommandSpec): string {
  const words = ["skillrt", spec.name, ...(spec.arguments ?? []).map((a) => a.spec)];
  return spec.options?.length ? `${words.join(" ")} [options]` : words.join(" ");
}

/** The title of a guide: the first line of its doc, `# Title`. */
function guideTitle(link: string): string {
  const file = new URL(`../docs/${link.replace(/#.*/, "")}`, import.meta.url);
  return Deno.readTextFileSync(file).split("\n")[0].replace(/^# /, "");
}

function section(title: string, lines: string[]): string[] {
  return lines.length ? [`${title}:`, "", ...lines, ""] : [];
}

function command(spec: CommandSpec): string[] {
  const examples = HELP_EXAMPLES[spec.name] ?? [];
  const guide = GUIDES[spec.name];
  return [
    `## \`${spec.name}\``,
    "",
    `${spec.description[0].toUpperCase()}${spec.description.slice(1)}.`,
    "",
    "```sh",
    usage(spec),
    "```",
    "",
    ...section("Arguments", (spec.arguments ?? []).map(argumentLine)),
    ...section("Options", (spec.options ?? []).map(optionLine)),
    ...(spec.passesOptions ? [PASSED_OPTIONS, ""] : []),
    ...(examples.length ? ["Examples:", "", "```sh", ...examples, "```", ""] : []),
    ...(guide ? [`More: [${guideTitle(guide)}](${guide}).`, ""] : []),
  ];
}

/** The text of docs/cli.md, formatted as `deno fmt` formats it. */
export async function cliReference(): Promise<string> {
  const text = [
    ...HEADER,
    "",
    "## Global options",
    "",
    ...GLOBAL_OPTIONS.map(optionLine),
    "",
    ...GLOBAL_NOTES,
    "",
    ...exitCodes(),
    "",
    "## Commands",
    "",
    ...COMMANDS.map((c) => `- [\`${c.name}\`](#${c.name}): ${c.description}`),
    "",
    ...COMMANDS.flatMap(command),
  ].join("\n");
  return await formatted(text);
}

/** The Markdown as `deno fmt` writes it, with this repository's settings. */
async function formatted(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: new URL("..", import.meta.url).pathname,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

if (import.meta.main) {
  const path = new URL(`../${CLI_REFERENCE_PATH}`, import.meta.url);
  await Deno.writeTextFile(path, await cliReference());
  console.log(`Wrote ${CLI_REFERENCE_PATH}.`);
}
