/**
 * The user's documentation (README.md and docs/*.md): the command-line reference is the one
 * the command table writes, and the docs speak to users, with no requirement ids of the
 * specification in them (they stay in the code and the tests), and every relative link in
 * them leads to a file of the repository and, with `#`, to a heading of it.
 */
import { deepEqual, ok } from "node:assert/strict";
import { CLI_REFERENCE_PATH, cliReference } from "../../scripts/cli_reference.ts";
import { defaultConfig } from "../../src/home/config.ts";
import { outline } from "../../src/view/outline.ts";
import { REPO } from "../helpers.ts";
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

Deno.test("[C-8] no requirement id stands in README.md or docs/*.md", () => {
  const found = userDocs().flatMap((doc) =>
    doc.text.split("\n").flatMap((text, i) =>
      [...text.matchAll(REQUIREMENT_ID)].map((m) => `${doc.path}:${i + 1}: ${m[0]}`)
    )
  );
  deepEqual(found, []);
});

/** The links of a Markdown text outside code: `[text](target)`, each with its line. */
function linksOf(text: string): { line: number; target: string }[] {
  let fence = "";
  return text.split("\n").flatMap((line, i) => {
    const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (mark && (fence === "" || mark.startsWith(fence))) {
      fence = fence === "" ? mark : "";
      return [];
    }
    if (fence !== "") return [];
    const prose = line.replace(/(`+)[^`]*?\1/g, "");
    return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ line: i + 1, target: m[1] }));
  });
}

/** Why a relative link of the doc at `from` leads nowhere, or undefined when it leads somewhere. */
function brokenLink(from: string, target: string): string | undefined {
  const [file, anchor] = target.split("#", 2);
  const path = file === "" ? from : new URL(file, `file:///${from}`).pathname.slice(1);
  let text: string;
  try {
    text = Deno.readTextFileSync(`${REPO}/${path}`);
  } catch {
    return `no file ${path}`;
  }
  if (anchor === undefined || !path.endsWith(".md")) return undefined;
  return outline(text).some((h) => h.slug === anchor)
    ? undefined
    : `no heading #${anchor} in ${path}`;
}

Deno.test("[C-8] every relative link of README.md and docs/*.md leads to a file and a heading there", () => {
  const docs = userDocs();
  const broken = docs.flatMap((doc) =>
    linksOf(doc.text)
      .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target))
      .flatMap((l) => {
        const why = brokenLink(doc.path, l.target);
        return why ? [`${doc.path}:${l.line}: (${l.target}) ${why}`] : [];
      })
  );
  deepEqual(broken, []);
  // The check sees the links: the README links to every doc.
  const readme = linksOf(docs[0].text).map((l) => l.target.split("#")[0]);
  deepEqual(docs.slice(1).map((d) => d.path).filter((p) => !readme.includes(p)), []);
});

Deno.test("[C-8] docs/configuration.md's table of the skills: section names every key config.yaml takes", () => {
  const text = Deno.readTextFileSync(`${REPO}/docs/configuration.md`);
  const section = outline(text).find((h) => h.slug === "the-skills-section-of-configyaml");
  ok(section, "docs/configuration.md has its section 'The `skills:` section of config.yaml'");
  const keys = text.slice(section.start, section.end).split("\n")
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...l.split("|")[1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
  deepEqual(keys.toSorted(), Object.keys(defaultConfig()).toSorted());
});

Deno.test("[C-6] the README gives the test command, and it is deno.json's test task over tests/", () => {
  const readme = Deno.readTextFileSync(`${REPO}/README.md`);
  ok(readme.includes("```sh\ndeno task test\n```"), "README.md names `deno task test`");
  const tasks = JSON.parse(Deno.readTextFileSync(`${REPO}/deno.json`)).tasks;
  ok(String(tasks.test).endsWith(" tests/"), tasks.test);
});
