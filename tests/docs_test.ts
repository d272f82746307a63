/**
 * The user's documentation (README.md and docs/*.md): the command-line reference is the one
 * the command table writes, and the docs speak to users, with no requirement ids of the
 * specification in them (they stay in the code and the tests).
 */
import { deepEqual, ok } from "node:assert/strict";
import { CLI_REFERENCE_PATH, cliReference } from "../scripts/cli_reference.ts";
import { REPO } from "./helpers.ts";
import { userDocs } from "./user_docs.ts";

Deno.test("[C-1] docs/cli.md is what scripts/cli_reference.ts writes from the command table", async () => {
  const written = Deno.readTextFileSync(`${REPO}/${CLI_REFERENCE_PATH}`).split("\n");
  const generated = (await cliReference()).split("\n");
  const line = generated.findIndex((l, i) => l !== written[i]);
  ok(
    line < 0 && written.length === generated.length,
    `docs/cli.md differs from the command table at line ${line + 1} ` +
      `('${written[line]}', the table says '${generated[line]}'): run 'deno task docs:cli'`,
  );
});

/** A requirement id as the code and tests write it: `[IO-3]`, `[RUN-1..5]`, `[L0-10]`. */
const REQUIREMENT_ID = /\[[A-Z][A-Z0-9]*-\d+(?:\.\.\d+)?\]/g;

/**
 * The lines of a doc a person wrote: outside `console` blocks, and in them the `$` lines —
 * what follows a `$` line is the program's own output, which the transcripts test holds to
 * what the program prints.
 */
function writtenLines(text: string): { line: number; text: string }[] {
  let inConsole = false;
  return text.split("\n").flatMap((line, i) => {
    if (line === "```console") inConsole = true;
    else if (inConsole && line === "```") inConsole = false;
    else if (inConsole && !line.startsWith("$ ")) return [];
    return [{ line: i + 1, text: line }];
  });
}

Deno.test("[C-8] no requirement id stands in README.md or docs/*.md", () => {
  const found = userDocs().flatMap((doc) =>
    writtenLines(doc.text).flatMap(({ line, text }) =>
      [...text.matchAll(REQUIREMENT_ID)].map((m) => `${doc.path}:${line}: ${m[0]}`)
    )
  );
  deepEqual(found, []);
});
