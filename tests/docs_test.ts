/**
 * The user's documentation (README.md and docs/*.md) speaks to users: no requirement ids of
 * the specification in it (they stay in the code and the tests).
 */
import { deepEqual } from "node:assert/strict";
import { userDocs } from "./user_docs.ts";

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
