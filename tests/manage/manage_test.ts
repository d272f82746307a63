import { deepEqual, equal, ok } from "node:assert/strict";
import { load } from "js-yaml";
import {
  validateName,
  validateSkillContent,
  validateSupportPath,
} from "../../src/manage/validation.ts";
import { SkillrtError } from "../../src/errors.ts";
import {
  assertAbsent,
  cli,
  cliJson,
  makeTree,
  removeTrees,
  skill,
  snapshot,
  tempFile,
  USAGE_FILES,
} from "../helpers.ts";

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SkillrtError) return e.message;
    throw e;
  }
  throw new Error("expected an error");
}

async function manage(home: string, args: string[], stdin?: string) {
  if (stdin === undefined) return await cliJson(["--home", home, ...args]);
  const file = tempFile();
  Deno.writeTextFileSync(file, stdin);
  return await cliJson(["--home", home, ...args, "--file", file]);
}

Deno.test("[M-2] name, category and support path rules with their messages", () => {
  equal(validateName("good-name_1.x"), "good-name_1.x");
  equal(
    messageOf(() => validateName("Bad")),
    "Invalid skill name 'Bad'. Use lowercase letters, digits, dots, hyphens and underscores, starting with a letter or digit (^[a-z0-9][a-z0-9._-]*$).",
  );
  ok(messageOf(() => validateName("-x")).startsWith("Invalid skill name '-x'."));
  equal(
    messageOf(() => validateName("a".repeat(65))),
    "Skill name exceeds 64 characters.",
  );
  equal(
    messageOf(() => validateName("a/b", "Category")),
    "Invalid category 'a/b'. Use lowercase letters, digits, dots, hyphens and underscores, starting with a letter or digit (^[a-z0-9][a-z0-9._-]*$).",
  );
  equal(
    messageOf(() => validateSupportPath("notes/x.md")),
    "File must be under one of: assets, references, scripts, templates. Got: 'notes/x.md'",
  );
  equal(
    messageOf(() => validateSupportPath("references")),
    "File must be under one of: assets, references, scripts, templates. Got: 'references'",
  );
  equal(
    messageOf(() => validateSupportPath("references/../../x")),
    "Path traversal ('..') is not allowed.",
  );
  equal(validateSupportPath("templates/a/b.yaml"), "templates/a/b.yaml");
});

/** js-yaml's reason for refusing `yaml` (the first line of its error, without the position). */
function yamlReason(yaml: string): string {
  try {
    load(yaml);
  } catch (error) {
    return (error as { reason: string }).reason;
  }
  throw new Error(`js-yaml accepted ${JSON.stringify(yaml)}`);
}

Deno.test("[M-2] every content message", () => {
  const cases: [string, string][] = [
    ["", "Content cannot be empty."],
    ["  \n", "Content cannot be empty."],
    ["# no frontmatter\n", "SKILL.md must start with YAML frontmatter (---)."],
    ["---\nname: a\n", "SKILL.md frontmatter is not closed."],
    // The parse error is js-yaml's own reason for the text between the fences (without the
    // last line break, as the fence reader hands it over), asked of js-yaml here, and the
    // SKILL.md line it points at.
    [
      "---\nname: [a\n---\nbody\n",
      `YAML frontmatter parse error: ${yamlReason("name: [a")} (SKILL.md line 2)`,
    ],
    [
      "---\nname: a\ndescription: b: c\n---\nbody\n",
      `YAML frontmatter parse error: ${yamlReason("name: a\ndescription: b: c")} (SKILL.md line 3)`,
    ],
    ["---\n- a\n---\nbody\n", "Frontmatter must be a YAML mapping."],
    ["---\ndescription: d\n---\nbody\n", "Frontmatter must include 'name' field."],
    ["---\nname: a\n---\nbody\n", "Frontmatter must include 'description' field."],
    [
      "---\nname: a\ndescription: d\n---\n\n  \n",
      "SKILL.md must have content after the frontmatter.",
    ],
    [
      `---\nname: a\ndescription: d\n---\n${"x".repeat(100_001)}`,
      `SKILL.md is ${100_001 + 31} characters; the limit is 100000.`,
    ],
  ];
  for (const [content, message] of cases) {
    const got = messageOf(() => validateSkillContent(content));
    ok(got.startsWith(message), `${JSON.stringify(content.slice(0, 30))}: ${got}`);
  }
  validateSkillContent(skill("a", "d"));
});

