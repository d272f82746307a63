/**
 * [C-7] Every error has a stable code and a class per family, the same class in-process and
 * after crossing the Worker boundary of `openSandboxedRuntime`.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import {
  AmbiguousError,
  errorOfCode,
  NotFoundError,
  openSandboxedRuntime,
  type SkillrtError,
  SkillRuntime,
  UsageError,
  ValidationError,
} from "../../mod.ts";
import { makeTree, removeTrees, skill } from "../helpers.ts";
import { uninstall } from "../../src/hub/installed.ts";
import { restoreArchived } from "../../src/usage/curator.ts";
import { SkillManager } from "../../src/manage/manager.ts";
import { indexUrl } from "../../src/hub/well_known_index.ts";
import { fetchLocal } from "../../src/hub/fetch.ts";
import { publishSite } from "../../src/hub/publish.ts";
import { PathEscapeError } from "../../src/files/open_inside.ts";

Deno.test("[C-7] errors keep their class and code in-process and across the sandbox Worker", async () => {
  const home = makeTree({
    "skills/a/dup/SKILL.md": skill("dup", "One."),
    "skills/b/dup/SKILL.md": skill("dup", "Two."),
    "skills/solo/SKILL.md": skill("solo", "Solo."),
  });
  try {
    for (const rt of [new SkillRuntime({ home }), openSandboxedRuntime({ home })]) {
      const missing = await rejects(rt.view("nope"), (e: unknown) => {
        ok(e instanceof NotFoundError, String(e));
        equal((e as NotFoundError).code, "not_found");
        equal((e as NotFoundError).message, "Skill 'nope' not found.");
        return true;
      });
      equal(missing, undefined);
      await rejects(rt.view("dup"), (e: unknown) => e instanceof AmbiguousError);
      await rejects(
        rt.viewFile("solo", "references/x.md"),
        (e: unknown) => e instanceof NotFoundError && (e as NotFoundError).code === "not_found",
      );
    }
    const rebuilt = errorOfCode("invalid", "Content cannot be empty.", {}, 1);
    ok(rebuilt instanceof ValidationError);
    equal(rebuilt.code, "invalid");
    ok(errorOfCode("usage", "bad", {}, 2) instanceof UsageError);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[C-7] each failure carries its family's class and code: a bad name or path is invalid, what is not there not_found, a bad work dir usage", async () => {
  const home = makeTree({
    "skills/tool/SKILL.md": skill("tool", "a tool"),
    "skills/tool/scripts/x.sh": "echo x\n",
  });
  const rt = new SkillRuntime({ home });
  const local = `${home}/skills`;
  try {
    type Case = [() => Promise<unknown>, abstract new (...a: never[]) => SkillrtError, string];
    const diff = async () => await new SkillManager(rt.setup).diff("0123abcd");
    const cases: Case[] = [
      [
        () => rt.view("../x"),
        ValidationError,
        "Skill name cannot contain '..' path traversal components.",
      ],
      [
        () => rt.readFile("tool", "/etc/passwd"),
        ValidationError,
        "Absolute paths are not allowed: '/etc/passwd'.",
      ],
      [() => uninstall(local, "nope"), NotFoundError, "'nope' is not a hub-installed skill"],
      [diff, NotFoundError, "No pending skills write with id '0123abcd'."],
      [
        () => restoreArchived(local, "gone", new Date()),
        NotFoundError,
        `No archived skill named 'gone' in ${local}/.archive.`,
      ],
      [
        () => rt.run("tool", "scripts/x.sh", { workdir: `${home}/none` }),
        UsageError,
        `The work dir '${home}/none' is not a folder.`,
      ],
    ];
    const CODES = new Map<unknown, string>([[ValidationError, "invalid"], [
      NotFoundError,
      "not_found",
    ], [UsageError, "usage"]]);
    for (const [failing, Class, message] of cases) {
      await rejects(failing(), (error: SkillrtError) => {
        ok(error instanceof Class, `${error.name}: ${error.message}`);
        equal(error.code, CODES.get(Class), error.message);
        equal(error.message, message);
        return true;
      });
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[C-7] the bare throws that were failed: content and names invalid, what is missing not_found, a line usage, a path escape invalid", async () => {
  const home = makeTree({ "skills/tool/SKILL.md": skill("tool", "a tool") });
  const empty = makeTree({ "notes.txt": "no skill here\n" });
  const rt = new SkillRuntime({ home });
  const manager = new SkillManager(rt.setup);
  try {
    const patch = (old: string) => () =>
      manager.run({ action: "patch", name: "tool", old, new: "x" } as never);
    type Case = [() => Promise<unknown>, string, string];
    const cases: Case[] = [
      [
        patch("no such text"),
        "invalid",
        "The text to replace was not found in SKILL.md of skill 'tool'.",
      ],
      [patch(""), "invalid", "The text to replace (--old) cannot be empty."],
      [
        () => Promise.resolve().then(() => indexUrl("ftp://h/x")),
        "invalid",
        "Index 'ftp://h/x' is not an http(s) URL.",
      ],
      [() => fetchLocal(empty), "not_found", `Source '${empty}' has no SKILL.md.`],
      [
        () =>
          publishSite({
            dirs: [`${home}/skills/tool`],
            out: `${empty}/site`,
            baseUrl: "ftp://x",
            cwd: empty,
          }),
        "usage",
        "--base-url 'ftp://x' is not an http(s) URL.",
      ],
    ];
    for (const [failing, code, message] of cases) {
      await rejects(failing(), (error: SkillrtError) => {
        deepEqual([error.code, error.message], [code, message]);
        equal(error.exitCode, code === "usage" ? 2 : 1);
        return true;
      });
    }
    equal(new PathEscapeError("/x").code, "invalid");
  } finally {
    removeTrees(home, empty);
  }
});
