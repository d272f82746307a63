/**
 * The module graph holds by test, not by care (issue 16): the warden, the sandbox Worker and
 * the scan helper load no `node:` module and no npm package but the allowed ones at start
 * (each costs start-up time in every isolate, SPEC §19), and no module of ours imports
 * itself back, even through types only or an `import()` made later.
 */
import { deepEqual, equal } from "node:assert/strict";
import { REPO } from "../helpers.ts";
import { assertIncludes } from "../asserts.ts";

interface Dependency {
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}
interface Info {
  roots: string[];
  modules: { specifier: string; dependencies?: Dependency[] }[];
}

/** Third-party modules allowed in the static graph of an entry (js-yaml reads config and frontmatter). */
const ALLOWED = ["npm:js-yaml@^5"];

function info(entry: string): Info {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${REPO}/${entry}`],
    cwd: REPO,
  }).outputSync();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The imports of each module: static ones (what loads at start), or all of them. */
function edges(graph: Info, withTypes: boolean, withDynamic = false): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const m of graph.modules) {
    const to: string[] = [];
    for (const d of m.dependencies ?? []) {
      if (d.isDynamic && !withDynamic) continue;
      for (const r of withTypes ? [d.code, d.type] : [d.code]) if (r) to.push(r.specifier);
    }
    map.set(m.specifier, to);
  }
  return map;
}

/**
 * Every module an entry loads at start, or with `dynamic` every one it may load, its
 * `import("…")`s included (Deno fetches the npm packages of those at start too).
 */
function reachable(entry: string, dynamic = false): Set<string> {
  const graph = info(entry);
  const next = edges(graph, false, dynamic);
  const seen = new Set<string>();
  const stack = [...graph.roots];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    stack.push(...(next.get(s) ?? []));
  }
  return seen;
}

Deno.test("[PERF] the MCP SDK is reachable from the mcp Worker only: a fresh machine's list or --help downloads none of it", () => {
  const sdk = (s: string) => s.startsWith("npm:") && s.includes("@modelcontextprotocol/sdk");
  for (const entry of ["main.ts", "src/cli/command_worker.ts", "src/scan/scan_helper.ts"]) {
    deepEqual([...reachable(entry, true)].filter(sdk), [], entry);
  }
  const mcp = reachable("src/cli/mcp_worker.ts", true);
  equal([...mcp].some(sdk), true, "mcp_worker.ts loads the SDK");
  equal(
    mcp.has(`file://${REPO}/src/cli/commands/mcp.ts`),
    true,
    "mcp_worker.ts loads the mcp command",
  );
  const config = JSON.parse(Deno.readTextFileSync(`${REPO}/deno.json`)) as { unstable: string[] };
  // Without it Deno installs every package of deno.lock at the first npm import.
  assertIncludes(config.unstable, "npm-lazy-caching");
});

Deno.test("[PERF][X-1] start-up fence: no node: module and no npm package but js-yaml in the warden, the Worker or its helpers", () => {
  const entries = [
    "main.ts",
    "src/cli/command_worker.ts",
    "src/scan/scan_helper.ts",
    "src/scan/watch_helper.ts",
  ];
  for (const entry of entries) {
    const seen = reachable(entry);
    const foreign = [...seen].filter((s) => !s.startsWith("file:") && !ALLOWED.includes(s));
    deepEqual(foreign, [], `${entry} loads ${foreign.join(", ")} at start`);
  }
});

Deno.test("[PERF-7] start-up fence: the warden loads no hub scanner or publisher, the Worker no view, setup or script-running code at start (a list never uses them)", () => {
  const ours = (s: string) => s.replace(`file://${REPO}/`, "");
  const warden = [...reachable("main.ts")].map(ours);
  deepEqual(warden.filter((s) => /^src\/(scanner\/|hub\/(publish|signing))/.test(s)), []);
  const worker = [...reachable("src/cli/command_worker.ts")].map(ours);
  const later =
    /^src\/(view\/view|view\/untrusted|scanner\/scanner|home\/skill_setup|run\/run_skill)\.ts$/;
  deepEqual(worker.filter((s) => later.test(s)), []);
  // The MCP server views from its first calls: it loads the view at start ([PERF-6]).
  const mcp = [...reachable("src/cli/mcp_worker.ts")].map(ours);
  assertIncludes(mcp, "src/view/view.ts");
  assertIncludes(mcp, "src/view/untrusted.ts");
});

/** Every entry point: the CLI, the library and its sub-exports, the Worker and the scan helper. */
const ENTRIES = [
  "main.ts",
  "mod.ts",
  ...Object.values(
    (JSON.parse(Deno.readTextFileSync(`${REPO}/deno.json`)) as { exports: Record<string, string> })
      .exports,
  ).map((p) => p.replace(/^\.\//, "")),
  "src/cli/command_worker.ts",
  "src/cli/mcp_worker.ts",
  "src/scan/scan_helper.ts",
];

Deno.test("[C-7] no import cycle among our modules, type-only and dynamic imports included", () => {
  for (const entry of new Set(ENTRIES)) {
    const next = edges(info(entry), true, true);
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const visit = (u: string, path: string[]) => {
      state.set(u, 1);
      for (const v of (next.get(u) ?? []).filter((s) => s.startsWith("file:"))) {
        if (state.get(v) === 1) {
          cycles.push(
            [...path.slice(path.indexOf(v)), u, v].map((s) => s.slice(REPO.length + 8)).join(" > "),
          );
        } else if (!state.has(v)) visit(v, [...path, u]);
      }
      state.set(u, 2);
    };
    for (const s of next.keys()) if (s.startsWith("file:") && !state.has(s)) visit(s, []);
    deepEqual(cycles, [], `${entry}: ${cycles.join("; ")}`);
  }
});

/** Every module of ours an entry may load and what each imports, dynamic and type-only imports included. */
function ourImports(entry: string): Map<string, string[]> {
  const ours = (s: string) => s.startsWith(`file://${REPO}/`);
  const strip = (s: string) => s.slice(REPO.length + 8);
  const map = new Map<string, string[]>();
  for (const [from, to] of edges(info(entry), true, true)) {
    if (ours(from)) map.set(strip(from), to.filter(ours).map(strip));
  }
  return map;
}

Deno.test("[X-1] one direction: the warden (src/warden/) and the Worker's side of the protocol (src/worker/) import no front end, not even through types or a later import()", () => {
  const lower = /^src\/(warden|worker)\//;
  const front = /^(src\/(cli|mcp|sandbox)\/|main\.ts$|mod\.ts$)/;
  const against = new Set<string>();
  for (const entry of new Set(ENTRIES)) {
    for (const [from, to] of ourImports(entry)) {
      if (lower.test(from)) {
        to.filter((t) => front.test(t)).forEach((t) => against.add(`${from} > ${t}`));
      }
    }
  }
  deepEqual([...against].sort(), []);
  // The rule sees the graph: the warden's and the Worker's modules are in it.
  const graph = ourImports("main.ts");
  equal(graph.has("src/warden/run_worker.ts") && graph.has("src/worker/protocol.ts"), true);
});
