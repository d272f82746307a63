/**
 * [X-6][S-9] No check-then-write gap: while another process swaps a skill's `references/`
 * between a real folder and a link to a folder outside the home, `write-file` never
 * writes outside — the opened temporary file is proved to be in the checked folder before
 * it is renamed into place. Bounded by tries, not by time.
 */
import { deepEqual, ok } from "node:assert/strict";
import { resolveSetup } from "../src/home/setup.ts";
import { atomicWrite } from "../src/manage/atomic.ts";
import { SkillManager } from "../src/manage/manager.ts";
import { makeTree, removeTrees, skill, startSwapper, testHost } from "./helpers.ts";

const TRIES = 500;

Deno.test(`[X-6] write-file into a references/ swapped for a link out of the home never writes outside (${TRIES} tries)`, async () => {
  const outside = makeTree({ "refs/keep.md": "keep\n" });
  const home = makeTree({
    "skills/race/SKILL.md": skill("race", "A skill whose references/ is swapped."),
    "skills/race/references/keep.md": "inside\n",
  });
  const dir = `${home}/skills/race`;
  Deno.symlinkSync(`${outside}/refs`, `${dir}/references.link`);
  const swapper = await startSwapper(`${dir}/references`, `${home}/ready`);
  let written = 0;
  let refused = 0;
  try {
    const manager = new SkillManager(resolveSetup({ home, host: testHost(home) }));
    const within = Deno.realPathSync(dir);
    for (let i = 0; i < TRIES; i++) {
      // The writer every write goes through, straight at the swapped folder…
      try {
        atomicWrite(`${dir}/references/w${i}.md`, `# w${i}\n`, { within });
      } catch {
        // Refused: the folder was a link at the check, or was swapped after the open.
      }
      // …and a whole write-file, validation included.
      try {
        await manager.run({
          action: "write-file",
          name: "race",
          path: `references/d${i}/n${i}.md`,
          content: `# n${i}\n`,
        });
        written++;
      } catch {
        refused++; // refused or raced: either way nothing may land outside
      }
    }
  } finally {
    swapper.kill("SIGKILL");
    await swapper.status;
  }
  try {
    deepEqual([...Deno.readDirSync(`${outside}/refs`)].map((e) => e.name), ["keep.md"]);
    ok(written + refused === TRIES && written > 0, `${written} written, ${refused} refused`);
  } finally {
    removeTrees(home, outside);
  }
});
