import { deepEqual, equal } from "node:assert/strict";
import { cliJson, makeTree, skill } from "./helpers.ts";

const statuses = async (home: string) =>
  ((await cliJson(["--home", home, "hub", "check"])).json.skills as {
    name: string;
    status: string;
  }[]).map((s) => [s.name, s.status]);

Deno.test("[HUB-6] hub check statuses and hub update (refusing a locally modified skill without --force)", async () => {
  const src = makeTree({
    "a/SKILL.md": skill("a", "A1"),
    "b/SKILL.md": skill("b", "B1"),
    "c/SKILL.md": skill("c", "C1"),
  });
  const home = makeTree({ "skills/.keep": "" });
  for (const n of ["a", "b", "c"]) {
    equal((await cliJson(["--home", home, "hub", "install", `${src}/${n}`, "--yes"])).code, 0);
  }
  deepEqual(await statuses(home), [["a", "up_to_date"], ["b", "up_to_date"], ["c", "up_to_date"]]);
  Deno.writeTextFileSync(`${src}/a/SKILL.md`, skill("a", "A2"));
  Deno.writeTextFileSync(`${home}/skills/b/SKILL.md`, skill("b", "mine"));
  Deno.removeSync(`${src}/c`, { recursive: true });
  deepEqual(await statuses(home), [["a", "update_available"], ["b", "locally_modified"], [
    "c",
    "unavailable",
  ]]);
  const up = await cliJson(["--home", home, "hub", "update"]);
  equal(up.code, 1);
  deepEqual((up.json.updated as { name: string }[]).map((u) => u.name), ["a"]);
  deepEqual(up.json.refused, [{
    name: "b",
    error: "'b' was changed locally; pass --force to replace it with the source's version.",
  }]);
  equal(Deno.readTextFileSync(`${home}/skills/a/SKILL.md`), skill("a", "A2"));
  equal(Deno.readTextFileSync(`${home}/skills/b/SKILL.md`), skill("b", "mine"));
  const forced = await cliJson(["--home", home, "hub", "update", "b", "--force"]);
  equal(forced.code, 0);
  equal(Deno.readTextFileSync(`${home}/skills/b/SKILL.md`), skill("b", "B1"));
  Deno.removeSync(`${home}/skills/a`, { recursive: true });
  deepEqual(await statuses(home), [["a", "orphaned"], ["b", "up_to_date"], ["c", "unavailable"]]);
  equal(
    (await cliJson(["--home", home, "hub", "check", "zzz"])).json.error,
    "'zzz' is not a hub-installed skill",
  );
  const log = Deno.readTextFileSync(`${home}/skills/.hub/audit.log`).trim().split("\n").map((l) =>
    l.split(" ")[1]
  );
  deepEqual(log, ["INSTALL", "INSTALL", "INSTALL", "UPDATE", "UPDATE"]);
});