Deno.test("[M-1][M-3] create: in the local root (with category), content from --file or stdin; existing names refused", async () => {
  const home = makeTree({
    "skills/.keep": "",
    "ext/taken/SKILL.md": skill("other-name", "x"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const r = await manage(home, ["create", "fresh", "--category", "tools"], skill("fresh", "Fresh"));
  equal(r.code, 0, r.stderr);
  equal(
    r.json.message,
    `Created skill 'fresh' in category 'tools' (${skill("fresh", "Fresh").length} characters).`,
  );
  equal(Deno.readTextFileSync(`${home}/skills/tools/fresh/SKILL.md`), skill("fresh", "Fresh"));
  const piped = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "skillrt", "--home", home, "create", "piped"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    cwd: new URL("../..", import.meta.url).pathname,
  }).spawn();
  const writer = piped.stdin.getWriter();
  await writer.write(new TextEncoder().encode(skill("piped", "From stdin")));
  await writer.close();
  const out = await piped.output();
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
  equal(Deno.readTextFileSync(`${home}/skills/piped/SKILL.md`), skill("piped", "From stdin"));
  const dup = await manage(home, ["create", "taken"], skill("taken", "T"));
  equal(dup.code, 1);
  equal(
    dup.json.error,
    `A skill named 'taken' already exists at ${Deno.realPathSync(home)}/ext/taken.`,
  );
  const before = snapshot(home, USAGE_FILES);
  for (
    const [args, error] of [
      [["create", "Bad Name"], "Invalid skill name 'Bad Name'."],
      [["create", "ok", "--category", "a/b"], "Invalid category 'a/b'."],
    ] as [string[], string][]
  ) {
    const bad = await manage(home, args, skill("x", "y"));
    equal(bad.code, 1);
    ok((bad.json.error as string).startsWith(error), bad.json.error as string);
  }
  const invalid = await manage(home, ["create", "nofm"], "no frontmatter\n");
  equal(invalid.json.error, "SKILL.md must start with YAML frontmatter (---).");
  equal(snapshot(home, USAGE_FILES), before);
  equal(
    JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`)).fresh.created_at !== null,
    true,
  );
});

Deno.test("[M-3] patch: exactly once, not found and not unique with a 500-character preview, --replace-all, invalid result not written", async () => {
  const body = `# T\n\nalpha beta alpha\n${"z".repeat(600)}\n`;
  const home = makeTree({
    "skills/t/SKILL.md": skill("t", "T", "", body),
    "skills/t/references/r.md": "one two\n",
  });
  const file = `${home}/skills/t/SKILL.md`;
  const original = Deno.readTextFileSync(file);
  const missing = await manage(home, ["patch", "t", "--old", "gamma", "--new", "x"]);
  equal(missing.json.error, "The text to replace was not found in SKILL.md of skill 't'.");
  equal(missing.json.preview, original.slice(0, 500) + "...");
  const twice = await manage(home, ["patch", "t", "--old", "alpha", "--new", "x"]);
  equal(
    twice.json.error,
    "The text to replace occurs 2 times in SKILL.md of skill 't'; pass --replace-all or include more context.",
  );
  equal(Deno.readTextFileSync(file), original);
  const all = await manage(home, [
    "patch",
    "t",
    "--old",
    "alpha",
    "--new",
    "omega",
    "--replace-all",
  ]);
  equal(all.json.message, "Patched SKILL.md of 't' (2 replacements).");
  ok(Deno.readTextFileSync(file).includes("omega beta omega"));
  const breaking = await manage(home, ["patch", "t", "--old", "name: t\n", "--new", ""]);
  equal(
    breaking.json.error,
    "The patched SKILL.md would be invalid, so it was not written: Frontmatter must include 'name' field.",
  );
  ok(Deno.readTextFileSync(file).includes("name: t"));
  const ref = await manage(home, [
    "patch",
    "t",
    "--old",
    "two",
    "--new",
    "three",
    "--file-path",
    "references/r.md",
  ]);
  equal(ref.code, 0);
  equal(Deno.readTextFileSync(`${home}/skills/t/references/r.md`), "one three\n");
  equal(JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`)).t.patch_count, 2);
});

Deno.test("[M-3] delete: --absorbed-into must name another existing skill; the emptied category folder goes", async () => {
  const home = makeTree({
    "skills/cat/only/SKILL.md": skill("only", "O"),
    "skills/keep/SKILL.md": skill("keep", "K"),
    "skills/.usage.json": JSON.stringify({ only: { view_count: 3 } }),
  });
  equal(
    (await manage(home, ["delete", "only", "--absorbed-into", "ghost"])).json.error,
    "Skill 'ghost' given as --absorbed-into does not exist.",
  );
  equal(
    (await manage(home, ["delete", "only", "--absorbed-into", "only"])).json.error,
    "--absorbed-into must name another skill, not 'only' itself.",
  );
  const r = await manage(home, ["delete", "only", "--absorbed-into", "keep"]);
  equal(r.json.message, "Deleted skill 'only' at cat/only (absorbed into 'keep').");
  assertAbsent(`${home}/skills/cat`);
  equal(JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`)).only, undefined);
  ok(Deno.statSync(`${home}/skills/keep/SKILL.md`).isFile);
});

