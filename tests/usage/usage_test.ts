import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { readUsage, updateUsage, usageFile } from "../../src/usage/usage.ts";
import { withLock } from "../../src/manage/mutex.ts";
import { listPending } from "../../src/approval/pending.ts";
import {
  assertAbsent,
  cli,
  cliJson,
  makeTree,
  removeTrees,
  REPO,
  skill,
  testHost,
} from "../helpers.ts";

const flags = ["run", "--allow-read", "--allow-write", "--no-prompt", `--config=${REPO}/deno.json`];

Deno.test("[U-1] view bumps view and use counters in a writable root; every field is kept", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A") });
  const rt = new SkillRuntime({ home, host: testHost(home) });
  await rt.view("a");
  await rt.view("a");
  const entry = readUsage(`${home}/skills`).a;
  equal(entry.view_count, 2);
  equal(entry.use_count, 2);
  ok(entry.last_viewed_at !== null && entry.last_viewed_at === entry.last_used_at);
  deepEqual(Object.keys(entry).sort(), [
    "archived_at",
    "created_at",
    "created_by",
    "last_patched_at",
    "last_used_at",
    "last_viewed_at",
    "origin_path",
    "patch_count",
    "pinned",
    "state",
    "use_count",
    "view_count",
  ]);
  rt.viewFile("a", "SKILL.md");
  equal(readUsage(`${home}/skills`).a.view_count, 2);
});

Deno.test("[U-1] a read-only root gets no counters and no error (through the CLI sandbox too)", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "ro/b/SKILL.md": skill("b", "B"),
    "config.yaml": "skills:\n  external_dirs: [ro]\n",
  });
  const lock = new Deno.Command("chattr", { args: ["+i", `${home}/ro`] }).outputSync();
  equal(lock.success, true, "chattr +i is needed to make a folder read-only for root");
  try {
    const r = await cliJson(["--home", home, "view", "b"]);
    equal(r.code, 0);
    equal(r.stderr, "");
    equal(r.json.name, "b");
    assertAbsent(`${home}/ro/.usage.json`);
    equal((await cliJson(["--home", home, "view", "a"])).code, 0);
    equal(readUsage(`${home}/skills`).a.view_count, 1);
  } finally {
    new Deno.Command("chattr", { args: ["-i", `${home}/ro`] }).outputSync();
  }
});

Deno.test("[U-1][§18] a corrupt .usage.json is reported and never overwritten", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A"), "skills/.usage.json": "{broken" });
  const r = await cliJson(["--home", home, "view", "a"]);
  equal(r.code, 0);
  ok(
    (r.json.notes as string[])[0].startsWith(
      `Usage file '${Deno.realPathSync(home)}/skills/.usage.json' does not parse`,
    ),
  );
  equal(Deno.readTextFileSync(`${home}/skills/.usage.json`), "{broken");
  const doctor = await cliJson(["--home", home, "doctor"]);
  ok((doctor.json.diagnostics as { code: string }[]).some((d) => d.code === "usage.unparseable"));
  await rejects(() => updateUsage(`${home}/skills`, () => {}), /does not parse/);
  equal(Deno.readTextFileSync(`${home}/skills/.usage.json`), "{broken");
  const text = await cli(["--home", home, "view", "a"]);
  ok(text.stderr.includes("does not parse"));
});

Deno.test("[M-4] 8 processes bumping usage 50 times each at once lose no update", async () => {
  const root = makeTree({ "keep": "" });
  const runs = Array.from(
    { length: 8 },
    (_, i) =>
      new Deno.Command(Deno.execPath(), {
        args: [...flags, `${REPO}/tests/fixtures/hammer.ts`, "usage", root, `skill-${i % 2}`, "50"],
      }).output(),
  );
  const outs = await Promise.all(runs);
  for (const o of outs) equal(o.code, 0, new TextDecoder().decode(o.stderr));
  const map = JSON.parse(Deno.readTextFileSync(usageFile(root)));
  equal(map["skill-0"].view_count, 200);
  equal(map["skill-1"].view_count, 200);
  equal(map["skill-0"].use_count + map["skill-1"].use_count, 400);
});

Deno.test("[M-4] 8 processes staging 50 pending writes each at once: all 400 records, all valid", async () => {
  const home = makeTree({ "skills/.keep": "" });
  const runs = Array.from(
    { length: 8 },
    (_, i) =>
      new Deno.Command(Deno.execPath(), {
        args: [...flags, `${REPO}/tests/fixtures/hammer.ts`, "stage", home, `p${i}`, "50"],
      }).output(),
  );
  for (const o of await Promise.all(runs)) equal(o.code, 0, new TextDecoder().decode(o.stderr));
  const { records, problems } = listPending(home);
  equal(records.length, 400);
  equal(problems.length, 0);
  equal(new Set(records.map((r) => r.id)).size, 400);
});

Deno.test("[M-4] a writer killed mid-write leaves the old content, and its lock does not block past the stale timeout", async () => {
  const root = makeTree({});
  await updateUsage(root, (map) => void (map.kept = { ...map.kept, view_count: 7 } as never));
  const before = Deno.readTextFileSync(usageFile(root));
  const child = new Deno.Command(Deno.execPath(), {
    args: [...flags, `${REPO}/tests/fixtures/crash_writer.ts`, usageFile(root)],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  equal(new TextDecoder().decode(first.value).trim(), "holding");
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stdout.cancel();
  equal(Deno.readTextFileSync(usageFile(root)), before);
  ok(Deno.statSync(`${usageFile(root)}.lock`).isFile, "the dead writer's lock is still there");
  // A fresh lock is respected: a short wait times out with a clear message.
  await rejects(
    () => withLock(usageFile(root), () => {}, { timeoutMs: 50, staleMs: 60_000 }),
    /Timed out after 0s waiting for the lock/,
  );
  // Once stale, the next writer takes it over.
  await updateUsage(root, (map) => void (map.kept.view_count += 1), {
    timeoutMs: 5_000,
    staleMs: 200,
  });
  equal(readUsage(root).kept.view_count, 8);
});

Deno.test("[U-1] a skill named like an object property (constructor, toString) keeps its counters", async () => {
  const work = makeTree({ "c.md": skill("constructor", "Named like a property.") });
  const home = makeTree({ "skills/.keep": "" });
  try {
    equal((await cli(["--home", home, "create", "constructor", "--file", `${work}/c.md`])).code, 0);
    equal((await cli(["--home", home, "view", "constructor"])).code, 0);
    equal((await cli(["--home", home, "curator", "pin", "constructor"])).code, 0);
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.constructor.view_count, usage.constructor.pinned], [1, true]);
    const run = await cliJson(["--home", home, "curator", "run", "--now", "2099-01-01T00:00:00Z"]);
    deepEqual(run.json.archived, []);
  } finally {
    removeTrees(work, home);
  }
});
