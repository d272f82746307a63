import { deepEqual, equal } from "node:assert/strict";
import { createHash } from "node:crypto";
import { assertAbsent, cliJson, makeTree, skill } from "../helpers.ts";

function md5Of(files: [string, string][]): string {
  const h = createHash("md5");
  for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    h.update(path);
    h.update(text);
  }
  return h.digest("hex");
}

Deno.test("[SY-1] sync: new, updated, user-modified, user-deleted and external cases; the manifest byte for byte", async () => {
  const bundled = makeTree({
    "core/alpha/SKILL.md": skill("alpha", "A1"),
    "core/beta/SKILL.md": skill("beta", "B1"),
    "gamma/SKILL.md": skill("gamma", "G1"),
    "delta/SKILL.md": skill("delta", "D1"),
    "shared/SKILL.md": skill("shared", "S1"),
  });
  const home = makeTree({
    "ext/shared/SKILL.md": skill("shared", "external"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const first = await cliJson(["--home", home, "sync", "--from", bundled]);
  equal(first.code, 0, first.stderr);
  deepEqual([first.json.copied, first.json.external], [["alpha", "beta", "delta", "gamma"], [
    "shared",
  ]]);
  const manifest = Deno.readTextFileSync(`${home}/skills/.bundled_manifest`);
  equal(
    manifest,
    [
      `alpha:${md5Of([["SKILL.md", skill("alpha", "A1")]])}`,
      `beta:${md5Of([["SKILL.md", skill("beta", "B1")]])}`,
      `delta:${md5Of([["SKILL.md", skill("delta", "D1")]])}`,
      `gamma:${md5Of([["SKILL.md", skill("gamma", "G1")]])}`,
      "",
    ].join("\n"),
  );
  equal(Deno.readTextFileSync(`${home}/skills/core/alpha/SKILL.md`), skill("alpha", "A1"));
  // Upstream changes alpha and beta; the user edits beta and deletes gamma.
  Deno.writeTextFileSync(`${bundled}/core/alpha/SKILL.md`, skill("alpha", "A2"));
  Deno.writeTextFileSync(`${bundled}/core/beta/SKILL.md`, skill("beta", "B2"));
  Deno.writeTextFileSync(`${home}/skills/core/beta/SKILL.md`, skill("beta", "mine"));
  Deno.removeSync(`${home}/skills/gamma`, { recursive: true });
  const second = await cliJson(["--home", home, "sync", "--from", bundled]);
  deepEqual(
    [
      second.json.copied,
      second.json.updated,
      second.json.user_modified,
      second.json.user_deleted,
      second.json.external,
      second.json.unchanged,
    ],
    [[], ["alpha"], ["beta"], ["gamma"], ["shared"], ["delta"]],
  );
  equal(Deno.readTextFileSync(`${home}/skills/core/alpha/SKILL.md`), skill("alpha", "A2"));
  equal(Deno.readTextFileSync(`${home}/skills/core/beta/SKILL.md`), skill("beta", "mine"));
  assertAbsent(`${home}/skills/gamma`);
  equal(
    Deno.readTextFileSync(`${home}/skills/.bundled_manifest`).split("\n")[0],
    `alpha:${md5Of([["SKILL.md", skill("alpha", "A2")]])}`,
  );
  equal(Deno.readTextFileSync(`${home}/ext/shared/SKILL.md`), skill("shared", "external"));
});
