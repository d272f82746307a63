/**
 * [PERF-6] While the watchers open, a call's proof of freshness is a pass over the stamps
 * of what the first scan saw, made by a second watch helper that opens no watchers: no
 * call waits for a watcher, the thread answering calls makes no pass, and every edit is
 * still seen. A watcher that never reports a mark is closed and its root falls back. Real
 * homes, real helper Workers (`watch_helper.ts`), real `Deno.watchFs`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { type ScanContext, WatchedCache } from "../../src/scan/watch_cache.ts";
import { OPEN_WAIT_MS } from "../../src/scan/stamps.ts";
import { checkStamps, type StampChecker, stampOf } from "../../src/scan/stamp_of.ts";
import { type FsWatch, ownWatchHelper } from "../../src/scan/watch_source.ts";
import { realRootsOf } from "../../src/scan/containment.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";
import { age, editAged } from "./watch_helpers.ts";

Deno.test("[PERF-6] checkStamps: nothing changed, a SKILL.md edited in place, a racy file, a folder changed", () => {
  const root = makeTree({ "dev/a/SKILL.md": skill("a", "A"), "dev/b/SKILL.md": skill("b", "B") });
  try {
    age(root);
    const files = [`${root}/dev/a/SKILL.md`, `${root}/dev/b/SKILL.md`];
    const dirs = new Map([`${root}/dev`, `${root}/dev/a`].map((d) => [d, stampOf(d)]));
    const set = { root, dirs, files, stamps: files.map((f) => stampOf(f)) };
    deepEqual(checkStamps(set), { dirChanged: false, files: [] });
    editAged(files[1], skill("b", "B, edited and longer"));
    deepEqual(checkStamps(set), { dirChanged: false, files: [[1, stampOf(files[1])]] });
    Deno.writeTextFileSync(files[0], skill("a", "A now")); // just written: its stamp proves nothing
    const racy = checkStamps(set).files;
    deepEqual(racy.map(([i]) => i), [0, 1]);
    ok(racy[0][1].startsWith("racy:"), racy[0][1]);
    Deno.mkdirSync(`${root}/dev/a/nested`);
    deepEqual(checkStamps(set), { dirChanged: true, files: [] });
  } finally {
    removeTrees(root);
  }
});

/** A cache over a small aged home whose watcher the test holds back, with `checker` (counted). */
function heldWithChecker(checker?: StampChecker) {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
  });
  age(home);
  const setup = new SkillRuntime({ home, host: testHost(home) }).setup;
  const root = setup.roots.find((r) => r.path.endsWith("/skills"))!;
  const ctx: ScanContext = {
    limits: { maxDepth: setup.config.max_depth, maxDirs: setup.config.max_dirs },
    realRoots: realRootsOf(setup),
  };
  const held: (() => void)[] = [];
  const opener = (paths: string[]) =>
    new Promise<FsWatch>((resolve) =>
      held.push(() => resolve(Deno.watchFs(paths, { recursive: true })))
    );
  const checks: string[] = [];
  const counted: StampChecker | undefined = checker && {
    check: (set) => {
      checks.push(set.root);
      return checker.check(set);
    },
    since: (...args) => checker.since(...args),
  };
  // Budget 0: without a checker every call would wait for the held watcher.
  const cache = WatchedCache.create([root.path], undefined, opener, 0, counted);
  const started = cache.start();
  const descriptions = () => cache.scan(root, ctx).records.map((r) => r.description).sort();
  const release = () => held.splice(0).forEach((open) => open());
  const dispose = async () => {
    release();
    cache.close();
    await started;
    removeTrees(home);
  };
  return { home, root, ctx, cache, checks, descriptions, release, dispose };
}

Deno.test("[PERF-6] with a checker, a root over the budget does not wait for its watcher: a helper thread checks its stamps, and the edit is read", async () => {
  const helper = ownWatchHelper()!;
  const f = heldWithChecker(helper);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // The helper is up before the call (its answer then takes milliseconds).
    deepEqual(await helper.check({ root: f.root.path, dirs: new Map(), files: [], stamps: [] }), {
      dirChanged: false,
      files: [],
    });
    deepEqual(f.descriptions(), ["A", "B"]); // the first scan, stamped, while the watcher opens
    editAged(`${f.home}/skills/dev/b/SKILL.md`, skill("b", "B edited, longer"));
    // Released only after half the longest wait: a call that waited for it would end after.
    const order: string[] = [];
    timer = setTimeout(() => order.push("released") && f.release(), OPEN_WAIT_MS / 2);
    await f.cache.settle(f.ctx);
    order.push("settled");
    deepEqual(order, ["settled"]);
    deepEqual(f.cache.status().map((s) => s.state), ["opening"]);
    deepEqual(f.checks, [f.root.path]);
    deepEqual(f.descriptions(), ["A", "B edited, longer"]);
    // The helper holds the stamps now: the next check sends none, and finds nothing new.
    await f.cache.settle(f.ctx);
    deepEqual(f.checks, [f.root.path, f.root.path]);
    deepEqual(f.descriptions(), ["A", "B edited, longer"]);
  } finally {
    clearTimeout(timer);
    helper.close();
    await f.dispose();
  }
});

