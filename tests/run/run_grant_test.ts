/**
 * The pure core of running scripts ([RUN-1], [RUN-2]): what a skill declares, the grant
 * and its refusals, how a script runs, the deno flags and the bwrap line — no I/O.
 */
import { deepEqual, ok } from "node:assert/strict";

const assert: (v: unknown, m?: string) => asserts v = ok;
const assertEquals = (a: unknown, b: unknown) => deepEqual(a, b);
const assertStringIncludes = (text: string, part: string) =>
  ok(text.includes(part), `expected ${JSON.stringify(text)} to include ${JSON.stringify(part)}`);
import { declaredPermissions, NOTHING_DECLARED } from "../../src/run/permissions.ts";
import { type Grant, grantFor, type Places } from "../../src/run/grant.ts";
import { scriptKind } from "../../src/run/script_kind.ts";
import { denoFlags } from "../../src/run/deno_args.ts";
import { bwrapArgv } from "../../src/run/bwrap_args.ts";
import { envNameRefusal } from "../../src/run/env_policy.ts";
import { grantFingerprint, isApproved } from "../../src/run/consent.ts";
const BOX = { bash: "/usr/bin/bash", setpriv: "/usr/bin/setpriv" };

const PLACES: Places = {
  skillDir: "/h/.skillrt/skills/pdf",
  workDir: "/h/project",
  userHome: "/h",
  skillrtHome: "/h/.skillrt",
};

function granted(declared: unknown, places = PLACES): Grant {
  const d = declaredPermissions({ metadata: { skillrt: { permissions: declared } } });
  if ("problem" in d) throw new Error(d.problem);
  const verdict = grantFor(d, places);
  if ("refused" in verdict) throw new Error(verdict.refused);
  return verdict.grant;
}

function refusal(declared: unknown, places = PLACES): string {
  const d = declaredPermissions({ metadata: { skillrt: { permissions: declared } } });
  if ("problem" in d) return d.problem;
  const verdict = grantFor(d, places);
  return "refused" in verdict ? verdict.refused : "granted";
}

Deno.test("nothing declared: the skill and the work dir read, the work dir written, nothing else", () => {
  assertEquals(declaredPermissions({ name: "x" }), NOTHING_DECLARED);
  const verdict = grantFor(NOTHING_DECLARED, PLACES);
  assert("grant" in verdict);
  assertEquals(verdict.grant, {
    skillDir: PLACES.skillDir,
    workDir: PLACES.workDir,
    read: [PLACES.skillDir, PLACES.workDir],
    write: [PLACES.workDir],
    net: [],
    env: [],
    run: [],
    // The work dir's would-be skills and agent folders and .git, from the one table.
    readOnly: [".hermes", ".agents", ".claude", ".codex", ".git"].map((t) => `/h/project/${t}`),
  });
});

Deno.test("declared paths resolve against the skill, $WORKDIR and the work dir", () => {
  const g = granted({
    read: ["references", "$WORKDIR/in"],
    write: ["out"],
    net: ["api.example.com:443"],
    env: ["API_KEY"],
  });
  assertEquals(g.read, [
    PLACES.skillDir,
    PLACES.workDir,
    `${PLACES.skillDir}/references`,
    "/h/project/in",
  ]);
  assertEquals(g.write, ["/h/project/out"]);
  assertEquals(g.net, ["api.example.com:443"]);
  assertEquals(g.env, ["API_KEY"]);
});

Deno.test("Codex's agents/openai.yaml permissions are read the same way", () => {
  const d = declaredPermissions({}, {
    permissions: { network: true, fs_read: ["data"], fs_write: ["build"] },
  });
  assert(!("problem" in d));
  assertEquals(d.from, "codex");
  const verdict = grantFor(d, PLACES);
  assert("grant" in verdict);
  assertEquals(verdict.grant.net, true);
  assertEquals(verdict.grant.write, ["/h/project/build"]);
  // The frontmatter wins over Codex's file.
  const both = declaredPermissions({ metadata: { skillrt: { permissions: { net: [] } } } }, {
    permissions: { network: true },
  });
  assert(!("problem" in both) && both.from === "skillrt" && both.net !== true);
});

