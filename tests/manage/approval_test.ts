import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, skill, snapshot, tempFile, USAGE_FILES } from "../helpers.ts";

const approvalHome = (files: Record<string, string> = {}) =>
  makeTree({
    "skills/s/SKILL.md": skill("s", "S", "", "# S\n\nold line\n"),
    "config.yaml": "skills:\n  write_approval: true\n",
    ...files,
  });

async function withFile(content: string): Promise<string> {
  const file = tempFile();
  await Deno.writeTextFile(file, content);
  return file;
}

/** Runs `create NAME --file F` (or `edit`) with `content` in a temp file; the CLI's JSON answer. */
async function withContent(home: string, action: "create" | "edit", name: string, content: string) {
  return await cliJson(["--home", home, action, name, "--file", await withFile(content)]);
}

Deno.test("[A-1] with write_approval on, a create is staged: exact result, record on disk, skills tree untouched", async () => {
  const home = approvalHome();
  const before = snapshot(`${home}/skills`, USAGE_FILES);
  const r = await withContent(home, "create", "newbie", skill("newbie", "N"));
  equal(r.code, 0, r.stderr);
  const id = r.json.pending_id as string;
  match(id, /^[0-9a-f]{8}$/);
  deepEqual(r.json, {
    success: true,
    staged: true,
    pending_id: id,
    gist: `create skill 'newbie' (${skill("newbie", "N").length} characters)`,
    message:
      "Staged for approval (skills.write_approval is on). Not yet saved — review with skillrt pending.",
    scan_verdict: "safe",
  });
  equal(snapshot(`${home}/skills`, USAGE_FILES), before);
  const record = JSON.parse(Deno.readTextFileSync(`${home}/pending/skills/${id}.json`));
  deepEqual(Object.keys(record).sort(), [
    "action",
    "created_at",
    "id",
    "payload",
    "scan_findings",
    "scan_verdict",
    "summary",
  ]);
  deepEqual(record.payload, {
    action: "create",
    name: "newbie",
    content: skill("newbie", "N"),
    actor: "user",
  });
  const invalid = await withContent(home, "create", "bad", "no frontmatter");
  equal(invalid.code, 1);
  equal(invalid.json.error, "SKILL.md must start with YAML frontmatter (---).");
  equal((await cliJson(["--home", home, "pending"])).json.count, 1);
});

Deno.test("[A-2] pending lists oldest first; diff shows new content for create and a unified diff otherwise; approve applies; reject removes", async () => {
  const home = approvalHome();
  const create = (await withContent(home, "create", "newbie", skill("newbie", "N"))).json
    .pending_id as string;
  const patch =
    (await cliJson(["--home", home, "patch", "s", "--old", "old line", "--new", "new line"])).json
      .pending_id as string;
  const edit = (await withContent(home, "edit", "s", skill("s", "S2", "", "# S\n\nrewritten\n")))
    .json.pending_id as string;
  const list = await cliJson(["--home", home, "pending"]);
  deepEqual((list.json.pending as { id: string }[]).map((p) => p.id), [create, patch, edit]);
  equal((await cli(["--home", home, "pending", "diff", create])).stdout, skill("newbie", "N"));
  equal(
    (await cli(["--home", home, "pending", "diff", patch])).stdout,
    [
      "--- a/SKILL.md",
      "+++ b/SKILL.md",
      "@@ -5,4 +5,4 @@",
      " ",
      " # S",
      " ",
      "-old line",
      "+new line",
      "",
    ].join("\n"),
  );
  match(
    (await cli(["--home", home, "pending", "diff", edit])).stdout,
    /^--- a\/SKILL\.md\n\+\+\+ b\/SKILL\.md\n@@ /,
  );
  const rejected = await cliJson(["--home", home, "pending", "reject", edit]);
  deepEqual(rejected.json.rejected, [edit]);
  const approved = await cliJson(["--home", home, "pending", "approve", "all"]);
  equal(approved.code, 0);
  deepEqual((approved.json.approved as { action: string }[]).map((a) => a.action), [
    "create",
    "patch",
  ]);
  equal(Deno.readTextFileSync(`${home}/skills/newbie/SKILL.md`), skill("newbie", "N"));
  ok(Deno.readTextFileSync(`${home}/skills/s/SKILL.md`).includes("new line"));
  equal((await cliJson(["--home", home, "pending"])).json.count, 0);
});

Deno.test("[A-2] a failing apply stays pending with its error; unknown id; unparseable record reported, not applied", async () => {
  const home = approvalHome();
  const a = (await withContent(home, "create", "twin", skill("twin", "A"))).json
    .pending_id as string;
  const b = (await withContent(home, "create", "twin", skill("twin", "B"))).json
    .pending_id as string;
  const r = await cliJson(["--home", home, "pending", "approve", "all"]);
  equal(r.code, 1);
  deepEqual(r.json.failed, [{
    id: b,
    error: `A skill named 'twin' already exists at ${Deno.realPathSync(home)}/skills/twin.`,
  }]);
  const left = await cliJson(["--home", home, "pending"]);
  deepEqual((left.json.pending as { id: string; error: string }[]).map((p) => [p.id, p.error]), [[
    b,
    r.json.failed && (r.json.failed as { error: string }[])[0].error,
  ]]);
  ok(a !== b);
  const unknown = await cliJson(["--home", home, "pending", "approve", "deadbeef"]);
  equal(unknown.json.error, "No pending skills write with id 'deadbeef'.");
  equal(
    (await cliJson(["--home", home, "pending", "diff", "nothex"])).json.error,
    "No pending skills write with id 'nothex'.",
  );
  Deno.writeTextFileSync(`${home}/pending/skills/0badc0de.json`, "{not json");
  const listed = await cliJson(["--home", home, "pending"]);
  equal(listed.code, 1);
  equal((listed.json.problems as { id: string }[])[0].id, "0badc0de");
  const bad = await cliJson(["--home", home, "pending", "approve", "0badc0de"]);
  equal(bad.code, 1);
  match(bad.json.error as string, /^Pending record '0badc0de' does not parse/);
  equal(Deno.readTextFileSync(`${home}/pending/skills/0badc0de.json`), "{not json");
});

Deno.test("[A-2] the queue holds at most 500 entries; past that, staging is refused", async () => {
  const home = approvalHome();
  Deno.mkdirSync(`${home}/pending/skills`, { recursive: true });
  for (let i = 0; i < 500; i++) {
    const id = i.toString(16).padStart(8, "0");
    Deno.writeTextFileSync(
      `${home}/pending/skills/${id}.json`,
      JSON.stringify({
        id,
        action: "delete",
        summary: "x",
        created_at: "2026-01-01T00:00:00Z",
        payload: { action: "delete", name: "s" },
      }),
    );
  }
  const r = await cliJson(["--home", home, "delete", "s"]);
  equal(r.code, 1);
  equal(
    r.json.error,
    "The pending queue is full (500 entries); approve or reject some with 'skillrt pending' before staging more.",
  );
  ok(Deno.statSync(`${home}/skills/s/SKILL.md`).isFile);
});
