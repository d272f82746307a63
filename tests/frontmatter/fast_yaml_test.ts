import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { load } from "js-yaml";
import { fastYaml } from "../../src/frontmatter/fast_yaml.ts";
import { splitFrontmatter } from "../../src/frontmatter/fence.ts";
import { CORPUS, needsCorpus } from "../helpers.ts";

function jsYaml(text: string): unknown {
  try {
    return load(text) ?? null;
  } catch {
    return "ERROR";
  }
}

/** Values a hand-written frontmatter holds, traps included (types, quotes, comments, anchors). */
const TRAPS = [
  "Use when: needed",
  "true",
  "False",
  "null",
  "~",
  "yes",
  "1.0",
  "42",
  "0x1F",
  "2024-01-01",
  "1.10",
  "1.8.0",
  "1.2.3.4",
  "01.2.3",
  "-dash",
  "x #comment",
  "'it''s'",
  '"esc\\"aped"',
  "[1, 2]",
  "[a, 'b']",
  "[a, [b]]",
  "&anchor x",
  "*alias",
  "!tag x",
  "|",
  ">",
  "trailing  ",
  "@at",
  "%pct",
  "x: y",
  "",
  "back\\slash",
];
const SAFE = [
  "plain words here",
  "émoji ünïcode ✓",
  "[a, b, c]",
  "'single'",
  '"double"',
  "[]",
  "a, b",
  "x#nocomment",
];
const value = fc.oneof({ arbitrary: fc.constantFrom(...SAFE), weight: 8 }, {
  arbitrary: fc.constantFrom(...TRAPS),
  weight: 2,
});
const key = fc.constantFrom(
  "name",
  "description",
  "metadata",
  "hermes",
  "tags",
  "x",
  "y-z",
  "k_1",
  "2bad",
);

type Tree = { [k: string]: string | Tree };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.dictionary(
    key,
    fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: tie("tree"), weight: 1 }),
    {
      minKeys: 1,
      maxKeys: 5,
      depthIdentifier: "tree",
    },
  ),
})).tree;

function render(t: Tree, indent: number, step: number): string[] {
  return Object.entries(t).flatMap(([k, v]) =>
    typeof v === "string"
      ? [`${" ".repeat(indent)}${k}:${v === "" ? "" : " " + v}`]
      : [`${" ".repeat(indent)}${k}:`, ...render(v, indent + step, step)]
  );
}

Deno.test("[PERF] the YAML fast path gives exactly what js-yaml gives, whenever it answers", () => {
  let answered = 0;
  fc.assert(
    fc.property(tree, fc.constantFrom(2, 2, 4, 1), fc.boolean(), (t, step, swap) => {
      const lines = render(t, 0, step);
      // Sometimes break the structure: swap two lines.
      if (swap && lines.length > 2) [lines[0], lines[2]] = [lines[2], lines[0]];
      const text = lines.join("\n");
      const fast = fastYaml(text);
      if (fast === undefined) return true;
      answered++;
      deepEqual(Object.keys(fast).length ? fast : null, jsYaml(text), text);
      return true;
    }),
    { numRuns: 3000 },
  );
  ok(answered > 300, `the fast path answered only ${answered} times`);
});

Deno.test(
  needsCorpus("[PERF] on every corpus frontmatter the fast path agrees with js-yaml (or declines)"),
  () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of Deno.readDirSync(d)) {
        if (e.isDirectory) walk(`${d}/${e.name}`);
        else if (e.name === "SKILL.md") files.push(`${d}/${e.name}`);
      }
    };
    walk(CORPUS);
    let answered = 0;
    for (const file of files) {
      const fence = splitFrontmatter(Deno.readTextFileSync(file));
      if (fence.kind !== "ok") continue;
      const fast = fastYaml(fence.yaml);
      if (fast === undefined) continue;
      answered++;
      deepEqual(Object.keys(fast).length ? fast : null, jsYaml(fence.yaml), file);
    }
    ok(answered > 20, `the fast path answered only ${answered} of ${files.length}`);
  },
);
