/**
 * [C-5] The bash completion script, run by bash itself against the real CLI: commands after
 * `--home VALUE`, sub-actions, `--format` and `--profile` values, option names and skill
 * names asked of `skillrt list --names` with the line's `--home`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { cli, DEMO_HOME, removeTrees, REPO } from "../helpers.ts";

Deno.test("[C-5] bash completes commands, sub-actions, option values and skill names", async () => {
  const bin = Deno.makeTempDirSync({ prefix: "skillrt-bin-" });
  try {
    Deno.writeTextFileSync(
      `${bin}/skillrt`,
      `#!/bin/sh\nexec "${Deno.execPath()}" run ${WARDEN_FLAGS.join(" ")} "${REPO}/main.ts" "$@"\n`,
    );
    Deno.chmodSync(`${bin}/skillrt`, 0o755);
    const script = (await cli(["completions", "bash"])).stdout;
    Deno.writeTextFileSync(`${bin}/complete.sh`, script);
    const lines: [string[], string][] = [
      [["--home", DEMO_HOME, "vi"], "view"],
      [
        ["hub", ""],
        "install search list uninstall verify check update scan audit publish keygen lock",
      ],
      [["prompt", "--format", ""], "xml markdown json"],
      [["graph", "--format", ""], "mermaid dot json"],
      [["validate", "--profile", "a"], "agentskills"],
      [["pending", ""], "list diff approve reject"],
      [["completions", ""], "bash zsh fish"],
      [["list", "--c"], "--category --categories"],
      [["--home", DEMO_HOME, "view", "dock"], "docker-basics"],
      [["--home", DEMO_HOME, "--json", "invoke", "release"], "release-notes"],
      [["--home", DEMO_HOME, "curator", "pin", "comm"], "commit-messages"],
    ];
    const calls = lines.map(([words]) => `t skillrt ${words.map((w) => `'${w}'`).join(" ")}`).join(
      "\n",
    );
    const out = new Deno.Command("bash", {
      args: [
        "-c",
        `source '${bin}/complete.sh'\nt() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _skillrt; echo "\${COMPREPLY[*]}"; }\n${calls}`,
      ],
      env: { PATH: `${bin}:${Deno.env.get("PATH")}`, NO_COLOR: "1" },
    }).outputSync();
    equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const got = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
    deepEqual(got, lines.map(([, want]) => want));
    // fish and zsh scripts come from the same table.
    const fish = (await cli(["completions", "fish"])).stdout;
    ok(fish.includes("-l format -x -a 'xml markdown json'"), fish);
    ok(fish.includes("-x -a '(skillrt list --names 2>/dev/null)'"));
    ok((await cli(["completions", "zsh"])).stdout.includes("bashcompinit"));
  } finally {
    removeTrees(bin);
  }
});
