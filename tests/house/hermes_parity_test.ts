import { deepEqual, equal } from "node:assert/strict";
import { BENCH, cliJson, needsBench } from "../helpers.ts";

Deno.test(
  needsBench(
    "[PERF][S-7] on a generated 1,000-skill home, list names exactly the skills the Hermes algorithm lists",
  ),
  async () => {
    const home = Deno.makeTempDirSync({ prefix: "skillrt-parity-" });
    try {
      const gen = await new Deno.Command("python3", {
        args: [`${BENCH}/gen_tree.py`, home, "1000"],
        stdout: "null",
      }).output();
      equal(gen.success, true);
      const hermes = await new Deno.Command("python3", {
        args: [`${BENCH}/hermes_ref.py`, home],
        stdout: "piped",
      }).output();
      equal(hermes.success, true, "hermes_ref.py needs python3 with PyYAML");
      const theirs = JSON.parse(new TextDecoder().decode(hermes.stdout));
      const ours = (await cliJson(["--home", home, "list"])).json;
      // The documented difference ([S-7]): a name used twice in one root is listed once,
      // marked ambiguous, where Hermes lists the first one found. Compare everything else.
      const plain = (
        skills: {
          name: string;
          description: string;
          category: string | null;
          ambiguous?: boolean;
        }[],
      ) => skills.filter((s) => !s.ambiguous).map((s) => [s.name, s.description, s.category]);
      const ambiguous = (ours.skills as { name: string; ambiguous?: boolean }[]).filter((s) =>
        s.ambiguous
      ).map((s) => s.name);
      deepEqual(
        plain(ours.skills as never),
        plain(theirs.skills).filter(([name]) => !ambiguous.includes(name as string)),
      );
      equal(ours.count, theirs.count);
      deepEqual(ours.categories, theirs.categories);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  },
);
