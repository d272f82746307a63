import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { COMMANDS } from "../../src/cli/command_table.ts";
import { GLOBAL_OPTIONS } from "../../src/cli/grammar.ts";
import { parseArgs } from "../../src/cli/program.ts";
import { quickParse } from "../../src/cli/quick_parse.ts";

const noEnv = (_name: string): string | undefined => undefined;

/** What commander makes of a command line: the parse, or the usage error's message. */
function commander(argv: string[], env = noEnv, terminal = false): unknown {
  try {
    return parseArgs(argv, "0.0.0", env, terminal);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** A flag as typed: alone, with its value as the next word, or with `=value`. */
function typed(flags: string) {
  const [long, value] = flags.split(" ");
  if (value === undefined) return fc.constantFrom([long], [`${long}=x`]);
  return fc.tuple(fc.constantFrom("v", "a b", "", "-x", "--json", "1,2"), fc.boolean()).map((
    [v, inline],
  ) => (inline ? [`${long}=${v}`] : [long, v]));
}
const globalFlag = fc.oneof(...GLOBAL_OPTIONS.map((o) => typed(o.flags)));
const noise = fc.constantFrom(
  ["--"],
  ["-h"],
  ["--help"],
  ["help"],
  ["-V"],
  ["--version"],
  ["-x"],
  ["--unknown"],
  ["-1"],
);
const word = fc.constantFrom(["a"], ["b,c"], ["cat/name"], [""], ["list"], ["all"], ["help"]);
/** A command line: globals, a command (usually a real one), then its flags, globals and words. */
const line = fc.constantFrom(...COMMANDS).chain((c) =>
  fc.tuple(
    fc.array(fc.oneof(globalFlag, { arbitrary: noise, weight: 1 }), { maxLength: 2 }),
    fc.constantFrom(c.name, c.name, c.name, "lists", "help"),
    fc.array(
      fc.oneof(
        { arbitrary: word, weight: 4 },
        { arbitrary: globalFlag, weight: 2 },
        ...(c.options ?? []).map((o) => ({ arbitrary: typed(o.flags), weight: 3 })),
        { arbitrary: noise, weight: 1 },
      ),
      { maxLength: 5 },
    ),
  ).map(([pre, name, post]) => [...pre.flat(), name, ...post.flat()])
);

Deno.test("quick parse: answers exactly as commander does, or leaves the line to it", () => {
  let answered = 0;
  fc.assert(
    fc.property(
      line,
      fc.boolean(),
      fc.boolean(),
      (argv, terminal, noColor) => {
        const env = (name: string) =>
          name === "NO_COLOR" && noColor ? "1" : name === "HERMES_PLATFORM" ? "linux" : undefined;
        const quick = quickParse(argv, env, terminal);
        if (quick === undefined) return;
        answered++;
        deepEqual(quick, commander(argv, env, terminal), JSON.stringify(argv));
      },
    ),
    { numRuns: 6000 },
  );
  // The generator reaches the quick path often enough for the comparison to mean something.
  equal(answered > 400, true, `only ${answered} lines were answered by the quick path`);
});

Deno.test("quick parse: the usual lines of every command take the quick path", () => {
  const lines = [
    ["--home", "/h", "list", "--json"],
    ["list", "--category", "devops", "--json"],
    ["list", "--category=devops"],
    ["--json", "list", "--categories"],
    ["view", "devops/docker", "references/a.md", "--json"],
    ["view", "docker", "--strict", "--args", "one two"],
    ["search", "docker", "compose", "--json"],
    ["prompt", "--format", "markdown", "--budget-chars", "4000"],
    ["validate", "a", "b", "--profile", "agentskills"],
    ["--no-color", "--toolsets", "web,terminal", "doctor"],
    ["bundle"],
    ["pending", "approve", "all"],
    ["patch", "x", "--old", "a", "--new", "b"],
    ["sync", "--from", "/bundled"],
  ];
  for (const argv of lines) {
    const quick = quickParse(argv, noEnv, false);
    deepEqual(quick, commander(argv), JSON.stringify(argv));
  }
});

Deno.test("quick parse: help, the version, short flags, '--' and bad lines go to commander", () => {
  for (
    const argv of [
      [],
      ["--help"],
      ["list", "-h"],
      ["help", "list"],
      ["-V"],
      ["--version"],
      ["view"],
      ["view", "a", "b", "c"],
      ["list", "extra"],
      ["view", "--", "-a"],
      ["list", "--category"],
      ["list", "--category", "-x"],
      ["--json=yes", "list"],
      ["patch", "x", "--old", "a"],
      ["lists"],
      ["list", "--nope"],
    ]
  ) {
    equal(quickParse(argv, noEnv, false), undefined, JSON.stringify(argv));
  }
});
