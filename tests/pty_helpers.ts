/**
 * The real CLI at a real pseudo-terminal (script(1)), driven as a user would: each step
 * waits until the terminal shows its text, then types its keys — an answer and Enter, or
 * a Ctrl-C (`\x03`), which the terminal turns into SIGINT unless the program reads it raw.
 */
import { shellQuote } from "../src/warden/plan.ts";
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";
import { childEnv } from "./child_env.ts";
import { REPO } from "./helpers.ts";

/** Whether script(1) is here; a test that needs it is ignored, saying so, when it is not. */
export const HAS_SCRIPT: boolean = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** The reason a test of a pseudo-terminal is ignored here, or "" when it runs. */
export const NO_PTY: string = HAS_SCRIPT
  ? ""
  : " (ignored: script(1) from util-linux is not installed)";

/** What the terminal showed (CRLF as LF) and how the command ended. */
export interface PtyRun {
  code: number;
  output: string;
}

/**
 * Runs `skillrt …args` inside a pseudo-terminal (`script -q -e -c … /dev/null`); for each
 * step `[shown, keys]`, once `shown` has appeared (after the previous step's) types `keys`;
 * `columns`: the terminal's width.
 * A run that hangs is killed after two minutes, so it cannot hang the suite.
 */
export async function atTerminal(
  args: string[],
  steps: [string, string][],
  env: Record<string, string> = {},
  columns?: number,
): Promise<PtyRun> {
  const command = (columns ? `stty cols ${columns}; ` : "") +
    [Deno.execPath(), "run", ...WARDEN_FLAGS, `${REPO}/main.ts`, ...args]
      .map(shellQuote).join(" ");
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", command, "/dev/null"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: childEnv({ NO_COLOR: "1", ...env }),
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const writer = child.stdin.getWriter();
  const decoder = new TextDecoder();
  let output = "";
  let next = 0;
  let seen = 0;
  const stderrDone = child.stderr.pipeTo(new WritableStream());
  for await (const chunk of child.stdout) {
    output += decoder.decode(chunk, { stream: true });
    while (next < steps.length && output.indexOf(steps[next][0], seen) >= 0) {
      seen = output.indexOf(steps[next][0], seen) + steps[next][0].length;
      await writer.write(new TextEncoder().encode(steps[next][1]));
      next++;
    }
  }
  await writer.close().catch(() => {});
  await stderrDone;
  const status = await child.status;
  clearTimeout(guard);
  return { code: status.code, output: output.replaceAll("\r\n", "\n") };
}
