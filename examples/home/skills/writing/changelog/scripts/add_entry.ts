// Adds an entry under "## [Unreleased]" of CHANGELOG.md in the work dir: add_entry.ts SECTION TEXT.
// It may read its skill's references/ and write the work dir, and sees CHANGELOG_AUTHOR if set.
const [section, text] = Deno.args;
if (!section || !text) {
  console.error("usage: add_entry.ts SECTION TEXT (SECTION: Added, Changed, Fixed, Removed)");
  Deno.exit(2);
}
const file = "CHANGELOG.md";
let log: string;
try {
  log = Deno.readTextFileSync(file);
} catch {
  log = Deno.readTextFileSync(new URL("../references/template.md", import.meta.url));
}
const author = Deno.env.get("CHANGELOG_AUTHOR");
const entry = `- ${text}${author ? ` (${author})` : ""}`;
const heading = `### ${section}`;
const unreleased = "## [Unreleased]\n";
const at = log.indexOf(unreleased);
if (at < 0) {
  console.error(`${file} has no '## [Unreleased]' section`);
  Deno.exit(1);
}
const start = at + unreleased.length;
const next = log.indexOf("\n## ", start);
const end = next < 0 ? log.length : next + 1;
let body = log.slice(start, end);
body = body.includes(`${heading}\n`)
  ? body.replace(`${heading}\n`, `${heading}\n${entry}\n`)
  : `${body.trimEnd() === "" ? "" : `${body.trimEnd()}\n`}\n${heading}\n${entry}\n`;
Deno.writeTextFileSync(file, log.slice(0, start) + body + log.slice(end));
console.log(`${file}: added under ${section}: ${text}`);
