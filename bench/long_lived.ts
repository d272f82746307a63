/**
 * PERF-3: in one long-lived process, a repeated `list` with nothing changed, against a
 * cold `list`, on the same home (median of N rounds each). Also shows that an edit is
 * seen by the next call.
 *
 * usage: deno run -A bench/long_lived.ts HOME [ROUNDS]
 */
import { SkillRuntime } from "../src/runtime.ts";

const [home, roundsArg = "5"] = Deno.args;
const rounds = Number(roundsArg);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (f: () => unknown) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

const cold: number[] = [];
for (let i = 0; i < rounds; i++) cold.push(await time(() => new SkillRuntime({ home }).list()));
const rt = new SkillRuntime({ home, watch: true });
const setupStart = performance.now();
await rt.list({ catalog: await rt.currentCatalog() });
const firstWatched = performance.now() - setupStart;
const cached: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t = performance.now();
  await rt.list({ catalog: await rt.currentCatalog() });
  cached.push(performance.now() - t);
}
const visible = (await rt.list()).skills[0].name;
const probe = rt.catalog().index().entries.get(visible)!.record;
const original = Deno.readTextFileSync(probe.file);
Deno.writeTextFileSync(
  probe.file,
  original.replace(/^description: .*$/m, "description: edited by the benchmark"),
);
const seen = (await rt.list({ catalog: await rt.currentCatalog() })).skills.some((s) =>
  s.description === "edited by the benchmark"
);
Deno.writeTextFileSync(probe.file, original);
rt.close();
console.log(`cold list        median ${median(cold).toFixed(1)} ms`);
console.log(`first watched    ${firstWatched.toFixed(1)} ms (sets up the watcher once)`);
console.log(`repeated list    median ${median(cached).toFixed(1)} ms`);
console.log(`repeated/cold    ${(median(cached) / median(cold) * 100).toFixed(1)}%  (goal <= 5%)`);
console.log(`edit seen by the next call: ${seen}`);
