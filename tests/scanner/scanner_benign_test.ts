import { deepEqual, equal, ok } from "node:assert/strict";
import { scanFolder } from "../../src/scanner/scanner.ts";
import { cli, cliJson, makeTree } from "../helpers.ts";
import { BENIGN } from "./cases/benign.ts";

Deno.test("[HUB-4] the benign set: at least 40 skills modelled on real false positives, none dangerous, each finding in its context", () => {
  ok(BENIGN.length >= 40, `${BENIGN.length} benign skills`);
  equal(new Set(BENIGN.map((c) => c.name)).size, BENIGN.length);
  const wrong: string[] = [];
  for (const c of BENIGN) {
    const dir = makeTree(c.files);
    try {
      const report = scanFolder(dir);
      const got = report.findings.map((f) => `${f.rule}@${f.context}`);
      if (report.verdict === "dangerous" || JSON.stringify(got) !== JSON.stringify(c.expect)) {
        wrong.push(`${c.name}: ${report.verdict} ${JSON.stringify(got)}`);
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
  deepEqual(wrong, []);
});

Deno.test("[HUB-4] every downgrade is visible: the lowered severity, the rule's own severity and why", () => {
  const run = (name: string) => {
    const dir = makeTree(BENIGN.find((c) => c.name === name)!.files);
    try {
      return scanFolder(dir).findings.map((f) => [
        f.rule,
        f.severity,
        f.original_severity,
        f.context,
        f.reason,
      ]);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  };
  deepEqual(run("hook-grep-fork-bomb"), [[
    "destructive.fork-bomb",
    "low",
    "critical",
    "detect",
    "the pattern is what a matcher looks for (grep, regex, case, deny list, YARA)",
  ]]);
  deepEqual(run("api-rejects-phrase"), [[
    "prompt_injection.ignore-previous",
    "low",
    "critical",
    "mention",
    "the phrase is quoted, not spoken",
  ]]);
  deepEqual(run("security-doc-injection-example"), [[
    "prompt_injection.ignore-previous",
    "medium",
    "critical",
    "example",
    "an example in a security document",
  ]]);
  deepEqual(run("loopback-key"), [
    [
      "exfiltration.secret-request",
      "low",
      "critical",
      "code",
      "API_KEY goes to loopback (127.0.0.1)",
    ],
    ["network.raw-ip", "low", "medium", "code", "the target is on loopback"],
  ]);
});

Deno.test("[HUB-4] hub scan through the CLI: each finding carries its context, a lowered one its original severity and reason", async () => {
  const dir = makeTree(BENIGN.find((c) => c.name === "hook-grep-fork-bomb")!.files);
  try {
    const r = await cliJson(["hub", "scan", dir]);
    equal(r.code, 0);
    deepEqual(r.json.verdict, "safe");
    deepEqual(r.json.findings, [{
      rule: "destructive.fork-bomb",
      category: "destructive",
      severity: "low",
      file: "scripts/guard.sh",
      line: 4,
      excerpt: `if echo "$cmd" | grep -qF ':(){ :|:& };:'; then`,
      context: "detect",
      original_severity: "critical",
      reason: "the pattern is what a matcher looks for (grep, regex, case, deny list, YARA)",
    }]);
    const text = await cli(["hub", "scan", dir]);
    ok(
      /low \(was critical\)\s+detect\s+destructive\.fork-bomb\s+scripts\/guard\.sh:4/.test(
        text.stdout,
      ),
      text.stdout,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
