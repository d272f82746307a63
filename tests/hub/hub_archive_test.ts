import { deepEqual, equal } from "node:assert/strict";
import { assertAbsent, cliJson, makeTree, REPO, snapshot, tempDir } from "../helpers.ts";

async function archive(kind: string, ext: string): Promise<string> {
  const out = `${tempDir()}/packed.${ext}`;
  const r = await new Deno.Command("python3", {
    args: [`${REPO}/tests/fixtures/make_archive.py`, kind, out],
  }).output();
  equal(r.success, true, new TextDecoder().decode(r.stderr));
  return out;
}

Deno.test("[HUB-1][HUB-2] local .tar.gz and .zip archives install with community trust", async () => {
  for (const ext of ["tar.gz", "zip"]) {
    const home = makeTree({ "skills/.keep": "" });
    const file = await archive(ext === "zip" ? "good-zip" : "good-tgz", ext);
    const r = await cliJson(["--home", home, "hub", "install", file, "--yes"]);
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.name, r.json.install_path, r.json.trust_level, r.json.scan_verdict], [
      "packed",
      "packed",
      "community",
      "safe",
    ]);
    equal(Deno.readTextFileSync(`${home}/skills/packed/references/r.md`), "# R\n");
  }
});

Deno.test("[HUB-2][§18] hostile archives are refused whole, the tree unchanged and the quarantine empty", async () => {
  const home = makeTree({ "skills/keep/SKILL.md": "---\nname: keep\ndescription: K\n---\nk\n" });
  const cases: [string, string, string][] = [
    [
      "dotdot",
      "tar.gz",
      "Refusing the archive: entry 'packed/../../evil.md' climbs out with '..'.",
    ],
    ["absolute", "tar.gz", "Refusing the archive: entry '/tmp/evil.md' has an absolute path."],
    [
      "symlink",
      "tar.gz",
      "Refusing the archive: entry 'packed/references/leak.md' is a symbolic link.",
    ],
    [
      "hardlink",
      "tar.gz",
      "Refusing the archive: entry 'packed/references/hard.md' is a hard link.",
    ],
    ["device", "tar.gz", "Refusing the archive: entry 'packed/dev' is a device or FIFO."],
    ["many", "tar.gz", "Refusing the archive: more than 1000 files."],
    ["bomb-zip", "zip", "Refusing the archive: more than 26214400 bytes when extracted."],
    [
      "zip-symlink",
      "zip",
      "Refusing the archive: entry 'packed/references/leak.md' is a symbolic link.",
    ],
  ];
  const before = snapshot(`${home}/skills`);
  for (const [kind, ext, error] of cases) {
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      await archive(kind, ext),
      "--yes",
      "--force",
    ]);
    equal(r.code, 1, kind);
    equal(r.json.error, error, kind);
  }
  const big = await archive("big-download", "tar.gz");
  const size = Deno.statSync(big).size;
  const r = await cliJson(["--home", home, "hub", "install", big, "--yes"]);
  equal(r.code, 1);
  equal(r.json.error, `Refusing the archive: it is ${size} bytes; the limit is 10485760.`);
  equal(snapshot(`${home}/skills`), before);
  assertAbsent(`${home}/skills/.hub`, "no scratch folder is left");
});
