import { deepEqual, equal } from "node:assert/strict";
import { splitFrontmatter } from "../../src/frontmatter/fence.ts";
import { buildRecord, listField } from "../../src/scan/record.ts";

const place = (rel: string, extra: Partial<Parameters<typeof buildRecord>[0]> = {}) => ({
  file: `/r/${rel}/SKILL.md`,
  dir: `/r/${rel}`,
  rel,
  root: "/r",
  source: "local" as const,
  fallbackName: rel.split("/").pop()!,
  ...extra,
});

Deno.test("[S-5] name from frontmatter, else folder; cut to 64 with a diagnostic", () => {
  equal(
    buildRecord(place("a/b"), splitFrontmatter("---\nname: x\ndescription: d\n---\n")).name,
    "x",
  );
  equal(buildRecord(place("a/b"), splitFrontmatter("---\ndescription: d\n---\n")).name, "b");
  const long = buildRecord(place("a"), splitFrontmatter(`---\nname: ${"n".repeat(70)}\n---\n`));
  equal(long.name, "n".repeat(64));
  equal(long.diagnostics.find((d) => d.code === "name.too_long")?.severity, "warning");
});

Deno.test("[S-5] description falls back to the first prose line; long ones are cut to 1021 + '...'", () => {
  const r = buildRecord(
    place("a"),
    splitFrontmatter("---\nname: a\n---\n\n# Heading\n\n  First prose.\nmore\n"),
  );
  equal(r.description, "First prose.");
  const long = buildRecord(
    place("a"),
    splitFrontmatter(`---\nname: a\ndescription: ${"d".repeat(1100)}\n---\n`),
  );
  equal(long.description, `${"d".repeat(1021)}...`);
  equal(long.diagnostics[0].code, "description.too_long");
});

Deno.test("[S-5] category: first segment of a 3-part path, else metadata.hermes.category, else null", () => {
  const fm = splitFrontmatter("---\nname: a\nmetadata:\n  hermes:\n    category: meta\n---\n");
  equal(buildRecord(place("devops/docker"), fm).category, "devops");
  equal(buildRecord(place("a/b/c"), fm).category, "a");
  equal(buildRecord(place("docker"), fm).category, "meta");
  equal(buildRecord(place("docker"), splitFrontmatter("---\nname: a\n---\n")).category, null);
});

Deno.test("[S-5] tags and related_skills: metadata.hermes first, lists and strings, quotes stripped", () => {
  const r = buildRecord(
    place("a"),
    splitFrontmatter(
      `---\nname: a\ntags: "[x, 'y', , z]"\nrelated_skills: top\nmetadata:\n  hermes:\n    related_skills: [p, "q"]\n---\n`,
    ),
  );
  deepEqual(r.tags, ["x", "y", "z"]);
  deepEqual(r.relatedSkills, ["p", "q"]);
  deepEqual(listField("a, b"), ["a", "b"]);
  deepEqual(listField(["'a'", "", 3]), ["a", "3"]);
  deepEqual(listField(undefined), []);
});

Deno.test("[S-5] plugin records are named ns:name with source plugin", () => {
  const r = buildRecord(
    place("deploy", { source: "plugin", namespace: "acme" }),
    splitFrontmatter("---\nname: deploy\n---\n"),
  );
  equal(r.name, "acme:deploy");
  equal(r.source, "plugin");
});
