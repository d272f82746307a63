/**
 * The house's import graph, read from `deno info --json` of every entry point: each module
 * of ours placed in a layer by its path, the imports that run against the layering, the
 * import circles (strongly connected components, static, dynamic and type-only imports all
 * counted) and the branches on a command's name outside the command table.
 *
 * @module
 */

/** One layer of the house, lowest first. */
export interface Layer {
  /** The layer's name. */
  name: string;
  /** Path prefixes (relative to the repository) of the modules in it. */
  prefixes: string[];
}

/**
 * The layering the house keeps: front ends → warden → runtime → levels/hub/manage →
 * scan/files/home. A module imports its own layer or lower ones.
 */
export const LAYERS: Layer[] = [
  {
    name: "base",
    prefixes: [
      "src/deps/",
      "src/errors.ts",
      "src/error_boundary.ts",
      "src/diagnostics.ts",
      "src/mapping.ts",
      "src/json_document.ts",
      "src/hash/",
      "src/frontmatter/",
      "src/scan/",
      "src/files/",
      "src/home/",
    ],
  },
  {
    name: "features",
    prefixes: [
      "src/level0/",
      "src/resolve/",
      "src/view/",
      "src/preprocess/",
      "src/validate/",
      "src/hub/",
      "src/scanner/",
      "src/manage/",
      "src/usage/",
      "src/bundles/",
      "src/graph/",
      "src/approval/",
      "src/doctor/",
      "src/run/",
    ],
  },
  { name: "runtime", prefixes: ["src/runtime"] },
  { name: "warden", prefixes: ["src/warden/", "src/worker/"] },
  { name: "front", prefixes: ["src/cli/", "src/mcp/", "src/sandbox/", "main.ts", "mod.ts"] },
];

/** What {@linkcode houseMeasures} finds. */
export interface HouseMeasures {
  /** Modules of ours reached from the entry points. */
  modules: number;
  /** Modules per layer. */
  layers: { name: string; modules: number }[];
  /** Imports from a lower layer to a higher one, as `from > to`. */
  against: string[];
  /** Import circles of more than one module, each sorted. */
  circles: string[][];
  /** `command === "x"` style branches outside the command table. */
  commandBranches: { total: number; files: { file: string; count: number }[] };
}

interface Dependency {
  code?: { specifier: string };
  type?: { specifier: string };
}
interface Info {
  modules: { specifier: string; dependencies?: Dependency[] }[];
}

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const OURS = `file://${REPO}/`;

/** The layer index of a repository-relative path, or -1 outside every layer. */
export function layerOf(path: string): number {
  return LAYERS.findIndex((l) => l.prefixes.some((p) => path.startsWith(p)));
}

function entries(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${REPO}/deno.json`)) as {
    exports: Record<string, string>;
  };
  const exported = Object.values(config.exports).map((p) => p.replace(/^\.\//, ""));
  const workers = [
    "src/cli/command_worker.ts",
    "src/cli/mcp_worker.ts",
    "src/scan/scan_helper.ts",
    "src/scan/watch_helper.ts",
  ];
  return [...new Set(["main.ts", "mod.ts", ...exported, ...workers])].filter((p) => {
    try {
      return Deno.statSync(`${REPO}/${p}`).isFile;
    } catch {
      return false;
    }
  });
}

async function graphOf(entry: string): Promise<Info> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${REPO}/${entry}`],
    cwd: REPO,
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Every edge between modules of ours (repository-relative paths), over all entry points. */
export async function ourEdges(): Promise<Map<string, Set<string>>> {
  const edges = new Map<string, Set<string>>();
  for (const entry of entries()) {
    for (const m of (await graphOf(entry)).modules) {
      if (!m.specifier.startsWith(OURS) || !m.specifier.endsWith(".ts")) continue;
      const from = m.specifier.slice(OURS.length);
      const to = edges.get(from) ?? new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const r of [d.code, d.type]) {
          if (r?.specifier.startsWith(OURS)) to.add(r.specifier.slice(OURS.length));
        }
      }
      edges.set(from, to);
    }
  }
  return edges;
}

/** Strongly connected components of more than one node (Tarjan's algorithm, iterative). */
export function circles(edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!;; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
}

async function commandBranches(): Promise<HouseMeasures["commandBranches"]> {
  const files: { file: string; count: number }[] = [];
  const pattern = /\bcommand\s*[!=]==\s*"/g;
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(`${REPO}/${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts") && !path.endsWith("command_table.ts")) {
        const count = (await Deno.readTextFile(`${REPO}/${path}`)).match(pattern)?.length ?? 0;
        if (count) files.push({ file: path, count });
      }
    }
  };
  await walk("src");
  files.sort((a, b) => b.count - a.count || a.file.localeCompare(b.file));
  return { total: files.reduce((n, f) => n + f.count, 0), files };
}

/** Takes the house's measures from the code as it is on disk. */
export async function houseMeasures(): Promise<HouseMeasures> {
  const edges = await ourEdges();
  const against: string[] = [];
  for (const [from, tos] of edges) {
    for (const to of tos) if (layerOf(to) > layerOf(from)) against.push(`${from} > ${to}`);
  }
  const layers = LAYERS.map((l, i) => ({
    name: l.name,
    modules: [...edges.keys()].filter((m) => layerOf(m) === i).length,
  }));
  return {
    modules: edges.size,
    layers,
    against: against.sort(),
    circles: circles(edges),
    commandBranches: await commandBranches(),
  };
}
