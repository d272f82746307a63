/**
 * [C-7] Every error has a stable code and a class per family, the same class in-process and
 * after crossing the Worker boundary of `openSandboxedRuntime`.
 */
import { equal, ok, rejects } from "node:assert/strict";
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
