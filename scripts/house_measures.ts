/**
 * Measures of the house taken from the code itself (issue 28): the layer of every module of
 * ours, the imports that run against the layering (a lower layer importing a higher one),
 * the import circles (static, dynamic and type-only imports all count), and the branches on
 * a command's name outside the command table.
 *
 * ```sh
 * deno run --allow-read --allow-run --no-prompt scripts/house_measures.ts [--json]
 * ```
 *
 * @module
 */
import { type HouseMeasures, houseMeasures } from "./_house_graph.ts";

function report(m: HouseMeasures): string {
  const lines = [
    `modules: ${m.modules}`,
    `layers: ${m.layers.map((l) => `${l.name} ${l.modules}`).join(", ")}`,
    `imports against the layering: ${m.against.length}`,
    ...m.against.map((e) => `  ${e}`),
    `import circles: ${m.circles.length} (${m.circles.reduce((n, c) => n + c.length, 0)} files)`,
    ...m.circles.map((c) => `  ${c.join(" ")}`),
    `command-name branches outside the table: ${m.commandBranches.total} in ${m.commandBranches.files.length} files`,
    ...m.commandBranches.files.map((f) => `  ${f.file} ${f.count}`),
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const m = await houseMeasures();
  console.log(Deno.args.includes("--json") ? JSON.stringify(m, null, 2) : report(m));
}