Deno.test("[M-3] no write or delete through a symbolic link that leaves the root; its target is untouched", async () => {
  const outside = makeTree({
    "target/file.md": "precious\n",
    "skilldir/SKILL.md": skill("linked", "L"),
  });
  const home = makeTree({ "skills/s/SKILL.md": skill("s", "S") });
  Deno.symlinkSync(`${outside}/target`, `${home}/skills/s/references`);
  Deno.symlinkSync(`${outside}/skilldir`, `${home}/skills/linked`);
  const w = await manage(home, ["write-file", "s", "references/file.md"], "overwritten\n");
  equal(
    w.json.error,
    `Refusing to write through a symbolic link: '${Deno.realPathSync(home)}/skills/s/references'.`,
  );
  equal(Deno.readTextFileSync(`${outside}/target/file.md`), "precious\n");
  const e = await manage(home, ["edit", "linked"], skill("linked", "changed"));
  equal(
    e.json.error,
    `Refusing to write through a symbolic link: '${Deno.realPathSync(home)}/skills/linked'.`,
  );
  const d = await manage(home, ["delete", "linked"]);
  equal(d.code, 1);
  equal(Deno.readTextFileSync(`${outside}/skilldir/SKILL.md`), skill("linked", "L"));
});

Deno.test("[M-1] edit, write-file and remove-file; support files validated", async () => {
  const home = makeTree({ "skills/s/SKILL.md": skill("s", "S") });
  equal(
    (await manage(home, ["edit", "s"], skill("s", "Edited"))).json.message,
    `Edited SKILL.md of 's' (${skill("s", "Edited").length} characters).`,
  );
  equal((await manage(home, ["write-file", "s", "templates/t/a.yaml"], "k: v\n")).code, 0);
  equal(Deno.readTextFileSync(`${home}/skills/s/templates/t/a.yaml`), "k: v\n");
  equal(
    (await manage(home, ["write-file", "s", "docs/a.md"], "x")).json.error,
    "File must be under one of: assets, references, scripts, templates. Got: 'docs/a.md'",
  );
  const big = tempFile();
  Deno.writeFileSync(big, new Uint8Array(1024 * 1024 + 1));
  const tooBig = await cliJson([
    "--home",
    home,
    "write-file",
    "s",
    "assets/big.bin",
    "--file",
    big,
  ]);
  equal(tooBig.json.error, "File is 1048577 bytes; the limit is 1048576 bytes.");
  const bin = tempFile();
  Deno.writeFileSync(bin, new Uint8Array([0, 255, 1, 2]));
  equal(
    (await cliJson(["--home", home, "write-file", "s", "assets/b.bin", "--file", bin])).code,
    0,
  );
  deepEqual(Array.from(Deno.readFileSync(`${home}/skills/s/assets/b.bin`)), [0, 255, 1, 2]);
  // Only a support file may be bytes (its row's content is a file's); a SKILL.md is UTF-8 text.
  const binarySkill = await cli(["--home", home, "edit", "s", "--file", bin]);
  deepEqual(
    [binarySkill.code, binarySkill.stderr],
    [2, "skillrt: The content is not valid UTF-8 text.\n"],
  );
  equal(
    (await manage(home, ["remove-file", "s", "assets/b.bin"])).json.message,
    "Removed assets/b.bin from 's'.",
  );
  equal(
    (await manage(home, ["remove-file", "s", "assets/none.bin"])).json.error,
    "File 'assets/none.bin' not found in skill 's'.",
  );
  const noContent = await cli(["--home", home, "edit", "s", "--file", "/nonexistent/file"]);
  equal(noContent.code, 1, "a file that is not there is not found, as every other path");
  equal(noContent.stderr, "skillrt: Cannot read --file '/nonexistent/file': no such file.\n");
  const folder = await cli(["--home", home, "edit", "s", "--file", home]);
  equal(folder.code, 1);
  equal(folder.stderr, `skillrt: Cannot read --file '${home}': it is a folder.\n`);
});

