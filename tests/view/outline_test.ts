/**
 * [V-8] The pure core of section and brief retrieval: the outline of a long,
 * real-world-shaped skill (headings of every level, setext headings, code fences of both
 * kinds and several lengths holding `#` lines), GitHub slugs, sections. No I/O but
 * reading the fixture.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { firstParagraph, outline, selectSections, slugify } from "../../src/view/outline.ts";
import { bodyOf, briefOf } from "../../src/view/partial.ts";
import { REPO } from "../helpers.ts";
import { assertIncludes } from "../asserts.ts";

const BODY = bodyOf(Deno.readTextFileSync(`${REPO}/fixtures/long_skill/SKILL.md`));

Deno.test("[V-8] the outline of a long skill: every level, setext headings, nothing from code fences or comments", () => {
  deepEqual(outline(BODY).map((h) => [h.level, h.slug]), [
    [1, "release-engineering"],
    [2, "when-to-use"],
    [2, "quick-reference"],
    [2, "procedure"],
    [3, "1-prepare"],
    [4, "version-numbers"],
    [5, "pre-releases"],
    [6, "build-metadata"],
    [3, "2-changelog"],
    [4, "example"],
    [3, "3-tag-and-publish"],
    [4, "example-1"],
    [3, "4-verify"],
    [4, "example-2"],
    [2, "rollback--recovery-read-this-before-you-need-it"],
    [3, "example-3"],
    [2, "troubleshooting"],
    [2, "pitfalls"],
    [1, "verification"],
    [2, "see-also-hotfix-flow-and-git-tags"],
  ]);
  const titles = outline(BODY).map((h) => h.title);
  assertIncludes(titles, "Pitfalls", "the closing #s of an ATX heading are not its text");
  equal(titles.at(-1), "See also: hotfix-flow and `git-tags`", "a link counts by its text");
  for (const h of outline(BODY)) {
    ok(!/not a heading|inside|comment/i.test(h.title), `'${h.title}' came from code or a comment`);
  }
});

Deno.test("[V-8] a section runs to the next heading of the same or a higher level, and its size is its characters", () => {
  const heads = outline(BODY);
  const at = (slug: string) => heads.find((h) => h.slug === slug)!;
  const procedure = at("procedure");
  const rollback = BODY.indexOf("## Rollback & Recovery");
  equal(procedure.start, BODY.indexOf("## Procedure"));
  equal(procedure.end, rollback, "sub-sections belong to their parent");
  equal(procedure.chars, rollback - BODY.indexOf("## Procedure"));
  const troubleshooting = at("troubleshooting");
  equal(
    troubleshooting.start,
    BODY.indexOf("Troubleshooting\n----"),
    "a setext heading starts at its text",
  );
  equal(troubleshooting.end, BODY.indexOf("## Pitfalls ##"));
  equal(at("release-engineering").end, BODY.indexOf("Verification\n===="));
  equal(at("see-also-hotfix-flow-and-git-tags").end, BODY.length);
  equal(briefOf(BODY).chars, BODY.length);
});

Deno.test("[V-8] sections: only those asked for, in the text's order, a nested one not repeated", () => {
  const one = selectSections(BODY, ["example-1"]);
  deepEqual(one, {
    kind: "ok",
    text: '#### Example\n\n```bash\ngit tag -s v2.3.0 -m "Release 2.3.0"\n```\n',
    slugs: ["example-1"],
  });
  const two = selectSections(BODY, ["pitfalls", "when-to-use", "pitfalls"]);
  equal(two.kind, "ok");
  if (two.kind !== "ok") return;
  deepEqual(two.slugs, ["when-to-use", "pitfalls"]);
  ok(two.text.startsWith("## When to Use\n\n- The user says"));
  ok(two.text.includes("`hotfix-flow` instead.\n\n## Pitfalls ##\n"));
  ok(!two.text.includes("Quick Reference"));
  const nested = selectSections(BODY, [
    "example-3",
    "rollback--recovery-read-this-before-you-need-it",
  ]);
  deepEqual(nested.kind === "ok" && nested.slugs, [
    "rollback--recovery-read-this-before-you-need-it",
  ]);
  equal(nested.kind === "ok" && nested.text.split("### Example").length, 2);
  const byTitle = selectSections(BODY, ["When to Use", "Pitfalls"]);
  deepEqual(byTitle.kind === "ok" && byTitle.slugs, ["when-to-use", "pitfalls"]);
  const unknown = selectSections(BODY, ["procedure", "nope", "also-nope"]);
  deepEqual(unknown.kind === "unknown" && unknown.unknown, ["nope", "also-nope"]);
  deepEqual(unknown.kind === "unknown" && unknown.available, outline(BODY).map((h) => h.slug));
});

Deno.test("[V-8] the first paragraph skips headings and comments and joins its lines", () => {
  equal(
    firstParagraph(BODY),
    "Use this skill when a maintainer asks to cut a release, bump versions across packages, write the changelog or roll a bad release back. It assumes a git repository with tags named `vMAJOR.MINOR.PATCH` and a CI pipeline that builds artifacts from tags.",
  );
  equal(firstParagraph("<!-- hidden -->\n\n```\n# code\n```\n\nSecond.\n"), "Second.");
  equal(firstParagraph("# Only a heading\n"), "");
  const long = firstParagraph("x".repeat(5000));
  equal(long.length, 1000);
  ok(long.endsWith("…"));
});

Deno.test("[V-8] fences: either kind, any length, indented up to three spaces, closed only by their own kind", () => {
  const slugs = (text: string) => outline(text).map((h) => h.slug);
  deepEqual(slugs("# a\n~~~\n# in\n```\n# still in\n~~~\n# b\n"), ["a", "b"]);
  deepEqual(slugs("`````\n# in\n```\n# in\n`````\n# out\n"), ["out"]);
  deepEqual(slugs("   ```\n# in\n   ```\n# out\n"), ["out"]);
  deepEqual(slugs("    ```\n# heading: a four-space indent is code, not a fence\n"), [
    "heading-a-four-space-indent-is-code-not-a-fence",
  ]);
  deepEqual(slugs("``` a`b\n# heading: an info string with a backtick opens no fence\n"), [
    "heading-an-info-string-with-a-backtick-opens-no-fence",
  ]);
  deepEqual(slugs("# before\n```\n# unclosed: the rest is code\n## too\n"), ["before"]);
  deepEqual(slugs("```\n```js\n# a longer info line does not close\n```\n# out\n"), ["out"]);
  deepEqual(slugs("\t# tab-indented code\n#no-space\n####### seven\n#\n"), ["section"]);
});

Deno.test("[V-8] setext headings: a plain paragraph underlined; not a list, quote or table", () => {
  deepEqual(outline("Title\n=====\n\nSub\nline two\n---\n").map((h) => [h.level, h.title]), [
    [1, "Title"],
    [2, "Sub line two"],
  ]);
  deepEqual(outline("- item\n---\n\n> quote\n---\n\n| a |\n| - |\n---\n").length, 0);
  deepEqual(outline("text\n\n---\n").length, 0, "a rule after a blank line is a rule");
});

Deno.test("[V-8] slugs are GitHub's: lower case, punctuation dropped, spaces to hyphens, repeats suffixed", () => {
  equal(slugify("Rollback & Recovery (read this *before*)"), "rollback--recovery-read-this-before");
  equal(slugify("`git tag` — signed"), "git-tag--signed");
  equal(slugify("Über café_2"), "über-café_2");
  equal(slugify("[API](https://x.example/a) <b>v2</b>"), "api-v2");
  deepEqual(outline("# A\n# A\n# A-1\n# A\n").map((h) => h.slug), ["a", "a-1", "a-1-1", "a-2"]);
});

Deno.test("[V-8] CRLF text: the same headings, and sections keep their own line ends", () => {
  const text = "# A\r\n\r\nintro\r\n\r\n## B\r\n\r\nbody\r\n";
  deepEqual(outline(text).map((h) => [h.slug, h.chars]), [["a", text.length], ["b", 14]]);
  deepEqual(selectSections(text, ["b"]), { kind: "ok", text: "## B\r\n\r\nbody\n", slugs: ["b"] });
  equal(firstParagraph(text), "intro");
});
