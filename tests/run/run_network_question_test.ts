/**
 * [RUN-3] The approval question tells the network as it is (red team hR): a bubblewrap
 * script with a network grant may reach ANY host, 127.0.0.1 included (bubblewrap cannot
 * filter hosts), whatever it declared — the question, the recorded approval's summary and
 * `sandbox run` say so, and the approved script does reach a listener on 127.0.0.1; a Deno
 * script's hosts are filtered by Deno, so its question names the declared hosts. Real bwrap,
 * a real listener, the question as the terminal gets it (`confirm`).
 */
import { equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { readApprovals } from "../../src/run/consent.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { lockFor } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined || HOST.deno === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem ?? "no deno"})` : "";

const net = (hosts: string) => `metadata:\n  skillrt:\n    permissions:\n      net: ${hosts}\n`;

function makeHome(hosts: string): string {
  return makeTree({
    "skills/hubby/SKILL.md": skill("hubby", "reaches a host", net(hosts)),
    "skills/hubby/scripts/get.sh":
      '#!/bin/bash\nexec 3<>"/dev/tcp/127.0.0.1/$1" && echo reached || echo refused\n',
    "skills/hubby/scripts/get.ts": "console.log('deno ran');\n",
    "skills/.hub/lock.json": lockFor("hubby"),
  });
}

/** Runs `script` approving it, and returns the grant line of the question asked. */
async function asked(home: string, script: string, args: string[] = []) {
  const questions: string[] = [];
  const work = tempDir();
  try {
    const r = await new SkillRuntime({ home }).run("hubby", script, {
      workdir: work,
      args,
      confirm: (q) => {
        questions.push(q);
        return Promise.resolve(true);
      },
    });
    equal(questions.length, 1);
    const line = questions[0].split("\n").find((l) => l.startsWith("  grant: "));
    return { r, line: line?.slice(" grant: ".length + 1) ?? "" };
  } finally {
    removeTrees(work);
  }
}

const netPart = (line: string) => /; (network .*); env /.exec(line)?.[1] ?? line;

Deno.test({
  name: `a bubblewrap script's question says it may reach any host, 127.0.0.1 included${why}`,
  ignore,
}, async () => {
  const home = makeHome("[api.example.com]");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  try {
    const { r, line } = await asked(home, "scripts/get.sh", [String(listener.addr.port)]);
    equal(
      netPart(line),
      "network ANY host, 127.0.0.1 included (bubblewrap cannot filter hosts; declared: api.example.com)",
    );
    equal(r.stdout, "reached\n", r.stderr);
    const recorded = readApprovals(`${home}/skills`).find((a) => a.script === "scripts/get.sh");
    equal(recorded?.summary, line);
    // Variant: a Deno script's hosts are Deno's to filter: the declared ones are the truth.
    const deno = await asked(home, "scripts/get.ts");
    equal(netPart(deno.line), "network api.example.com");
    equal(deno.r.stdout, "deno ran\n", deno.r.stderr);
    // Variant: `sandbox run` says the same of the bubblewrap script.
    const shown = await cli(["--home", home, "sandbox", "run", "hubby", "scripts/get.sh"]);
    ok(
      shown.stdout.includes(
        "; network ANY host, 127.0.0.1 included (bubblewrap cannot filter hosts; declared: api.example.com); ",
      ),
      shown.stdout + shown.stderr,
    );
  } finally {
    listener.close();
    await accepting.catch(() => {});
    removeTrees(home);
  }
});

Deno.test({
  name: `any host declared, or none: the question says so as it is${why}`,
  ignore,
}, async () => {
  const any = makeHome("true");
  const none = makeHome("[]");
  try {
    const a = await asked(any, "scripts/get.ts");
    equal(netPart(a.line), "network any host");
    const b = await asked(any, "scripts/get.sh", ["1"]);
    equal(
      netPart(b.line),
      "network ANY host, 127.0.0.1 included (bubblewrap cannot filter hosts; declared: any host)",
    );
    equal(netPart((await asked(none, "scripts/get.sh", ["1"])).line), "network none");
  } finally {
    removeTrees(any, none);
  }
});

Deno.test({
  name:
    `a Deno script that may run a program is asked about as reaching any host: the program is not held to Deno's hosts (red team hU)${why}`,
  ignore,
}, async () => {
  const perms =
    "metadata:\n  skillrt:\n    permissions:\n      net: [api.example.com]\n      run: [curl]\n";
  const home = makeTree({
    "skills/hubby/SKILL.md": skill("hubby", "runs curl", perms),
    "skills/hubby/scripts/get.ts": "console.log('deno ran');\n",
    "skills/.hub/lock.json": lockFor("hubby"),
  });
  try {
    equal(
      netPart((await asked(home, "scripts/get.ts")).line),
      "network ANY host, 127.0.0.1 included (the programs it may run are not held to Deno's hosts; declared: api.example.com)",
    );
  } finally {
    removeTrees(home);
  }
});