Deno.test("refused before anything runs: writes outside the work dir, reads reaching home, / or the skillrt home", () => {
  assertStringIncludes(
    refusal({ write: ["../elsewhere"] }),
    "write '../elsewhere' is refused: a script writes inside the work dir only",
  );
  assertStringIncludes(refusal({ write: ["/tmp/x"] }), "inside the work dir only");
  assertStringIncludes(refusal({ read: ["../../.."] }), "reaches the skillrt home");
  assertStringIncludes(refusal({ read: ["../../../.."] }), "it is /");
  assertStringIncludes(refusal({ read: ["/"] }), "it is /");
  assertStringIncludes(refusal({ read: ["../other-skill"] }), "reaches the skillrt home");
  assertStringIncludes(refusal({ read: ["/h/.ssh"] }), "reaches your home");
  assertStringIncludes(refusal({ run: ["/h/bin/tool"] }), "reaches your home");
  // Variant: a link inside the skill whose real path is the home is refused by its real path.
  const d = declaredPermissions({ metadata: { skillrt: { permissions: { read: ["refs"] } } } });
  assert(!("problem" in d));
  const real = (p: string) => (p === `${PLACES.skillDir}/refs` ? "/h/.ssh" : p);
  const v = grantFor(d, PLACES, real);
  assert("refused" in v);
  assertStringIncludes(v.refused, "read 'refs' is refused: it reaches your home");
});

Deno.test("skills folders inside the work dir stay read-only; a work dir inside one is refused", () => {
  const places = { ...PLACES, roots: ["/h/project/.agents/skills", "/elsewhere/skills"] };
  const verdict = grantFor(NOTHING_DECLARED, places);
  assert("grant" in verdict);
  const tops = [".hermes", ".agents", ".claude", ".codex", ".git"].map((t) => `/h/project/${t}`);
  // The root lies in the kept .agents: the folder covers it.
  assertEquals(verdict.grant.readOnly, tops);
  const line = bwrapArgv({
    bwrap: "b",
    system: [],
    grant: verdict.grant,
    command: ["sh"],
    box: BOX,
    absent: ["/h/project/.claude"],
    workDirId: "8:1",
  }).join(" ");
  assertStringIncludes(
    line,
    "--bind /h/project /h/project --ro-bind /h/project/.hermes /h/project/.hermes --ro-bind /h/project/.agents /h/project/.agents",
  );
  assertStringIncludes(line, "--tmpfs /h/project/.claude --remount-ro /h/project/.claude");
  assert(denoFlags(verdict.grant).includes(`--deny-write=${tops.join(",")}`));
  // Variant: running inside a skills folder is refused outright.
  assertStringIncludes(
    refusal({}, { ...places, workDir: "/elsewhere/skills/x" }),
    "the work dir may not be in the skills folder '/elsewhere/skills'",
  );
});

Deno.test("a comma cannot smuggle a second path into Deno's permission lists", () => {
  // `references,/root` would be read by deno as two grants: the skill's folder and /root.
  assertStringIncludes(refusal({ read: ["references,/root"] }), "holds a comma");
  // Variants: a write, a program, and a work dir whose real path holds one.
  assertStringIncludes(refusal({ write: ["out,/etc"] }), "holds a comma");
  assertStringIncludes(refusal({ run: ["/usr/bin/env,/bin/sh"] }), "holds a comma");
  assertStringIncludes(refusal({}, { ...PLACES, workDir: "/w,/h" }), "holds a comma");
  assertStringIncludes(refusal({ read: ["a\nb"] }), "control character");
});

