import { deepEqual, equal, notEqual } from "node:assert/strict";
import { appendAudit, auditFile, auditText, chainOf } from "../../src/hub/audit.ts";
import { cliJson, makeTree, skill } from "../helpers.ts";

const AT = new Date("2026-11-29T12:00:00Z");
const lockOf = (home: string) => JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
const chainValue = (line: string) => line.slice(line.lastIndexOf("chain=") + 6);

/** A home whose audit log has three lines written by the hub's own append. */
async function homeWithLog(): Promise<{ home: string; lines: string[] }> {
  const home = makeTree({ "skills/.keep": "" });
  const root = `${home}/skills`;
  await appendAudit(root, auditText(AT, "INSTALL", "a", "/src/a", "local", "safe"));
  await appendAudit(
    root,
    auditText(AT, "BLOCKED", "b", "https://x/b.tgz", "community", "dangerous"),
  );
  await appendAudit(root, auditText(AT, "UNINSTALL", "a", "/src/a", "local", "safe"));
  const lines = Deno.readTextFileSync(auditFile(root)).trimEnd().split("\n");
  return { home, lines };
}

/** Re-chains lines of text from the start, as an attacker who rewrites the whole log would. */
function rechain(texts: string[]): string {
  let previous = "0".repeat(64);
  return texts.map((t) => {
    previous = chainOf(previous, t);
    return `${t} chain=${previous}\n`;
  }).join("");
}

async function verify(home: string) {
  const r = await cliJson(["--home", home, "hub", "audit", "--verify"]);
  const broken = r.json.broken as { line: number } | undefined;
  return [r.code, r.json.error ?? r.json.intact, broken?.line ?? null];
}

Deno.test("[HUB-3] each audit append records the chain head (last chain, line count) in lock.json beside 'installed'", async () => {
  const { home, lines } = await homeWithLog();
  try {
    deepEqual(lockOf(home), {
      version: 1,
      installed: {},
      audit: { chain: chainValue(lines[2]), lines: 3 },
    });
    deepEqual(await verify(home), [0, true, null]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[HUB-3] hub audit --verify: a truncated log is reported at the first missing line", async () => {
  const { home, lines } = await homeWithLog();
  try {
    Deno.writeTextFileSync(`${home}/skills/.hub/audit.log`, lines.slice(0, 2).join("\n") + "\n");
    deepEqual(await verify(home), [
      1,
      "The audit log was tampered with at line 3: the log ends after 2 lines but lock.json records 3: lines were removed.",
      3,
    ]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[HUB-3] hub audit --verify: a log extended with a well-chained line is reported at that line", async () => {
  const { home, lines } = await homeWithLog();
  try {
    const text = auditText(AT, "INSTALL", "evil", "/src/evil", "builtin", "safe");
    const extra = `${text} chain=${chainOf(chainValue(lines[2]), text)}\n`;
    Deno.writeTextFileSync(`${home}/skills/.hub/audit.log`, extra, { append: true });
    deepEqual(await verify(home), [
      1,
      "The audit log was tampered with at line 4: lock.json records 3 lines: this line and those after it were added outside the hub.",
      4,
    ]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[HUB-3] hub audit --verify: a rewritten log with a recomputed chain is reported (same length, or shorter)", async () => {
  const { home, lines } = await homeWithLog();
  try {
    const texts = lines.map((l) => l.slice(0, l.lastIndexOf(" chain=")));
    const log = `${home}/skills/.hub/audit.log`;
    Deno.writeTextFileSync(
      log,
      rechain([texts[0], texts[1].replace("BLOCKED b", "INSTALL b"), texts[2]]),
    );
    deepEqual(await verify(home), [
      1,
      "The audit log was tampered with at line 3: its chain does not match the chain head recorded in lock.json: the log was rewritten.",
      3,
    ]);
    Deno.writeTextFileSync(log, rechain([texts[0], texts[2]]));
    const shorter = await verify(home);
    deepEqual([shorter[0], shorter[2]], [1, 3]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[HUB-3] a log whose head was removed from lock.json, or a lock.json that does not parse, is not taken as intact", async () => {
  const { home } = await homeWithLog();
  try {
    const file = `${home}/skills/.hub/lock.json`;
    Deno.writeTextFileSync(file, JSON.stringify({ version: 1, installed: {} }));
    deepEqual(await verify(home), [
      1,
      "The audit log was tampered with at line 1: lock.json records no chain head for this log, so it may have been rewritten.",
      1,
    ]);
    Deno.writeTextFileSync(file, "{not json");
    deepEqual(await verify(home), [
      1,
      `Hub lock file '${file}' does not parse, so the audit log's chain head cannot be checked.`,
      null,
    ]);
    const before = Deno.readTextFileSync(`${home}/skills/.hub/audit.log`);
    let error = "";
    try {
      await appendAudit(`${home}/skills`, auditText(AT, "INSTALL", "c", "/src/c", "local", "safe"));
    } catch (e) {
      error = (e as Error).message;
    }
    equal(
      error,
      `Hub lock file '${file}' does not parse; it was left as it is. Fix or remove it first.`,
    );
    equal(Deno.readTextFileSync(`${home}/skills/.hub/audit.log`), before, "nothing appended");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[HUB-3] through the CLI: install and uninstall keep the lock's record and the chain head in step", async () => {
  const home = makeTree({ "config.yaml": "", "skills/.keep": "" });
  const src = makeTree({ "tool/SKILL.md": skill("tool", "A tool") });
  try {
    const installed = await cliJson(["--home", home, "hub", "install", `${src}/tool`, "--yes"]);
    equal(installed.code, 0, installed.stderr);
    const log = () => Deno.readTextFileSync(`${home}/skills/.hub/audit.log`).trimEnd().split("\n");
    deepEqual(Object.keys(lockOf(home).installed), ["tool"]);
    deepEqual(lockOf(home).audit, { chain: chainValue(log()[0]), lines: 1 });
    equal((await cliJson(["--home", home, "hub", "uninstall", "tool"])).code, 0);
    deepEqual(lockOf(home).installed, {});
    deepEqual(lockOf(home).audit, { chain: chainValue(log()[1]), lines: 2 });
    deepEqual(await verify(home), [0, true, null]);
  } finally {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(src, { recursive: true });
  }
});

Deno.test("[HUB-3] a later append never washes a tampering out: the recorded head stays, verify still fails", async () => {
  for (const tamper of ["truncate", "rechain", "remove"] as const) {
    const { home, lines } = await homeWithLog();
    try {
      const root = `${home}/skills`;
      const file = auditFile(root);
      if (tamper === "truncate") Deno.writeTextFileSync(file, lines.slice(0, 2).join("\n") + "\n");
      if (tamper === "rechain") {
        const texts = lines.map((l) => l.slice(0, l.lastIndexOf(" chain=")));
        texts[0] = texts[0].replace(" INSTALL a ", " INSTALL z "); // rewritten, chain recomputed
        Deno.writeTextFileSync(file, rechain(texts));
      }
      if (tamper === "remove") Deno.removeSync(file);
      await appendAudit(root, auditText(AT, "INSTALL", "c", "/src/c", "local", "safe"));
      const [code, intact] = await verify(home);
      equal(code, 1, `${tamper}: a later append made the log look intact`);
      notEqual(intact, true, tamper);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  }
});
