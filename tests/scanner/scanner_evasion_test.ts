import { deepEqual, equal, ok } from "node:assert/strict";
import { scanFolder } from "../../src/scanner/scanner.ts";
import { makeTree } from "../helpers.ts";
import { EVASIONS } from "./cases/evasion.ts";

Deno.test("[HUB-4] the evasion set: at least 40 disguised dangerous skills, every one scored dangerous by the rule it hides from", () => {
  ok(EVASIONS.length >= 40, `${EVASIONS.length} evasion skills`);
  equal(new Set(EVASIONS.map((c) => c.name)).size, EVASIONS.length);
  const missed: string[] = [];
  for (const c of EVASIONS) {
    const dir = makeTree(c.files);
    try {
      const report = scanFolder(dir);
      const rules = new Set(report.findings.map((f) => f.rule));
      const absent = c.expect.filter((id) => !rules.has(id));
      if (report.verdict !== "dangerous" || absent.length) {
        missed.push(`${c.name}: ${report.verdict}, missing ${absent.join(", ")}`);
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
  deepEqual(missed, []);
});

Deno.test("[HUB-4] findings of a disguised line name the original line and keep full severity in SKILL.md and scripts", () => {
  const byName = (name: string) => EVASIONS.find((c) => c.name === name)!;
  const dir = makeTree(byName("line-continuation").files);
  const dir2 = makeTree(byName("fenced-injection-labelled-example").files);
  try {
    const f = scanFolder(dir).findings.find((x) => x.rule === "exfiltration.curl-post-secrets")!;
    deepEqual([f.file, f.line, f.excerpt, f.severity, f.context], [
      "SKILL.md",
      13,
      "cur\\",
      "critical",
      "code",
    ]);
    const g = scanFolder(dir2).findings.find((x) => x.rule === "prompt_injection.ignore-previous")!;
    deepEqual([g.line, g.severity, g.context, g.original_severity], [
      11,
      "critical",
      "instruction",
      undefined,
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(dir2, { recursive: true });
  }
});