Deno.test("the work dir may not be /, the home, the skillrt home or the skill folder", () => {
  assertStringIncludes(refusal({}, { ...PLACES, workDir: "/" }), "may not be /");
  assertStringIncludes(refusal({}, { ...PLACES, workDir: "/h" }), "may not be your home");
  assertStringIncludes(refusal({}, { ...PLACES, workDir: "/h/.skillrt/x" }), "skillrt home");
  assertStringIncludes(
    refusal({}, { ...PLACES, skillrtHome: "/s", workDir: PLACES.skillDir }),
    "skill folder",
  );
});

Deno.test("malformed declarations and refused names are one-line refusals", () => {
  assertEquals(refusal({ read: "references" }), "granted"); // one string is a list of one
  assertEquals(refusal({ read: [1] }), "'read' must be a list of strings");
  assertEquals(refusal("all"), "permissions must be a mapping");
  assertStringIncludes(refusal({ net: ["evil.com/path"] }), "is not a host");
  // The home's one environment-name policy decides (src/preprocess/env_policy.ts).
  assertEquals(
    refusal({ env: ["LD_PRELOAD"] }),
    "env 'LD_PRELOAD' is refused: it changes what the dynamic loader or the C library loads",
  );
  assertStringIncludes(refusal({ env: ["PYTHONSTARTUP"] }), "env 'PYTHONSTARTUP' is refused: it");
  assertStringIncludes(refusal({ env: ["HTTPS_PROXY"] }), "env 'HTTPS_PROXY' is refused: it");
  assertStringIncludes(refusal({ env: ["ssh_auth_sock"] }), "env 'ssh_auth_sock' is refused: it");
  assertStringIncludes(refusal({ env: ["path"] }), "set by the sandbox itself");
  assertStringIncludes(refusal({ env: ["HOME"] }), "set by the sandbox itself");
  assertStringIncludes(refusal({ env: ["A-B"] }), "it is not a variable name");
  assertEquals(envNameRefusal("API_TOKEN"), undefined);
  assertStringIncludes(refusal({ run: ["a b"] }), "not a program name");
});

Deno.test("how a script runs: shebang first, then the extension", () => {
  assertEquals(scriptKind("scripts/a.ts", ""), { kind: "deno" });
  assertEquals(scriptKind("scripts/a.mjs", "// x"), { kind: "deno" });
  assertEquals(scriptKind("scripts/a.py", "import os"), {
    kind: "bwrap",
    program: "python3",
    args: [],
  });
  assertEquals(scriptKind("scripts/a", "#!/usr/bin/env python3"), {
    kind: "bwrap",
    program: "python3",
    args: [],
  });
  assertEquals(scriptKind("scripts/a.sh", "#!/bin/bash -e"), {
    kind: "bwrap",
    program: "/bin/bash",
    args: ["-e"],
  });
  assertEquals(scriptKind("scripts/a.js", "#!/usr/bin/env node"), {
    kind: "bwrap",
    program: "node",
    args: [],
  });
  assertEquals(scriptKind("scripts/a", "#!/usr/bin/env -S deno run -A"), { kind: "deno" });
  const none = scriptKind("scripts/a.bin", "");
  assert("refused" in none && none.refused.includes("names no interpreter"));
  const relative = scriptKind("scripts/a", "#!python3");
  assert("refused" in relative && relative.refused.includes("not an absolute path"));
});

Deno.test("deno flags are exactly the grant; no network means no remote modules", () => {
  const g = granted({ env: ["API_KEY"] });
  assertEquals(denoFlags(g), [
    "--no-prompt",
    "--no-config",
    "--no-lock",
    `--allow-read=${PLACES.skillDir},${PLACES.workDir}`,
    `--allow-write=${PLACES.workDir}`,
    `--deny-write=${g.readOnly.join(",")}`,
    "--no-remote",
    "--allow-env=PATH,HOME,LANG,API_KEY",
  ]);
  const net = denoFlags(granted({ net: ["jsr.io"], run: ["git"] }));
  assert(net.includes("--allow-net=jsr.io") && net.includes("--allow-import=jsr.io"));
  assert(net.includes("--allow-run=git") && !net.includes("--no-remote"));
});

