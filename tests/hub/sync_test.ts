import { deepEqual, equal, match } from "node:assert/strict";
import { createHash } from "node:crypto";
import { assertAbsent, cliJson, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";

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

Deno.test("[SY-1][L0-6] sync --from copies the category DESCRIPTION.md files beside the skill folders", async () => {
  const from = makeTree({
    "devops/DESCRIPTION.md": "---\ndescription: Build and ship.\n---\n\n# DevOps\n",
    "devops/docker/SKILL.md": skill("docker", "Containers."),
    "data/DESCRIPTION.md": "# Data\n\nTheirs.\n",
    "data/sql/SKILL.md": skill("sql", "SQL."),
    "gone/DESCRIPTION.md": "# Gone\n\nOnly for a deleted skill.\n",
    "gone/old/SKILL.md": skill("old", "Old."),
  });
  const home = makeTree({
    "skills/devops/mine/SKILL.md": skill("mine", "The user's own, so devops/ is there already."),
    "skills/data/DESCRIPTION.md": "# Data\n\nMine.\n",
    "skills/.bundled_manifest": "old:0123\n", // the user deleted 'old'
  });
  try {
    const r = await cliJson(["--home", home, "sync", "--from", from]);
    equal(r.code, 0, r.stderr);
    deepEqual(r.json.descriptions, ["devops/DESCRIPTION.md"]);
    equal(
      Deno.readTextFileSync(`${home}/skills/devops/DESCRIPTION.md`),
      "---\ndescription: Build and ship.\n---\n\n# DevOps\n",
    );
    equal(Deno.readTextFileSync(`${home}/skills/data/DESCRIPTION.md`), "# Data\n\nMine.\n");
    assertAbsent(`${home}/skills/gone`);
    const cats = await cliJson(["--home", home, "list", "--categories"]);
    deepEqual(cats.json.categories, [
      { category: "data", count: 1, description: "Mine." },
      { category: "devops", count: 2, description: "Build and ship." },
    ]);
  } finally {
    removeTrees(from, home);
  }
});

Deno.test("[SY-1][S-9] sync --from refuses a DESCRIPTION.md linked out of the folder, and writes nothing", async () => {
  const outside = makeTree({ "secret.md": "top secret\n" });
  const from = makeTree({ "devops/docker/SKILL.md": skill("docker", "Containers.") });
  Deno.symlinkSync(`${outside}/secret.md`, `${from}/devops/DESCRIPTION.md`);
  const home = makeTree({ "skills/.keep": "" });
  try {
    const before = snapshot(home);
    const r = await cliJson(["--home", home, "sync", "--from", from]);
    equal(r.code, 1);
    match(String(r.json.error), /'devops\/DESCRIPTION\.md' is a symbolic link that leaves it/);
    equal(snapshot(home), before);
  } finally {
    removeTrees(outside, from, home);
  }
});
