/**
 * How a script runs ([RUN-2]): a `.ts`/`.js`/`.mjs`/`.mts` file (or one whose shebang names
 * `deno`) under `deno run`; anything else under bubblewrap with the interpreter its
 * shebang names, else the one its extension stands for (Python, shell, Node, …). Pure:
 * the path and the file's first line in, the way out.
 *
 * @module
 */

/** How a script is run. */
export type ScriptKind =
  | { kind: "deno" }
  | {
    kind: "bwrap";
    /** The interpreter: an absolute path, or a name looked up on the sandbox's PATH. */
    program: string;
    /** Its arguments before the script (from the shebang). */
    args: string[];
  }
  | { refused: string };

/** The folders on the sandbox's PATH (system folders only: nothing of the user's). */
export const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

const DENO_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];

/** The interpreter of each extension that is not Deno's. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  ".py": "python3",
  ".sh": "sh",
  ".bash": "bash",
  ".cjs": "node",
  ".rb": "ruby",
  ".pl": "perl",
};

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot).toLowerCase() : "";
}

/** The words of a `#!` line, or undefined when the file has none. */
export function shebangWords(firstLine: string): string[] | undefined {
  if (!firstLine.startsWith("#!")) return undefined;
  const words = firstLine.slice(2).trim().split(/\s+/).filter((w) => w !== "");
  return words.length ? words : undefined;
}

/** The interpreter a shebang names: `/usr/bin/env X …` looks X up, else the path itself. */
function fromShebang(words: string[]): ScriptKind {
  let [program, ...args] = words;
  if (/^\/(usr\/)?bin\/env$/.test(program)) {
    args = args.filter((a) => a !== "-S");
    [program, ...args] = args;
    if (program === undefined || program.startsWith("-") || program.includes("=")) {
      return { refused: `its '#!' line '${words.join(" ")}' names no interpreter` };
    }
  } else if (!program.startsWith("/")) {
    return { refused: `its '#!' line names '${program}', not an absolute path` };
  }
  const name = program.slice(program.lastIndexOf("/") + 1);
  if (name === "deno") return { kind: "deno" };
  return { kind: "bwrap", program, args };
}

/** How the script at `path` (relative to the skill) with first line `firstLine` runs. */
export function scriptKind(path: string, firstLine: string): ScriptKind {
  const extension = extensionOf(path);
  const words = shebangWords(firstLine);
  // A shebang wins: a `.js` file whose shebang names node runs under Node, in bubblewrap.
  if (words !== undefined) return fromShebang(words);
  if (DENO_EXTENSIONS.includes(extension)) return { kind: "deno" };
  const program = BY_EXTENSION[extension];
  if (program === undefined) {
    return {
      refused: `it has no '#!' line and its extension '${
        extension || "(none)"
      }' names no interpreter (.py, .sh, .bash, .cjs, .rb, .pl; Deno: .ts, .js, .mjs)`,
    };
  }
  return { kind: "bwrap", program, args: [] };
}
