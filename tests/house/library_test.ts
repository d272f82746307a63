/**
 * [C-7] The library script of docs/library.md runs as a separate Deno process with no
 * import map and no configuration file, importing `mod.ts` by path, with exactly the flags
 * the doc gives.
 */
import { equal, match } from "node:assert/strict";
import { copyTree, removeTrees, REPO } from "../helpers.ts";
import { docBlock } from "./user_docs.ts";

const DOC = "docs/library.md";
const HEADING = "# The library";

Deno.test("[C-7] the library doc's script runs with no import map, with the doc's flags", async () => {
  const work = Deno.makeTempDirSync({ prefix: "skillrt-lib-" });
  const home = copyTree(`${REPO}/examples/home`);
  try {
    Deno.symlinkSync(REPO, `${work}/skillrt`);
    Deno.writeTextFileSync(`${work}/skills.ts`, docBlock(DOC, HEADING, "ts"));
    const command = docBlock(DOC, HEADING, "sh").trim().split(/\s+/);
    equal(command.slice(0, 2).join(" "), "deno run");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...command.slice(1, -1), "--no-config", "--no-lock", command.at(-1)!, home],
      cwd: work,
      env: { NO_COLOR: "1" },
    }).output();
    const dec = new TextDecoder();
    equal(out.code, 0, dec.decode(out.stderr));
    const [first, second] = dec.decode(out.stdout).trim().split("\n");
    match(first, /^11 \[ "references\/layers\.md" \] 237 \d+$/);
    equal(second, "11 7");
  } finally {
    removeTrees(work, home);
  }
});
