/**
 * Test helpers: temporary homes written from a file map, the real CLI run as a child
 * process with the warden's flags, and a snapshot of a tree to prove nothing changed.
 */
import { resolve } from "node:path";
import { load } from "js-yaml";
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";
import type { HostFacts } from "../src/home/host.ts";

/** The repository root. */
export const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/**
 * A folder of `../shared` a test needs: `$VARIABLE`, else the sibling path ([C-6]). A
 * user's clone has no `../shared`; tests that need it are then ignored, with the reason in
 * their name, instead of failing.
 */
function sharedFolder(variable: string, sibling: string): { path: string; missing?: string } {
  const path = resolve(REPO, Deno.env.get(variable) || sibling);
  try {
    if (Deno.statSync(path).isDirectory) return { path };
  } catch {
    // Missing: the tests that need it are ignored.
  }
  return { path, missing: `ignored: ${path} not found; set ${variable} to run it` };
}

const corpus = sharedFolder("SKILLRT_CORPUS", "../shared/corpus");
const bench = sharedFolder("SKILLRT_BENCH", "../shared/bench");
/** The shared corpus of real skills (`SKILLRT_CORPUS`, default `../shared/corpus`). */
export const CORPUS: string = corpus.path;
/** The performance references (`SKILLRT_BENCH`, default `../shared/bench`). */
export const BENCH: string = bench.path;

/** Test options for a test that needs the corpus: ignored, saying why, when it is absent. */
export function needsCorpus(name: string): { name: string; ignore: boolean } {
  return corpus.missing
    ? { name: `${name} (${corpus.missing})`, ignore: true }
    : { name, ignore: false };
}

/** Test options for a test that needs the bench references: ignored, saying why, when absent. */
export function needsBench(name: string): { name: string; ignore: boolean } {
  return bench.missing
    ? { name: `${name} (${bench.missing})`, ignore: true }
    : { name, ignore: false };
}
/** Temp folders and files made through these helpers, removed when the test module unloads. */
const made = new Set<string>();
globalThis.addEventListener("unload", () => removeTrees(...made));

/** A new temp folder, removed (with all it holds) when the test module unloads. */
export function tempDir(prefix = "skillrt-test-"): string {
  const dir = Deno.makeTempDirSync({ prefix });
  made.add(dir);
  return dir;
}

/** A new empty temp file, removed when the test module unloads. */
export function tempFile(prefix = "skillrt-test-"): string {
  const file = Deno.makeTempFileSync({ prefix });
  made.add(file);
  return file;
}

/** A private copy of the demo home (`view` counts uses in it; the repository stays clean). */
export const DEMO_HOME: string = copyTree(`${REPO}/examples/home`);

/** Copies a folder to a new temp folder (removed at unload) and returns the copy's path. */
export function copyTree(from: string): string {
  const to = tempDir("skillrt-copy-");
  const out = new Deno.Command("cp", { args: ["-a", `${from}/.`, to] }).outputSync();
  if (!out.success) throw new Error(`cp failed: ${new TextDecoder().decode(out.stderr)}`);
  return to;
}

/**
 * Writes files (path → content; a `Uint8Array` is written as bytes) below a new temp
 * folder (removed at unload) or below `dir`.
 */
export function makeTree(
  files: Record<string, string | Uint8Array>,
  dir = tempDir(),
): string {
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(full, content);
    else Deno.writeFileSync(full, content);
  }
  return dir;
}

/** A SKILL.md with the given frontmatter lines and body. */
export function skill(
  name: string,
  description: string,
  extra = "",
  body = `# ${name}\n\nDo the thing.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;
}

/** What a CLI run printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `main.ts` as a child process with the warden's flags (as `deno task skillrt` does). */
export async function cli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, ...args],
    cwd: options.cwd ?? REPO,
    // INIT_CWD as `deno task` sets it: the folder the user ran the command in.
    env: { NO_COLOR: "1", INIT_CWD: options.cwd ?? REPO, ...options.env },
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Runs the CLI with `--json` and parses stdout. */
export async function cliJson(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const r = await cli([...args, "--json"], options);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}): ${r.stdout}\nstderr: ${r.stderr}`);
  }
  return { ...r, json };
}

/** Every file below `dir` with its text, by path relative to it (sorted): equal means the same bytes. */
export function fileTexts(dir: string): string {
  const out: string[] = [];
  const walk = (rel: string) => {
    const entries = [...Deno.readDirSync(rel ? `${dir}/${rel}` : dir)];
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else if (e.isFile) out.push(`${path}\n${Deno.readTextFileSync(`${dir}/${path}`)}`);
    }
  };
  walk("");
  return out.join("\n--\n");
}

