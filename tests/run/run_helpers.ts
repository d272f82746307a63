/**
 * Shared by the run tests ([RUN-3], [RUN-5]): a hub skill's lock entry and home, the
 * refusals of an unapproved run (CLI and MCP), the refusal a library run ended with, a
 * sleep duration unique to one run, and the PIDs of processes whose command line holds a
 * marker.
 *
 * @module
 */
import { makeTree, skill } from "../helpers.ts";

/** The hub lock of one installed skill `name`: its scripts need the user's approval. */
export function lockFor(name: string): string {
  return JSON.stringify({
    installed: {
      [name]: {
        source: "example/hubby",
        identifier: "https://example.invalid/hubby",
        trust_level: "community",
        scan_verdict: "safe",
        content_hash: "sha256:0",
        install_path: name,
        files: {},
        installed_at: "2026-01-01T00:00:00Z",
        updated_at: "2026-01-01T00:00:00Z",
      },
    },
  });
}

/** A sleep duration no other process has: far longer than any test, unique to this run. */
export function uniqueSleep(): string {
  return `${5000 + Math.floor(Math.random() * 4000)}.${
    crypto.getRandomValues(new Uint32Array(1))[0]
  }`;
}

/** The PIDs of processes whose command line holds `marker`. */
export async function processesWith(marker: string): Promise<string[]> {
  const out = await new Deno.Command("ps", { args: ["-eo", "pid=,args="] }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.includes(marker))
    .map((l) => l.trim().split(/\s+/)[0]);
}

/** How the refusal names a local skill an MCP client wrote. */
export const BY_AGENT = "local skill (written through MCP)";

/** What `run` says on stderr for files the user has not approved. */
export const NOT_APPROVED = (
  script: string,
  name: string,
  origin: string,
  what = `${origin} skill`,
) =>
  `skillrt: Refusing to run '${script}' of skill '${name}': the user has not approved the files of this ${what} with its grant; approve it at a terminal or pass --yes.\n`;

/** What MCP's skill_run answers for files the user has not approved at a terminal. */
export const MCP_NOT_APPROVED = (script: string, name: string) =>
  `Refusing to run '${script}' of skill '${name}': an MCP client runs only the user's own skills and what the user approved at a terminal; to approve these files with this grant, run 'skillrt run ${name} ${script}' there.`;

/** A home with one hub skill `hubby` holding `files` (paths inside the skill). */
export function hubHome(files: Record<string, string>): string {
  const tree: Record<string, string> = {
    "skills/hubby/SKILL.md": skill("hubby", "from the hub"),
    "skills/.hub/lock.json": lockFor("hubby"),
  };
  for (const [path, text] of Object.entries(files)) tree[`skills/hubby/${path}`] = text;
  return makeTree(tree);
}

/** The refusal a run ended with (undefined when it ran). */
export async function refusal(running: Promise<unknown>): Promise<string | undefined> {
  try {
    await running;
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