Deno.test("[X-1] a writing command's Worker may write only the folders it changes", async () => {
  const home = makeTree({
    "skills/cat/s/SKILL.md": skill("s", "S"),
    "skills/other/SKILL.md": skill("other", "O"),
  });
  const real = Deno.realPathSync(home);
  const usage = [".usage.json", ".usage.json.lock", ".usage.json.lock.break", ".usage.json.tmp"]
    .map((f) => `${real}/skills/${f}`);
  const plan = async (...args: string[]) =>
    ((await cliJson(["--home", home, "sandbox", ...args])).json.plan as { write: string[] }).write;
  deepEqual(await plan("edit", "s"), [...usage, `${real}/skills/cat/s`].sort());
  deepEqual(
    await plan("delete", "s"),
    [...usage, `${real}/skills/cat`, `${real}/skills/cat/s`].sort(),
  );
  deepEqual(
    await plan("create", "new", "--category", "fresh"),
    [...usage, `${real}/skills/fresh`].sort(),
  );
  deepEqual(
    await plan("create", "new", "--category", "cat"),
    [...usage, `${real}/skills/cat/new`].sort(),
  );
  deepEqual(await plan("list"), []);
  const missing = await cliJson(["--home", home, "sandbox", "edit", "ghost"]);
  equal(missing.json.error, "Skill 'ghost' not found.");
});

Deno.test("[M-1] a skill in a read-only root is not changed: one clear error, nothing written", async () => {
  const home = makeTree({
    "skills/.keep": "",
    "ro/r/SKILL.md": skill("r", "R"),
    "config.yaml": "skills:\n  external_dirs: [ro]\n",
  });
  const lock = new Deno.Command("chattr", { args: ["+i", `${home}/ro/r`] }).outputSync();
  equal(lock.success, true, "chattr +i is needed to make a folder read-only for root");
  try {
    const r = await manage(home, ["edit", "r"], skill("r", "changed"));
    equal(r.code, 1);
    equal(
      r.json.error,
      `Cannot write in '${Deno.realPathSync(home)}/ro/r': the folder is read-only for this user.`,
    );
    equal(Deno.readTextFileSync(`${home}/ro/r/SKILL.md`), skill("r", "R"));
  } finally {
    new Deno.Command("chattr", { args: ["-i", `${home}/ro/r`] }).outputSync();
  }
});

Deno.test("[M-2] a name over 64 characters gets Hermes's message", async () => {
  const home = makeTree({ "skills/.keep": "", "s.md": skill("x", "X.") });
  try {
    const r = await cliJson(["--home", home, "create", "a".repeat(65), "--file", `${home}/s.md`]);
    equal(r.code, 1);
    equal(r.json.error, "Skill name exceeds 64 characters.");
  } finally {
    removeTrees(home);
  }
});