Deno.test("[PERF-6] a checker that fails: the stamps are checked on this thread, and the edit is still read", async () => {
  const fail = () => Promise.reject(new Error("the helper did not answer"));
  const f = heldWithChecker({ check: fail, since: fail });
  try {
    deepEqual(f.descriptions(), ["A", "B"]);
    editAged(`${f.home}/skills/dev/a/SKILL.md`, skill("a", "A edited, longer"));
    await f.cache.settle(f.ctx);
    deepEqual(f.checks, [f.root.path]);
    deepEqual(f.descriptions(), ["A edited, longer", "B"]);
  } finally {
    await f.dispose();
  }
});

Deno.test("[PERF-6] a watcher that never reports a mark is closed after its first marks: the root falls back, and edits are seen", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  age(home);
  // A real watcher of the root alone: the sentinel's marks never reach it.
  const rt = new SkillRuntime({
    home,
    host: testHost(home),
    watch: true,
    watchOpener: (paths) => Promise.resolve(Deno.watchFs(paths[0], { recursive: true })),
  });
  const listed = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) => s.description);
  try {
    deepEqual(await listed(), ["A"]);
    const status = await rt.watchStatus(); // resolves once the watcher is proven or given up
    deepEqual(status.map((s) => [s.state, s.reason]), [[
      "fallback",
      "its watcher reported no change",
    ]]);
    editAged(`${home}/skills/dev/a/SKILL.md`, skill("a", "A edited, longer"));
    deepEqual(await listed(), ["A edited, longer"]);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

/** A watch helper reached through a port this test forwards, noting each message's kind. */
function forwardedHelper(kinds: string[]): { port: MessagePort; stop: () => void } {
  const helper = new Worker(new URL("../../src/scan/watch_helper.ts", import.meta.url), {
    type: "module",
  });
  const toHelper = new MessageChannel();
  helper.postMessage({ port: toHelper.port2 }, [toHelper.port2]);
  const outside = new MessageChannel();
  outside.port1.onmessage = (m) => {
    kinds.push(m.data.kind);
    toHelper.port1.postMessage(m.data);
  };
  toHelper.port1.onmessage = (m) => outside.port1.postMessage(m.data);
  const stop = () => {
    outside.port1.close();
    toHelper.port1.close();
    helper.terminate();
  };
  return { port: outside.port2, stop };
}

Deno.test("[PERF-6] a watching runtime asks for a second helper, and its calls while the watcher opens are checked there", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
  });
  age(home);
  const asked: { kinds: string[]; stop: () => void }[] = [];
  const rt = new SkillRuntime({
    home,
    host: testHost(home),
    watch: true,
    watchHelper: () => {
      const kinds: string[] = [];
      if (asked.length === 0) {
        const { port, stop } = forwardedHelper(kinds); // the checker: asked first
        asked.push({ kinds, stop });
        return port;
      }
      const held = new MessageChannel(); // the watchers' helper never answers: they stay opening
      held.port1.onmessage = (m) => kinds.push(m.data.kind);
      asked.push({ kinds, stop: () => held.port1.close() });
      return held.port2;
    },
  });
  const listed = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) => s.description);
  try {
    deepEqual(await listed(), ["A", "B"]);
    // Edited at once: whether the helper took the first scan's stamps before or after, the
    // edit shows (after: its time is later than the scan's start, so its stamp proves nothing).
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B edited, longer"));
    deepEqual(await listed(), ["A", "B edited, longer"]);
    equal(rt.scanCount, 1, "no walk: only the edited skill was read again");
    equal(asked.length, 2);
    deepEqual(
      asked[0].kinds,
      ["since", "stamps"],
      "the first scan's stamps taken there, then checked",
    );
    deepEqual(asked[1].kinds, ["open"]);
    deepEqual(rt.watchStatusNow().map((s) => s.state), ["opening"]);
  } finally {
    rt.close();
    asked.forEach((a) => a.stop());
    removeTrees(home);
  }
});
