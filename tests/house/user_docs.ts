/**
 * The user's documentation: README.md and every `docs/*.md`, as the tests that check it
 * read it (the console transcripts, the library script, the table of template aliases,
 * links and wording).
 *
 * @module
 */
import { REPO } from "../helpers.ts";

/** One file of the documentation: its path from the repository's root, and its text. */
export interface UserDoc {
  path: string;
  text: string;
}

/** README.md, then every Markdown file of `docs/` by name. */
export function userDocs(): UserDoc[] {
  const docs = [...Deno.readDirSync(`${REPO}/docs`)]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`).sort();
  return ["README.md", ...docs].map((path) => ({
    path,
    text: Deno.readTextFileSync(`${REPO}/${path}`),
  }));
}

/** The first fenced block of `lang` after the line `heading` in the file at `path`. */
export function docBlock(path: string, heading: string, lang: string): string {
  const text = Deno.readTextFileSync(`${REPO}/${path}`);
  const from = text.split("\n").indexOf(heading);
  if (from < 0) throw new Error(`${path} has no line '${heading}'`);
  const rest = text.split("\n").slice(from).join("\n");
  const start = rest.indexOf("```" + lang + "\n") + lang.length + 4;
  return rest.slice(start, rest.indexOf("```", start));
}
