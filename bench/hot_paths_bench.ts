/**
 * Micro-benchmarks of the hot paths (`deno task bench` runs them): frontmatter
 * splitting and parsing, the head read, one root's walk, and name resolution.
 * Timings are only compared within one run, never asserted.
 */
import { splitFrontmatter } from "../src/frontmatter/fence.ts";
import { parseFrontmatter } from "../src/frontmatter/parse.ts";
import { fastYaml } from "../src/frontmatter/fast_yaml.ts";
import { readHead } from "../src/frontmatter/read_head.ts";
import { walkRoot } from "../src/scan/walk.ts";
import { SkillRuntime } from "../src/runtime.ts";

const DEMO = new URL("../examples/home", import.meta.url).pathname;
const SKILL = Deno.readTextFileSync(`${DEMO}/skills/devops/docker-basics/SKILL.md`);
const fence = splitFrontmatter(SKILL);
const yaml = fence.kind === "ok" ? fence.yaml : "";

Deno.bench("frontmatter: split the fence", { group: "frontmatter" }, () => {
  splitFrontmatter(SKILL);
});
Deno.bench("frontmatter: fast path", { group: "frontmatter", baseline: true }, () => {
  fastYaml(yaml);
});
Deno.bench("frontmatter: parse (fast path, checks)", { group: "frontmatter" }, () => {
  parseFrontmatter(yaml);
});
Deno.bench("frontmatter: read the head of a file", () => {
  readHead(`${DEMO}/skills/devops/docker-basics/SKILL.md`);
});
Deno.bench("walk: the demo home's local root", () => {
  walkRoot(`${DEMO}/skills`, `${DEMO}/skills`);
});
const runtime = new SkillRuntime({ home: DEMO });
Deno.bench("resolve: by path (no walk)", { group: "resolve", baseline: true }, () => {
  runtime.resolve("devops/docker-basics");
});
Deno.bench("resolve: by bare name (walks the first root)", { group: "resolve" }, () => {
  runtime.resolve("docker-basics");
});
Deno.bench("list: the demo home", () => {
  runtime.list();
});
