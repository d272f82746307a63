/**
 * Test helpers: temporary homes written from a file map, the real CLI run as a child
 * process with the warden's flags, and a snapshot of a tree to prove nothing changed.
 */
import { resolve } from "node:path";
import { WARDEN_FLAGS } from "../src/sandbox/warden_flags.ts";
import type { HostFacts } from "../src/home/host.ts";

/** The repository root. */
export const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
/** The shared corpus of real skills. */
export const CORPUS = resolve(REPO, "../shared/corpus");
/** The demo home. */
export const DEMO_HOME = `${REPO}/examples/home`;

/** Writes files (path → content; a `Uint8Array` is written as bytes) below a new temp folder. */
export function makeTree(
  files: Record<string, string | Uint8Array>,
  dir = Deno.makeTempDirSync({ prefix: "skillrt-test-" }),
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
    env: { NO_COLOR: "1", ...options.env },
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

/** Every file below `dir` with its size and modification time: equal snapshots mean nothing changed. */
export function snapshot(dir: string): string {
  const lines: string[] = [];
  const walk = (d: string) => {
    for (const e of Array.from(Deno.readDirSync(d)).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = `${d}/${e.name}`;
      const info = Deno.lstatSync(p);
      lines.push(`${p} ${info.isDirectory ? "dir" : info.size} ${info.mtime?.getTime()}`);
      if (info.isDirectory) walk(p);
    }
  };
  walk(dir);
  return lines.join("\n");
}

/** Host facts for in-process tests: Linux, no environments, nothing set; `extra` overrides. */
export function testHost(cwd: string, extra: Partial<HostFacts> = {}): HostFacts {
  return { platform: "linux", environments: [], env_names: [], cwd, ...extra };
}
