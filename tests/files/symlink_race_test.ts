/**
 * [S-9] No check-then-open gap: while another process swaps a skill's `references/`
 * between a real folder and a link to a folder outside every root, Level-2 reads and
 * file summaries never return the outside file. Bounded by tries, not by time.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { fileSummaries } from "../../src/view/skill_files.ts";
import { makeTree, skill, startSwapper, testHost } from "../helpers.ts";

const TOKEN = `CANARY-${crypto.randomUUID()}`;
const TRIES = 500;

function setup() {
  const outside = makeTree({ "refs/canary.md": `${TOKEN}\n` });
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "ext/race/SKILL.md": skill("race", "a skill whose references/ is swapped"),
    "ext/race/references/canary.md": "inside\n",
  });
  Deno.symlinkSync(`${outside}/refs`, `${home}/ext/race/references.link`);
  return { home, outside, dir: `${home}/ext/race` };
}

Deno.test("[S-9] the library refuses a link out of an external skill at Level 2 and in summaries", async () => {
  const { home, outside, dir } = setup();
  try {
    Deno.renameSync(`${dir}/references`, `${dir}/references.real`);
    Deno.renameSync(`${dir}/references.link`, `${dir}/references`);
    const rt = new SkillRuntime({ home, host: testHost(home) });
    let error = "";
    try {
      await rt.viewFile("race", "references/canary.md");
    } catch (e) {
      error = (e as Error).message;
    }
    equal(error, "Path escapes allowed directory: references/canary.md");
    deepEqual(
      fileSummaries(dir, {
        references: ["references/canary.md"],
        templates: [],
        assets: [],
        scripts: [],
      }),
      [],
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test(`[S-9] a references/ swapped for a link outside the roots by another process never escapes a Level-2 read (${TRIES} tries)`, async () => {
  const { home, outside, dir } = setup();
  const swapper = await startSwapper(`${dir}/references`, `${home}/ready`);
  try {
    const rt = new SkillRuntime({ home, host: testHost(home) });
    const linked = { references: ["references/canary.md"], templates: [], assets: [], scripts: [] };
    let served = 0, refused = 0;
    const leaks: string[] = [];
    for (let i = 0; i < TRIES; i++) {
      try {
        const content = (await rt.viewFile("race", "references/canary.md")).content ?? "";
        if (content.includes(TOKEN)) leaks.push(`try ${i}: viewFile`);
        else served++;
      } catch (error) {
        const message = (error as Error).message;
        if (message.includes(TOKEN)) leaks.push(`try ${i}: error message`);
        refused++;
      }
      for (const summary of fileSummaries(dir, linked, [Deno.realPathSync(`${home}/ext`)])) {
        if (JSON.stringify(summary).includes(TOKEN)) leaks.push(`try ${i}: summary`);
      }
    }
    deepEqual(leaks, []);
    equal(served + refused, TRIES);
    ok(refused > 0, "the swapper never got in the way: the race was not run");
  } finally {
    swapper.kill();
    await swapper.status;
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test(`[S-9] a skill folder swapped for a link to a skill outside the roots never leaks into list or view (${TRIES} tries)`, async () => {
  const outside = makeTree({
    "skill/SKILL.md": `---\nname: race\ndescription: ${TOKEN}\n---\n\n${TOKEN}\n`,
  });
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "ext/race/SKILL.md": skill("race", "inside"),
  });
  Deno.symlinkSync(`${outside}/skill`, `${home}/ext/race.link`);
  const swapper = await startSwapper(`${home}/ext/race`, `${home}/ready`);
  try {
    const rt = new SkillRuntime({ home, host: testHost(home) });
    let listed = 0, viewed = 0;
    const leaks: string[] = [];
    for (let i = 0; i < TRIES; i++) {
      const list = JSON.stringify(await rt.list());
      if (list.includes(TOKEN)) leaks.push(`try ${i}: list`);
      if (list.includes('"race"')) listed++;
      try {
        const view = JSON.stringify(await rt.view("race"));
        if (view.includes(TOKEN)) leaks.push(`try ${i}: view`);
        else viewed++;
      } catch (error) {
        if ((error as Error).message.includes(TOKEN)) leaks.push(`try ${i}: view error`);
      }
    }
    deepEqual(leaks, []);
    ok(listed < TRIES && viewed < TRIES, "the swapper never got in the way: the race was not run");
  } finally {
    swapper.kill();
    await swapper.status;
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});
