// [P-4] amended: allowed programs cannot be turned into file readers. Each attack runs
// against the real CLI (warden + Worker) on a temp home, with a canary file outside the
// home whose content must appear in no output; the legitimate use sits next to it.
import { equal, match, ok } from "node:assert/strict";
import { cli, makeTree, processEnded, REPO, skill } from "../helpers.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { MAX_OUTPUT_CHARS } from "../../src/preprocess/inline_shell.ts";

const CANARY_TEXT = "canary-7d3e-CONTENT-never-shown";

/** A temp folder with a canary file and a home beside it; `run` gets both and is cleaned up after. */
async function withHome(
  lines: string[],
  config: string,
  run: (home: string, canary: string, work: string) => Promise<void>,
) {
  const work = Deno.makeTempDirSync({ prefix: "skillrt-test-" });
  try {
    const canary = `${work}/canary.txt`;
    Deno.writeTextFileSync(canary, `${CANARY_TEXT}\n`);
    const body = lines.map((l) => l.replaceAll("CANARY", canary).replaceAll("WORK", work));
    const home = makeTree({
      "skills/s/SKILL.md": skill("s", "S", "", body.join("\n") + "\n"),
      "config.yaml": `skills:\n  inline_shell: true\n${config}`,
    }, `${work}/home`);
    await run(home, canary, work);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

/** Views skill `s` through the CLI; returns the body's lines (after the frontmatter). */
async function viewLines(home: string, args?: string[]): Promise<string[]> {
  const r = await cli(["--home", home, "view", "s", ...(args ?? [])]);
  equal(r.code, 0, r.stderr);
  ok(!r.stdout.includes(CANARY_TEXT) && !r.stderr.includes(CANARY_TEXT), "the canary was read");
  return r.stdout.slice(r.stdout.indexOf("---\n\n") + 5).trimEnd().split("\n");
}

const DATE_FORMS = "+FORMAT, -u, --utc, -R, -I…, --iso-8601…, --rfc-…";
const refused = (program: string, arg: string, forms = DATE_FORMS) =>
  `[inline-shell blocked: '${program}' does not take the argument '${arg}' (it admits only ${forms}; no file operand or file-reading option)]`;

Deno.test("[P-4] default programs admit no file operand or file-reading option; date +%F and uname -s still work", async () => {
  const lines = [
    "!`date -f CANARY`",
    "!`date --file=CANARY`",
    "!`date -r CANARY`",
    "!`date --reference CANARY`",
    "!`date +%F -f CANARY`",
    "!`date CANARY`",
    "!`uname -a CANARY`",
    "!`date +%F`",
    "!`uname -s`",
    "!`date -u --rfc-3339=date`",
  ];
  for (const allow of ["", "  inline_shell_allow: [date, uname]\n"]) {
    await withHome(lines, allow, async (home, canary) => {
      const out = await viewLines(home);
      equal(out[0], refused("date", "-f"));
      equal(out[1], refused("date", `--file=${canary}`));
      equal(out[2], refused("date", "-r"));
      equal(out[3], refused("date", "--reference"));
      equal(out[4], refused("date", "-f"));
      equal(out[5], refused("date", canary));
      equal(
        out[6],
        refused(
          "uname",
          canary,
          "its letter flags (-a -s -n -r -v -m -p -i -o, combined) and their long forms",
        ),
      );
      match(out[7], /^\d{4}-\d{2}-\d{2}$/);
      equal(out[8], "Linux");
      match(out[9], /^\d{4}-\d{2}-\d{2}$/);
    });
  }
});

Deno.test("[P-4] --args are data: an injected option stays one argv word and the policy judges it; the program never comes from them", async () => {
  const lines = [
    "A !`date $0` A",
    "B !`date $ARGUMENTS` B",
    "C !`$0 +%F` C",
    "D !`printf '[%s]' $ARGUMENTS` D",
    "E !`echo x$0y` E",
    "G !`printf '[%s]' $1 $0` G",
    "F $ARGUMENTS F",
  ];
  await withHome(lines, "", async (home, canary) => {
    const quoted = await viewLines(home, ["--args", `"-f ${canary}"`]);
    equal(quoted[0], `A ${refused("date", `-f ${canary}`)} A`);
    equal(quoted[1], `B ${refused("date", `"-f ${canary}"`)} B`);
    equal(
      quoted[2],
      "C [inline-shell blocked: the program is named by the skill, not by its arguments: $0 +%F] C",
    );
    equal(quoted[3], `D ["-f ${canary}"] D`);
    equal(quoted[4], `E x-f ${canary}y E`);
    equal(quoted[5], `G [][-f ${canary}] G`);
    equal(quoted[6], `F "-f ${canary}" F`);
    const bare = await viewLines(home, ["--args", `-f ${canary}`]);
    equal(bare[0], `A ${refused("date", "-f")} A`);
    equal(bare[1], `B ${refused("date", `-f ${canary}`)} B`);
    equal(bare[3], `D [-f ${canary}] D`);
    // The legitimate use: arguments reach the command and the text.
    const fine = await viewLines(home, ["--args", `+%Y 'two words'`]);
    match(fine[0], /^A \d{4} A$/);
    equal(fine[3], "D [+%Y 'two words'] D");
    equal(fine[6], "F +%Y 'two words' F");
    equal(fine[5], "G [two words][+%Y] G");
    equal(fine[4], "E x+%Yy E");
  });
});

Deno.test("[P-4] with bash allowed, arguments are positional parameters and $ARGUMENTS, never script text", async () => {
  const lines = [
    'A !`echo "$0" | cat` A',
    "B !`echo $ARGUMENTS | cat` B",
    'C !`printf "%s|" "$@" | cat` C',
    'D !`echo "got $0" | tr a-z A-Z` D',
  ];
  await withHome(lines, "  inline_shell_allow: [bash]\n", async (home, canary) => {
    const semi = await viewLines(home, ["--args", `x; cat ${canary}`]);
    equal(semi[0], "A x; A");
    equal(semi[1], `B x; cat ${canary} B`);
    equal(semi[2], `C x;|cat|${canary}| C`);
    const subst = await viewLines(home, ["--args", `$(cat ${canary})`]);
    equal(subst[1], `B $(cat ${canary}) B`);
    const quoted = await viewLines(home, ["--args", `'$(cat ${canary})' "\`cat ${canary}\`"`]);
    equal(quoted[0], `A $(cat ${canary}) A`);
    equal(quoted[2], `C $(cat ${canary})|\`cat ${canary}\`| C`);
    const fine = await viewLines(home, ["--args", "hello"]);
    equal(fine[3], "D GOT HELLO D");
  });
});

Deno.test("[P-3] output is read as a stream and the child killed at the cap: a 300 MB printf and an endless writer end as the 4,000-character cut", async () => {
  const lines = ["L !`printf '%0300000000d' 0` L", "Y !`while :; do echo y; done` Y"];
  // The timeout is far away: only the cap can end the endless writer with its output.
  const config = "  inline_shell_allow: [printf, bash]\n  inline_shell_timeout: 60\n";
  await withHome(lines, config, async (home) => {
    const out = (await viewLines(home)).join("\n");
    equal(
      out,
      `L ${"0".repeat(MAX_OUTPUT_CHARS)}...[truncated] L\nY ${
        "y\n".repeat(MAX_OUTPUT_CHARS / 2)
      }...[truncated] Y`,
    );
  });
});

Deno.test("[P-4] the whole process group dies at the timeout and when the command ends: grandchildren never write", async () => {
  const lines = [
    "T !`(echo $BASHPID > WORK/t.pid; sleep 20; touch WORK/t.mark) & sleep 30` T",
    "B !`sleep 20 > /dev/null 2>&1 & echo $! > WORK/b.pid; echo started` B",
  ];
  const config = "  inline_shell_timeout: 1\n  inline_shell_allow: [bash]\n";
  await withHome(lines, config, async (home, _canary, work) => {
    const pids: number[] = [];
    try {
      const out = await viewLines(home);
      equal(
        out[0],
        `T [inline-shell timeout after 1s: (echo $BASHPID > ${work}/t.pid; sleep 20; touch ${work}/t.mark) & sleep 30] T`,
      );
      equal(out[1], "B started B");
      pids.push(Number(Deno.readTextFileSync(`${work}/t.pid`)));
      pids.push(Number(Deno.readTextFileSync(`${work}/b.pid`)));
      for (const pid of pids) ok(await processEnded(pid), `process ${pid} outlived the command`);
      ok(!Deno.readDirSync(work).some((e) => e.name === "t.mark"), "the grandchild wrote");
    } finally {
      for (const pid of pids) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      }
    }
  });
});

Deno.test("[P-4] an interrupted warden kills the running command's group (it no longer gets the terminal's Ctrl-C)", async () => {
  const lines = ["T !`(echo $BASHPID > WORK/t.pid; sleep 20; touch WORK/t.mark) & sleep 30` T"];
  const config = "  inline_shell_timeout: 60\n  inline_shell_allow: [bash]\n";
  await withHome(lines, config, async (home, _canary, work) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "view", "s"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    let pid = 0;
    try {
      // Ready when the grandchild has written its pid.
      while (!pid) {
        try {
          pid = Number(Deno.readTextFileSync(`${work}/t.pid`)) || 0;
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      child.kill("SIGINT");
      equal((await child.status).code, 130);
      ok(await processEnded(pid), `process ${pid} outlived the interrupted warden`);
      ok(!Deno.readDirSync(work).some((e) => e.name === "t.mark"), "the grandchild wrote");
    } finally {
      try {
        if (pid) Deno.kill(pid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    }
  });
});
