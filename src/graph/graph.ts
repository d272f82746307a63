/**
 * The skill graph ([G-1]): skills as nodes grouped by category, `related_skills` and
 * bundle membership as edges, dangling references drawn and flagged. Pure: built from
 * records and bundles, rendered as JSON, Mermaid (renders in GitHub Markdown) or DOT.
 *
 * @module
 */

/** A node: a skill, a bundle, or a name referenced but not found. */
export interface GraphNode {
  /** Unique id (`skill:x`, `bundle:x`, `missing:x`). */
  id: string;
  /** The name shown. */
  name: string;
  /** The skill's category (null for bundles, missing names and uncategorized skills). */
  category: string | null;
  /** What it is. */
  kind: "skill" | "bundle" | "missing";
}

/** An edge: a related-skill reference or a bundle membership. */
export interface GraphEdge {
  /** Source node id. */
  from: string;
  /** Target node id. */
  to: string;
  /** Which relation. */
  kind: "related" | "bundle";
  /** True when the target does not exist. */
  dangling: boolean;
}

/** The document `graph --format json` prints. */
export interface SkillGraph {
  /** Always true. */
  success: true;
  /** Nodes: skills first, then bundles, then missing names. */
  nodes: GraphNode[];
  /** Edges in a stable order. */
  edges: GraphEdge[];
  /** Names referenced but not found. */
  dangling: string[];
}

/** Builds the graph from skills and bundles. */
export function buildGraph(
  skills: { name: string; category: string | null; relatedSkills: string[] }[],
  bundles: { name: string; skills: string[] }[],
): SkillGraph {
  const sorted = [...skills].sort((
    a,
    b,
  ) => ((a.category ?? "") + "\0" + a.name < (b.category ?? "") + "\0" + b.name ? -1 : 1));
  const known = new Set(sorted.map((s) => s.name));
  const nodes: GraphNode[] = sorted.map((s) => ({
    id: `skill:${s.name}`,
    name: s.name,
    category: s.category,
    kind: "skill",
  }));
  const edges: GraphEdge[] = [];
  const missing = new Set<string>();
  const target = (name: string) => {
    if (known.has(name)) return { id: `skill:${name}`, dangling: false };
    missing.add(name);
    return { id: `missing:${name}`, dangling: true };
  };
  for (const s of sorted) {
    for (const rel of s.relatedSkills) {
      const t = target(rel);
      edges.push({ from: `skill:${s.name}`, to: t.id, kind: "related", dangling: t.dangling });
    }
  }
  for (const b of bundles) {
    nodes.push({ id: `bundle:${b.name}`, name: b.name, category: null, kind: "bundle" });
    for (const member of b.skills) {
      const t = target(member);
      edges.push({ from: `bundle:${b.name}`, to: t.id, kind: "bundle", dangling: t.dangling });
    }
  }
  const dangling = [...missing].sort();
  for (const name of dangling) {
    nodes.push({ id: `missing:${name}`, name, category: null, kind: "missing" });
  }
  return { success: true, nodes, edges, dangling };
}

function shortIds(graph: SkillGraph): Map<string, string> {
  return new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
}

const mermaidLabel = (s: string) => `"${s.replace(/"/g, "#quot;")}"`;

function groups(graph: SkillGraph): Map<string | null, GraphNode[]> {
  const out = new Map<string | null, GraphNode[]>();
  for (const n of graph.nodes) {
    const key = n.kind === "skill" ? n.category : null;
    out.set(key, [...(out.get(key) ?? []), n]);
  }
  return out;
}

/** Mermaid `flowchart` text: categories as subgraphs, bundles as hexagons, dangling names dashed. */
export function toMermaid(graph: SkillGraph): string {
  const ids = shortIds(graph);
  const node = (n: GraphNode) => {
    const id = ids.get(n.id)!;
    if (n.kind === "bundle") return `${id}{{${mermaidLabel(`bundle: ${n.name}`)}}}`;
    if (n.kind === "missing") return `${id}[${mermaidLabel(`${n.name} (missing)`)}]:::dangling`;
    return `${id}[${mermaidLabel(n.name)}]`;
  };
  const lines = ["flowchart LR"];
  let g = 0;
  for (const [category, members] of groups(graph)) {
    if (category === null) lines.push(...members.map((n) => `  ${node(n)}`));
    else {lines.push(
        `  subgraph c${g++}[${mermaidLabel(category)}]`,
        ...members.map((n) => `    ${node(n)}`),
        "  end",
      );}
  }
  for (const e of graph.edges) {
    lines.push(`  ${ids.get(e.from)} ${e.kind === "bundle" ? "-.->" : "-->"} ${ids.get(e.to)}`);
  }
  lines.push("  classDef dangling stroke-dasharray: 5 5,stroke:#c00,color:#c00");
  return lines.join("\n");
}

const dotString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** Graphviz DOT text: categories as clusters, bundle edges dashed, dangling names red and dashed. */
export function toDot(graph: SkillGraph): string {
  const ids = shortIds(graph);
  const node = (n: GraphNode) => {
    const attrs = n.kind === "bundle"
      ? `label=${dotString(`bundle: ${n.name}`)}, shape=hexagon`
      : n.kind === "missing"
      ? `label=${dotString(`${n.name} (missing)`)}, style=dashed, color=red, fontcolor=red`
      : `label=${dotString(n.name)}`;
    return `${ids.get(n.id)} [${attrs}];`;
  };
  const lines = ["digraph skills {", "  rankdir=LR;"];
  let g = 0;
  for (const [category, members] of groups(graph)) {
    if (category === null) lines.push(...members.map((n) => `  ${node(n)}`));
    else {lines.push(
        `  subgraph cluster_${g++} {`,
        `    label=${dotString(category)};`,
        ...members.map((n) => `    ${node(n)}`),
        "  }",
      );}
  }
  for (const e of graph.edges) {
    const style = [e.kind === "bundle" ? "style=dashed" : "", e.dangling ? "color=red" : ""].filter(
      Boolean,
    ).join(", ");
    lines.push(`  ${ids.get(e.from)} -> ${ids.get(e.to)}${style ? ` [${style}]` : ""};`);
  }
  lines.push("}");
  return lines.join("\n");
}
