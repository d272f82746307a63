/**
 * `graph [--format mermaid|dot|json]` ([G-1]).
 *
 * @module
 */
import { loadBundles } from "../../bundles/bundles.ts";
import { UsageError } from "../../errors.ts";
import { buildGraph, toDot, toMermaid } from "../../graph/graph.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs `graph`. */
export function run(runtime: SkillRuntime, request: CommandRequest): Outcome {
  const format = String(request.options.format ?? "mermaid");
  if (!["mermaid", "dot", "json"].includes(format)) {
    throw new UsageError(`Unknown graph format '${format}'; use mermaid, dot or json.`);
  }
  const records = [...runtime.catalog().index().entries.values()].map((e) => e.record);
  const graph = buildGraph(records, loadBundles(runtime.setup.home).bundles);
  if (format === "json" || request.global.json) {
    return respond({ ...request.global, json: true }, graph, () => "");
  }
  return respond(request.global, graph, () => (format === "dot" ? toDot(graph) : toMermaid(graph)));
}
