/**
 * [RUN-3] An approval binds the grant as it resolved, not only as declared (red team hR): a
 * declared read `../data` of an external dir's skill, approved, then made a link to another
 * folder by whoever may write that dir, matches no approval — the next run is refused
 * unasked, as is MCP's — and a declared write made a link elsewhere in the work dir likewise;
 * the same grant in another work dir is still approved. Real bwrap for the approved runs.
 */
import { equal } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { NOT_APPROVED, refusal } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

const PERMS =
  "metadata:\n  skillrt:\n    permissions:\n      read: [../data]\n      write: [out]\n";

/** A home whose external dir, `shared/ext`, holds the skill and its data. */
function makeHome(shared: string): string {
  const home = makeTree({ "skills/.keep": "" });
  Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  external_dirs: [${shared}/ext]\n`);
  return home;
}

function makeShared(): string {
  return makeTree({
    "ext/tool/SKILL.md": skill("tool", "a shared tool", PERMS),
    "ext/tool/scripts/x.sh": 'cat "$(dirname "$0")/../../data/note"\n',
    "ext/data/note": "benign\n",
    "elsewhere/note": "SECRET\n",
  });
}

const NOT_OURS = NOT_APPROVED("scripts/x.sh", "tool", "external").replace(/^skillrt: |\n$/g, "");

Deno.test({
  name: `a declared path that resolves elsewhere after the approval is asked about again${why}`,
  ignore,
}, async () => {
  const shared = makeShared();
  const home = makeHome(shared);
  const work = tempDir();
  const other = tempDir();
  for (const w of [work, other]) Deno.mkdirSync(`${w}/out`);
  const rt = new SkillRuntime({ home });
  const run = (workdir: string, options: { yes?: boolean; approvedOnly?: boolean } = {}) =>
    rt.run("tool", "scripts/x.sh", { workdir, ...options });
  try {
    const first = await run(work, { yes: true });
    equal(first.stdout, "benign\n", first.stderr);
    // Approved: it runs unasked, in this work dir and in another.
    equal((await run(work)).stdout, "benign\n");
    equal((await run(other)).stdout, "benign\n");
    // The shared dir's writer points data at another folder.
    Deno.renameSync(`${shared}/ext/data`, `${shared}/ext/data.old`);
    Deno.symlinkSync(`${shared}/elsewhere`, `${shared}/ext/data`);
    equal(await refusal(run(work)), NOT_OURS);
    equal(await refusal(run(work, { approvedOnly: true })), MCP_REFUSAL);
    // Put back, it is the approved grant again.
    Deno.removeSync(`${shared}/ext/data`);
    Deno.renameSync(`${shared}/ext/data.old`, `${shared}/ext/data`);
    equal((await run(work)).stdout, "benign\n");
    // A declared write now a link to another folder of the work dir: another grant.
    Deno.mkdirSync(`${work}/precious`);
    Deno.removeSync(`${work}/out`);
    Deno.symlinkSync(`${work}/precious`, `${work}/out`);
    equal(await refusal(run(work)), NOT_OURS);
  } finally {
    removeTrees(home, shared, work, other);
  }
});

const MCP_REFUSAL =
  "Refusing to run 'scripts/x.sh' of skill 'tool': an MCP client runs only the user's own skills and what the user approved at a terminal; to approve these files with this grant, run 'skillrt run tool scripts/x.sh' there.";
