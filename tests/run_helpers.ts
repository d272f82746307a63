/**
 * Helpers of the `run` tests: a hub lock making a skill need approval, a sleep duration
 * unique to one run, and the PIDs of processes whose command line holds a marker.
 *
 * @module
 */

/** A hub lock holding `name`: its scripts need the user's approval ([RUN-3]). */
export function hubLock(name: string): string {
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
