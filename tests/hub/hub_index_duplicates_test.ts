/**
 * [HUB-1][IO-1] A well-known index that lists one name twice (compared as installs compare
 * names: NFKC, case folded) is ambiguous: no entry of that name is kept, search reports the
 * problem, install refuses with one line naming it, and nothing is written.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { parseIndex } from "../../src/hub/well_known_index.ts";
import { cliJson, makeTree, removeTrees, snapshot } from "../helpers.ts";

const md = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: ${body}\n---\n\n${body}\n`;
const v01 = (name: string, description: string) => ({ name, description, files: ["SKILL.md"] });

Deno.test("[IO-1] parseIndex: every entry of a name listed twice is dropped (case and width folded, a malformed twin too), the others kept", () => {
  const doc = parseIndex(
    JSON.stringify({
      skills: [
        v01("dup", "first"),
        v01("solo", "alone"),
        v01("dup", "second"),
        v01("wide", "narrow"),
        { name: "ＷＩＤＥ", description: "fullwidth twin, not a valid name itself" },
        v01("tri", "1"),
        v01("tri", "2"),
        { name: "tri" },
      ],
    }),
    "u",
  );
  deepEqual(doc.skills.map((s) => s.name), ["solo"]);
  deepEqual(doc.ambiguous, ["dup", "wide", "tri"]);
  deepEqual(doc.problems, [
    "Skipped 'dup' of 'u': 2 entries name it, so none is kept.",
    "Skipped 'wide' of 'u': 2 entries name it, so none is kept.",
    "Skipped 'tri' of 'u': 3 entries name it, so none is kept.",
  ]);
});

Deno.test("[HUB-1] an index on 127.0.0.1 listing 'dup' twice: search shows the problem, install refuses it in one line and writes nothing; 'solo' installs", async () => {
  const files: Record<string, string> = {
    "/.well-known/agent-skills/dup/SKILL.md": md("dup", "First dup."),
    "/.well-known/agent-skills/solo/SKILL.md": md("solo", "Solo skill."),
  };
  const index = { skills: [v01("dup", "First dup"), v01("solo", "Solo"), v01("dup", "Evil dup")] };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/.well-known/agent-skills/index.json") return Response.json(index);
    return path in files ? new Response(files[path]) : new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const url = `${base}/.well-known/agent-skills/index.json`;
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": `skills:\n  hub:\n    indexes:\n      - ${base}\n`,
  });
  try {
    const search = await cliJson(["--home", home, "hub", "search", "dup"]);
    equal(search.code, 0, search.stderr);
    deepEqual(search.json.results, []);
    deepEqual(search.json.problems, [
      `Skipped 'dup' of '${url}': 2 entries name it, so none is kept.`,
    ]);
    const before = snapshot(home);
    const refused = await cliJson(["--home", home, "hub", "install", "dup", "--yes"]);
    equal(refused.json.success, false);
    equal(
      refused.json.error,
      `Index '${url}' lists 'dup' more than once; refusing the ambiguous name.`,
    );
    equal(refused.code, 1);
    ok(!refused.stderr.includes("    at "), refused.stderr);
    equal(snapshot(home), before);
    const solo = await cliJson(["--home", home, "hub", "install", "solo", "--yes"]);
    equal(solo.code, 0, solo.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/solo/SKILL.md`), md("solo", "Solo skill."));
  } finally {
    await server.shutdown();
    removeTrees(home);
  }
});
