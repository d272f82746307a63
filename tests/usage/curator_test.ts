import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cliJson, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";

const DAY = 86_400_000;

Deno.test("[U-2] curator with an injected clock: stale at 14 days, archived at 30, pinned exempt, restore into its category", async () => {
  const t0 = Date.now();
  const at = (days: number) => new Date(t0 + days * DAY).toISOString();
  const home = makeTree({
    "skills/dev/old/SKILL.md": skill("old", "O"),
    "skills/dev/pinned/SKILL.md": skill("pinned", "P"),
    "skills/recent/SKILL.md": skill("recent", "R"),
    // 'recent' was last used on day 20 of the injected clock.
    "skills/.usage.json": JSON.stringify({
      recent: { view_count: 1, use_count: 1, last_used_at: at(20) },
    }),
  });
  equal((await cliJson(["--home", home, "curator", "pin", "pinned"])).json.pinned, true);
  const names = (xs: unknown) => (xs as { name: string }[]).map((s) => s.name).sort();
  const s13 = await cliJson(["--home", home, "curator", "status", "--now", at(13)]);
  deepEqual([names(s13.json.stale), names(s13.json.archivable)], [[], []]);
  const s15 = await cliJson(["--home", home, "curator", "status", "--now", at(15)]);
  deepEqual([names(s15.json.stale), names(s15.json.archivable)], [["old"], []]);
  deepEqual(s15.json.pinned, ["pinned"]);
  const s35 = await cliJson(["--home", home, "curator", "status", "--now", at(35)]);
  deepEqual([names(s35.json.stale), names(s35.json.archivable)], [["recent"], ["old"]]);
  const dry = await cliJson(["--home", home, "curator", "run", "--dry-run", "--now", at(35)]);
  deepEqual([dry.json.archived, dry.json.marked_stale], [["old"], ["recent"]]);
  ok(Deno.statSync(`${home}/skills/dev/old/SKILL.md`).isFile, "a dry run moves nothing");
  const run = await cliJson(["--home", home, "curator", "run", "--now", at(35)]);
  deepEqual(run.json.archived, ["old"]);
  ok(Deno.statSync(`${home}/skills/.archive/old/SKILL.md`).isFile);
  ok(Deno.statSync(`${home}/skills/dev/pinned/SKILL.md`).isFile);
  const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
  deepEqual([usage.old.state, usage.old.origin_path, usage.old.archived_at], [
    "archived",
    "dev/old",
    at(35),
  ]);
  equal(usage.recent.state, "stale");
  const listed = (await cliJson(["--home", home, "list"])).json.skills as { name: string }[];
  deepEqual(listed.map((s) => s.name).sort(), ["pinned", "recent"]);
  const restored = await cliJson(["--home", home, "curator", "restore", "old", "--now", at(36)]);
  deepEqual(restored.json, { success: true, name: "old", path: "dev/old" });
  ok(Deno.statSync(`${home}/skills/dev/old/SKILL.md`).isFile);
  equal(JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`)).old.state, "active");
  equal(
    (await cliJson(["--home", home, "curator", "restore", "ghost"])).json.error,
    `No archived skill named 'ghost' in ${Deno.realPathSync(home)}/skills/.archive.`,
  );
  equal((await cliJson(["--home", home, "curator", "status", "--now", "yesterday"])).code, 2);
  equal((await cliJson(["--home", home, "curator", "unpin", "pinned"])).json.pinned, false);
});

Deno.test("[U-2][HUB-3] recorded paths never reach the home's reserved folders or the whole root", async () => {
  const home = makeTree({
    "skills/.archive/gone/SKILL.md": skill("gone", "Archived."),
    "skills/mine/SKILL.md": skill("mine", "Mine."),
  });
  try {
    for (const origin of [".hub/quarantine", ".archive/x", "cat/.hidden", "node_modules/x"]) {
      Deno.writeTextFileSync(
        `${home}/skills/.usage.json`,
        JSON.stringify({ gone: { state: "archived", origin_path: origin } }),
      );
      const r = await cliJson(["--home", home, "curator", "restore", "gone"]);
      equal(r.code, 1, origin);
      match(String(r.json.error), /is not a path inside the skills folder\.$/);
    }
    Deno.mkdirSync(`${home}/skills/.hub`);
    for (const path of ["", ".", "..", "a/b/c", ".archive"]) {
      Deno.writeTextFileSync(
        `${home}/skills/.hub/lock.json`,
        JSON.stringify({ version: 1, installed: { foo: { install_path: path } } }),
      );
      const before = snapshot(`${home}/skills`);
      const r = await cliJson(["--home", home, "hub", "uninstall", "foo"]);
      equal(r.code, 1, path);
      match(
        String(r.json.error),
        /which is not a skill folder of the local root; it was left as it is\.$/,
      );
      equal(snapshot(`${home}/skills`), before);
    }
  } finally {
    removeTrees(home);
  }
});