/** `hub install --from-lock FILE` in `home` (with `extra` arguments), as JSON ([T-4]). */
export function restoreFrom(home: string, file: string, ...extra: string[]) {
  return cliJson(["--home", home, "hub", "install", "--from-lock", file, ...extra]);
}

/**
 * Every file below `dir` with its size and modification time: equal snapshots mean
 * nothing changed. Paths matching `ignore` (for example the usage counters) are left out.
 */
export function snapshot(dir: string, ignore?: RegExp): string {
  const lines: string[] = [];
  const walk = (d: string) => {
    for (const e of Array.from(Deno.readDirSync(d)).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = `${d}/${e.name}`;
      if (ignore?.test(p)) continue;
      const info = Deno.lstatSync(p);
      // A folder's own mtime only says its entries changed, and the entries are listed.
      lines.push(info.isDirectory ? `${p} dir` : `${p} ${info.size} ${info.mtime?.getTime()}`);
      if (info.isDirectory) walk(p);
    }
  };
  walk(dir);
  return lines.join("\n");
}

/** Usage counter files and their lock and temp files ([U-1]): what a `view` may write. */
export const USAGE_FILES = /\/\.usage\.json(\.lock|\.tmp|\.lock\.break)?$/;

/** Host facts for in-process tests: Linux, no environments, nothing set; `extra` overrides. */
export function testHost(cwd: string, extra: Partial<HostFacts> = {}): HostFacts {
  return { platform: "linux", environments: [], envNames: [], cwd, ...extra };
}

/** The write grant of `view` for roots: each root's usage file, its temp file and its locks ([U-1]). */
export function usageGrant(home: string): string[] {
  return [".usage.json", ".usage.json.lock", ".usage.json.lock.break", ".usage.json.tmp"].map((f) =>
    `${home}/skills/${f}`
  ).sort();
}

/** Removes temp folders a test made (missing ones are fine). */
export function removeTrees(...dirs: string[]): void {
  for (const dir of dirs) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** Asserts that nothing is at `path` (not even a dangling link): lstat fails with NotFound. */
export function assertAbsent(path: string, message = `${path} should not exist`): void {
  try {
    Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new Error(`${message}: lstat failed with ${error}, not NotFound`);
  }
  throw new Error(message);
}

/** A file outside every home and root whose content must never appear in any output. */
export function makeCanary(): { dir: string; file: string; secret: string } {
  const secret = `CANARY-${crypto.randomUUID()}`;
  const dir = makeTree({ "canary.txt": `${secret}\n` });
  return { dir, file: `${dir}/canary.txt`, secret };
}

/**
 * Waits until process `pid` has ended (`ps` no longer lists it, or lists a zombie),
 * polling for at most `ms`: true when it ended. A process that has ended can no longer
 * write anything, so this stands for "the killed child never wrote" without a fixed
 * sleep. (`ps`, because Deno reads /proc only with --allow-all.) The 15 s default stays
 * below the 20 s the tests' runaway children sleep, and far above a busy machine's delay.
 */
export async function processEnded(pid: number, ms = 15_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (true) {
    const out = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] })
      .output();
    const state = new TextDecoder().decode(out.stdout).trim();
    if (state === "" || state.startsWith("Z") || state.startsWith("X")) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Polls `check` until it holds, every 50 ms for at most `ms` (generous: a busy machine is
 * slow, never wrong); true when it held, and throws when it never did, so that no caller
 * can forget to assert it. A test waits on what it expects to see, not for a fixed time.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 60_000,
): Promise<true> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`still not so after ${ms} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** A child process that swaps `<path>` (a folder) and `<path>.link` forever; `<ready>` once it runs. */
export async function startSwapper(path: string, ready: string): Promise<Deno.ChildProcess> {
  const script = `
    const p = ${JSON.stringify(path)};
    Deno.writeTextFileSync(${JSON.stringify(ready)}, "go");
    for (;;) {
      Deno.renameSync(p, p + ".real");
      Deno.renameSync(p + ".link", p);
      Deno.renameSync(p, p + ".link");
      Deno.renameSync(p + ".real", p);
    }`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let wait = 0; wait < 500; wait++) {
    try {
      Deno.statSync(ready);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return child;
}

/**
 * The length of the `description` of a SKILL.md as js-yaml reads it, for tests whose
 * expected "Description is N characters" comes from the file, not from skillrt.
 */
export function descriptionLength(file: string): number {
  const text = Deno.readTextFileSync(file).replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const yaml = text.split(/^---$/m)[1];
  return String((load(yaml) as { description: unknown }).description).length;
}
