import { deepEqual, equal, ok } from "node:assert/strict";
import { decide, type Trust, trustOf } from "../../src/hub/policy.ts";
import { appendAudit, auditFile, auditText, verifyAudit } from "../../src/hub/audit.ts";
import type { Verdict } from "../../src/scanner/scanner.ts";
import { cliJson, makeTree } from "../helpers.ts";

Deno.test("[HUB-5] trust of a source", () => {
  equal(trustOf({ kind: "official" }), "builtin");
  equal(trustOf({ kind: "local-folder" }), "local");
  equal(trustOf({ kind: "repository", repository: "anthropics/skills" }), "trusted");
  equal(trustOf({ kind: "repository", repository: "OpenAI/Skills" }), "trusted");
  equal(trustOf({ kind: "repository", repository: "someone/skills" }), "community");
  equal(trustOf({ kind: "other" }), "community");
});

Deno.test("[HUB-5] every cell of the policy table, with and without --force, --yes and a typed yes", () => {
  const none = { force: false, yes: false };
  const table: Record<Trust, Record<Verdict, [boolean, boolean, boolean, boolean]>> = {
    // [no consent, --yes only, --force, typed yes]
    builtin: {
      safe: [true, true, true, true],
      caution: [true, true, true, true],
      dangerous: [true, true, true, true],
    },
    trusted: {
      safe: [true, true, true, true],
      caution: [true, true, true, true],
      dangerous: [false, false, false, false],
    },
    local: {
      safe: [true, true, true, true],
      caution: [true, true, true, true],
      dangerous: [false, false, true, true],
    },
    community: {
      safe: [true, true, true, true],
      caution: [false, false, true, false],
      dangerous: [false, false, false, false],
    },
  };
  for (const trust of Object.keys(table) as Trust[]) {
    for (const verdict of ["safe", "caution", "dangerous"] as Verdict[]) {
      const got = [
        decide(trust, verdict, none).install,
        decide(trust, verdict, { force: false, yes: true }).install,
        decide(trust, verdict, { force: true, yes: false }).install,
        decide(trust, verdict, { force: false, yes: false, typedYes: true }).install,
      ];
      deepEqual(got, table[trust][verdict], `${trust}/${verdict}`);
    }
  }
  equal(
    decide("community", "dangerous", { force: true, yes: true }).reason,
    "Blocked: a dangerous skill from a community source is never installed, not even with --force.",
  );
  equal(
    decide("local", "dangerous", { force: false, yes: true }).reason,
    "A dangerous skill from a local source needs a yes typed at the terminal or --force (--yes alone is not enough).",
  );
});

Deno.test("[HUB-3] the audit chain detects an edited, an inserted and a deleted line", async () => {
  const root = makeTree({});
  const at = new Date("2026-11-29T12:00:00Z");
  await appendAudit(root, auditText(at, "INSTALL", "a", "/src/a", "local", "safe"));
  await appendAudit(
    root,
    auditText(at, "BLOCKED", "b", "https://x/b.tgz", "community", "dangerous", "3 findings"),
  );
  await appendAudit(root, auditText(at, "UNINSTALL", "a", "/src/a", "local", "safe"));
  const text = Deno.readTextFileSync(auditFile(root));
  const lines = text.trimEnd().split("\n");
  ok(
    /^2026-11-29T12:00:00\.000Z INSTALL a \/src\/a:local safe chain=[0-9a-f]{64}$/.test(lines[0]),
    lines[0],
  );
  ok(lines[1].includes(" BLOCKED b https://x/b.tgz:community dangerous 3 findings chain="));
  deepEqual(verifyAudit(text), { intact: true, lines: 3 });
  const edited = text.replace("INSTALL a", "INSTALL z");
  equal(verifyAudit(edited).broken?.line, 1);
  const deleted = [lines[0], lines[2]].join("\n");
  equal(verifyAudit(deleted).broken?.line, 2);
  const inserted = [
    lines[0],
    lines[1],
    "2026-11-29T12:00:00.000Z INSTALL evil x:local safe chain=" + "a".repeat(64),
    lines[2],
  ].join("\n");
  equal(verifyAudit(inserted).broken?.line, 3);
  equal(
    verifyAudit(lines.slice(1).join("\n")).broken?.line,
    1,
    "removing the first line breaks the chain too",
  );

  const home = makeTree({ "skills/.keep": "" });
  await appendAudit(`${home}/skills`, auditText(at, "INSTALL", "a", "/src/a", "local", "safe"));
  deepEqual((await cliJson(["--home", home, "hub", "audit", "--verify"])).json, {
    success: true,
    intact: true,
    lines: 1,
  });
  Deno.writeTextFileSync(
    `${home}/skills/.hub/audit.log`,
    Deno.readTextFileSync(`${home}/skills/.hub/audit.log`).replace("INSTALL", "UPDATE"),
  );
  const bad = await cliJson(["--home", home, "hub", "audit", "--verify"]);
  equal(bad.code, 1);
  equal(
    bad.json.error,
    "The audit log was tampered with at line 1: the chain does not match: this line or one before it was edited, inserted or deleted.",
  );
});
