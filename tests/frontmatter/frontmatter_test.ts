import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { splitFrontmatter } from "../../src/frontmatter/fence.ts";
import {
  exceedsExpandedSize,
  parseFrontmatter,
  quoteColonValues,
} from "../../src/frontmatter/parse.ts";
import { readHead } from "../../src/frontmatter/read_head.ts";
import { makeTree } from "../helpers.ts";

Deno.test("[S-6] fence: BOM stripped, CRLF accepted, closing line may have trailing spaces", () => {
  const f = splitFrontmatter("\uFEFF---\r\nname: a\r\ndescription: b\r\n---   \r\nBody\r\n");
  equal(f.kind, "ok");
  if (f.kind !== "ok") return;
  equal(f.yaml, "name: a\ndescription: b");
  equal(f.body, "Body\r\n");
  equal(f.bodyLine, 5);
});

Deno.test("[S-6] fence: missing, unclosed, too large, incomplete head", () => {
  equal(splitFrontmatter("# Title\n").kind, "missing");
  equal(splitFrontmatter("---\nname: a\n").kind, "unclosed");
  equal(splitFrontmatter("---\nname: a\n", false).kind, "incomplete");
  equal(splitFrontmatter(`---\nk: ${"x".repeat(70_000)}\n---\nbody`).kind, "too_large");
  // A line '----' is not a fence.
  equal(splitFrontmatter("---\na: 1\n----\n").kind, "unclosed");
});

Deno.test("[S-6] fence: property — any mapping written out is found again with its body", () => {
  fc.assert(fc.property(
    fc.dictionary(
      fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
      fc.stringMatching(/^[A-Za-z0-9 ]{0,20}$/),
    ),
    fc.stringMatching(/^[A-Za-z0-9 #\n]{0,80}$/),
    (data, body) => {
      const yaml = Object.entries(data).map(([k, v]) => `${k}: "${v}"`).join("\n");
      const f = splitFrontmatter(`---\n${yaml}\n---\n${body}`);
      if (f.kind !== "ok") return false;
      const parsed = parseFrontmatter(f.yaml);
      return JSON.stringify(parsed.data) === JSON.stringify(Object.keys(data).length ? data : {}) &&
        f.body === body;
    },
  ));
});

Deno.test("[S-6] YAML with an unquoted ': ' in a value is read by the quoted retry, with a diagnostic", () => {
  const p = parseFrontmatter("name: x\ndescription: Use when: you need it\n", 2, "/s/SKILL.md");
  equal(p.mode, "quoted_retry");
  deepEqual(p.data, { name: "x", description: "Use when: you need it" });
  equal(p.diagnostics.length, 1);
  equal(p.diagnostics[0].code, "frontmatter.yaml_repaired");
  equal(p.diagnostics[0].path, "/s/SKILL.md");
  equal(quoteColonValues("a: b: c"), 'a: "b: c"');
});

Deno.test("[S-6] YAML that cannot be repaired falls back to plain key: value lines", () => {
  const p = parseFrontmatter("name: x\ndescription: 'unclosed\ntags: [a, b\n");
  equal(p.mode, "plain_lines");
  equal(p.data.name, "x");
  equal(p.diagnostics[0].code, "frontmatter.yaml_invalid");
  equal(p.diagnostics[0].severity, "error");
});

Deno.test("[S-6] non-mapping frontmatter becomes {} with a diagnostic", () => {
  const p = parseFrontmatter("- a\n- b\n");
  deepEqual(p.data, {});
  equal(p.diagnostics[0].code, "frontmatter.not_mapping");
});

Deno.test("[S-6] custom tags are not executed: a !!js tag is a YAML error, never code", () => {
  const p = parseFrontmatter('name: x\nrun: !!js/function "function(){return 1}"\n');
  equal(p.data.run, '!!js/function "function(){return 1}"', "read as the text it is");
  deepEqual(p.diagnostics.map((d) => d.code), ["frontmatter.yaml_invalid"]);
});

Deno.test("[S-6] an alias bomb is refused before anything expands it", () => {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  const p = parseFrontmatter(`name: bomb\n${lines.join("\n")}\n`);
  equal(p.mode, "refused");
  deepEqual(p.data, {});
  equal(p.diagnostics[0].code, "frontmatter.alias_bomb");
  equal(exceedsExpandedSize({ a: "x".repeat(10) }, 100), false);
});

Deno.test("[S-6] readHead reads only what it needs: a huge body is not read", () => {
  const dir = makeTree({
    "SKILL.md": `---\nname: a\ndescription: b\n---\n${"body line\n".repeat(200_000)}`,
  });
  const head = readHead(`${dir}/SKILL.md`);
  equal(head.fence.kind, "ok");
  equal(head.complete, false);
  if (head.fence.kind === "ok") ok(head.fence.body.length < 8192);
});

Deno.test("[S-6] readHead keeps reading for the first prose line when there is no description", () => {
  const dir = makeTree({
    "SKILL.md": `---\nname: a\npad: "${
      "p".repeat(4080)
    }"\n---\n# Title\n\nFirst prose line here.\n`,
  });
  const head = readHead(`${dir}/SKILL.md`);
  ok(head.fence.kind === "ok" && head.fence.body.includes("First prose line here."));
});

Deno.test("[§18] invalid UTF-8 in a SKILL.md head is flagged", () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode("---\nname: a\ndescription: "),
    0xff,
    0xfe,
    ...new TextEncoder().encode("\n---\nbody\n"),
  ]);
  const dir = makeTree({ "SKILL.md": bytes });
  equal(readHead(`${dir}/SKILL.md`).invalidUtf8, true);
});