Deno.test("the bwrap line: new namespaces, writable work dir, the read-only skill bound last, no environment on it", () => {
  const argv = bwrapArgv({
    bwrap: "/usr/bin/bwrap",
    system: [{ path: "/usr" }, { path: "/bin", link: "usr/bin" }],
    grant: granted({ read: ["/opt/data"] }),
    command: ["/usr/bin/python3", `${PLACES.skillDir}/s.py`, "a b"],
    box: BOX,
    absent: [],
    workDirId: "8:1",
  });
  const line = argv.join(" ");
  assertEquals(argv.slice(0, 4), [
    "/usr/bin/bwrap",
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
  ]);
  assert(!argv.includes("--share-net"));
  assertStringIncludes(line, "--symlink usr/bin /bin");
  assertStringIncludes(line, `--ro-bind ${PLACES.skillDir} ${PLACES.skillDir}`);
  assertStringIncludes(line, `--bind ${PLACES.workDir} ${PLACES.workDir}`);
  assertStringIncludes(line, "--ro-bind-try /opt/data /opt/data");
  assertStringIncludes(line, "--tmpfs /tmp");
  // The environment is bwrap's own, never on the line; the skill is bound last, over all else.
  assert(!line.includes("--setenv") && !line.includes("--clearenv"));
  assertEquals(argv.slice(argv.indexOf("--chdir") - 3, argv.indexOf("--chdir")), [
    "--ro-bind",
    PLACES.skillDir,
    PLACES.skillDir,
  ]);
  assert(!line.includes("/etc/passwd") && !line.includes("/etc/resolv.conf"));
  assertEquals(argv.slice(argv.indexOf("--") + 1, argv.indexOf("--") + 3), [BOX.bash, "-c"]);
  assertEquals(argv.slice(-3), [
    "/usr/bin/python3",
    `${PLACES.skillDir}/s.py`,
    "a b",
  ]);
  // Declared writes: the work dir read-only, only those paths writable; net keeps the namespace.
  const narrow = bwrapArgv({
    bwrap: "b",
    system: [],
    grant: granted({ write: ["out"], net: ["x.org"] }),
    command: ["sh"],
    box: BOX,
    absent: [],
    workDirId: "8:1",
  });
  assertStringIncludes(
    narrow.join(" "),
    `--ro-bind ${PLACES.workDir} ${PLACES.workDir} --bind-try /h/project/out /h/project/out`,
  );
  assert(narrow.includes("--share-net") && narrow.includes("/etc/resolv.conf"));
});

Deno.test("an approval matches the skill's files, the script and the grant, declared and resolved, nothing else", () => {
  const d = declaredPermissions({ metadata: { skillrt: { permissions: { env: ["A"] } } } });
  assert(!("problem" in d));
  const g = granted({ env: ["A"] });
  const key = {
    skillDir: "/s",
    script: "scripts/a.py",
    sha256: "aa",
    files: "ff",
    grant: grantFingerprint(d, g),
  };
  const approvals = [{ ...key, skill: "s", approvedAt: "t" }];
  assert(isApproved(approvals, key));
  assert(!isApproved(approvals, { ...key, sha256: "bb" }));
  assert(!isApproved(approvals, { ...key, files: "fe" }), "another file of the skill changed");
  const more = grantFingerprint({ ...d, env: ["A", "B"] }, g);
  assert(!isApproved(approvals, { ...key, grant: more }));
  assertEquals(grantFingerprint({ ...d, env: ["A"] }, g), grantFingerprint(d, g));
  // The same declaration resolved elsewhere is another grant; another work dir is not.
  const elsewhere = { ...g, read: [...g.read, "/srv/other"] };
  assert(!isApproved(approvals, { ...key, grant: grantFingerprint(d, elsewhere) }));
  const moved = granted({ env: ["A"] }, { ...PLACES, workDir: "/h/other" });
  assertEquals(grantFingerprint(d, moved), grantFingerprint(d, g));
});
