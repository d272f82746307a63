/**
 * [L0-7] search ranks by words: stop words and pieces inside words match nothing on their
 * own; and [C-8] tables fit the terminal's width, marking what they cut with `…`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { atTerminal, NO_PTY } from "../pty_helpers.ts";

const LONG = "Knowledge and utilities for creating animated GIFs optimized for Slack. " +
  "Provides constraints, validation tools and animation concepts for every kind of emoji.";

function home(): string {
  return makeTree({
    "skills/slack-gif-creator/SKILL.md": skill("slack-gif-creator", LONG),
    "skills/bash-helper/SKILL.md": skill("bash-helper", "Runs a bash script for you."),
    "skills/docx/SKILL.md": skill("docx", "Make and edit Word documents."),
  });
}

const names = (doc: Record<string, unknown>) =>
  (doc.skills as { name: string }[]).map((s) => s.name);

Deno.test("[L0-7] search: stop words and substrings inside words do not match on their own", async () => {
  const h = home();
  try {
    const q = async (query: string) => names((await cliJson(["--home", h, "search", query])).json);
    deepEqual(await q("make a gif for slack"), ["slack-gif-creator", "docx"]);
    deepEqual(
      await q("a for the"),
      ["bash-helper", "slack-gif-creator"],
      "only stop words: they count",
    );
    deepEqual(await q("ash"), [], "no piece inside a word");
    deepEqual(await q("gifs"), ["slack-gif-creator"]);
    deepEqual(await q("anim"), ["slack-gif-creator"], "a word's beginning matches");
    deepEqual(await q("BASH"), ["bash-helper"]);
  } finally {
    removeTrees(h);
  }
});

Deno.test({
  name: `[C-8] list at a terminal uses its width and marks the cut with …${NO_PTY}`,
  ignore: NO_PTY !== "",
  fn: async () => {
    const h = home();
    try {
      for (const columns of [160, 60]) {
        const run = await atTerminal(["--home", h, "list"], [], { NO_COLOR: "1" }, columns);
        equal(run.code, 0, run.output);
        const line = run.output.split("\n").find((l) => l.startsWith("slack-gif-creator"))!;
        equal(line.length, columns - 1, `${columns}: ${line}`);
        ok(line.endsWith("…"), line);
      }
    } finally {
      removeTrees(h);
    }
  },
});
