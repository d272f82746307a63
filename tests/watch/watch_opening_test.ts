/**
 * [PERF-6][S-4] While a root's watcher is being opened, a call validates that root by its
 * stamps only when they are few (the budget); a root with more waits for its watcher, so
 * that passes over thousands of stamps on every call do not take the CPU the watcher's
 * setup needs. Either way what the call reads is fresh: an edit made while the watcher
 * opens is seen. A real home, a real recursive `Deno.watchFs` whose opening the test holds
 * back until it releases it, and the watched cache itself.
 */
import { deepEqual, equal } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { type ScanContext, WatchedCache } from "../../src/scan/watch_cache.ts";
import type { FsWatch } from "../../src/scan/watch_source.ts";
import { realRootsOf } from "../../src/scan/containment.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";

/** An opener of real watchers that opens each only when the test releases it. */
function heldOpener() {
  const held: (() => void)[] = [];
  const opener = (paths: string[]) =>
    new Promise<FsWatch>((resolve) =>
      held.push(() => resolve(Deno.watchFs(paths, { recursive: true })))
    );
  return { opener, release: () => held.splice(0).forEach((open) => open()), held };
}

/** A turn of the event loop: whatever settle does without waiting is done after it. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

function fixture(budget: number) {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
  });
  const setup = new SkillRuntime({ home, host: testHost(home) }).setup;
  const root = setup.roots.find((r) => r.path.endsWith("/skills"))!;
  const ctx: ScanContext = {
    limits: { maxDepth: setup.config.max_depth, maxDirs: setup.config.max_dirs },
    realRoots: realRootsOf(setup),
  };
  const { opener, release, held } = heldOpener();
  const cache = WatchedCache.create([root.path], undefined, opener, budget);
  const started = cache.start();
  const descriptions = () => cache.scan(root, ctx).records.map((r) => r.description).sort();
  return { home, root, ctx, cache, started, release, held, descriptions };
}

/** Opens what the test held back, closes the cache (which closes the watcher) and removes the home. */
async function dispose(f: ReturnType<typeof fixture>): Promise<void> {
  f.release();
  f.cache.close();
  await f.started;
  removeTrees(f.home);
}

Deno.test("[PERF-6] a root over the stamp budget: the call waits for its watcher, then reads the edit made meanwhile", async () => {
  const f = fixture(0);
  try {
    deepEqual(f.descriptions(), ["A", "B"]); // the scan, with its stamps, while the watcher opens
    equal(f.held.length, 1);
    Deno.writeTextFileSync(`${f.home}/skills/dev/a/SKILL.md`, skill("a", "A edited, longer"));
    const order: string[] = [];
    const settled = f.cache.settle(f.ctx).then(() => order.push("settled"));
    await turn();
    await turn();
    order.push("released");
    f.release();
    await settled;
    deepEqual(order, ["released", "settled"]);
    deepEqual(f.cache.status().map((s) => s.state), ["watched"]);
    deepEqual(f.descriptions(), ["A edited, longer", "B"]);
  } finally {
    await dispose(f);
  }
});

Deno.test("[PERF-6] a root under the stamp budget: the call validates it by its stamps without waiting, and reads the edit", async () => {
  const f = fixture(1000);
  try {
    deepEqual(f.descriptions(), ["A", "B"]);
    Deno.writeTextFileSync(`${f.home}/skills/dev/b/SKILL.md`, skill("b", "B edited, longer"));
    const order: string[] = [];
    const settled = f.cache.settle(f.ctx).then(() => order.push("settled"));
    await turn();
    await turn();
    deepEqual(order, ["settled"]); // the watcher is still held back
    deepEqual(f.cache.status().map((s) => s.state), ["opening"]);
    await settled;
    deepEqual(f.descriptions(), ["A", "B edited, longer"]);
  } finally {
    await dispose(f);
  }
});
