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
  SkillRuntime,
  UsageError,
  ValidationError,
} from "../mod.ts";
import { makeTree, removeTrees, skill } from "./helpers.ts";

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
