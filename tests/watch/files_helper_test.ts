/**
 * [PERF-5][V-2] A long-lived runtime reads a skill's first view of its folder (file
 * listing, linked files' summaries) on the watch helper's thread. Between the runtime and
 * the real helper Worker sits a proxy that counts those reads, or answers them with an
 * error, or drops them: the view is the same in every case (read here when the helper
 * fails), and each edit is seen at the very next call.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { HELPER_READ_MS, HelperWatches, type ToWatchHelper } from "../../src/scan/watch_source.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";

type Mode = "forward" | "error" | "drop";

/** A real watch helper Worker behind a proxy port that handles its `files` reads as `mode` says. */
function proxiedHelper(mode: Mode) {
  const worker = new Worker(new URL("../../src/scan/watch_helper.ts", import.meta.url), {
    type: "module",
  });
  const toHelper = new MessageChannel();
  worker.postMessage({ port: toHelper.port2 }, [toHelper.port2]);
  const toRuntime = new MessageChannel();
  const seen = { files: 0 };
  toRuntime.port2.onmessage = (event: MessageEvent<ToWatchHelper>) => {
    const message = event.data;
    if (message.kind === "files") {
      seen.files++;
      if (mode === "drop") return;
      if (mode === "error") {
        return toRuntime.port2.postMessage({ kind: "answer", id: message.id, error: "no" });
      }
    }
    toHelper.port1.postMessage(message);
  };
  toHelper.port1.onmessage = (event) => toRuntime.port2.postMessage(event.data);
  const stop = () => {
    toHelper.port1.close();
    toRuntime.port2.close();
    worker.terminate();
  };
  return { port: () => toRuntime.port1, seen, stop };
}

const summaries = (view: { fileSummaries: { path: string; title: string | null }[] }) =>
  view.fileSummaries.map((s) => `${s.path}: ${s.title}`);

async function viewsThrough(mode: Mode): Promise<void> {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/a/references/one.md": "# One\n\nThe first reference.\n",
    "skills/dev/a/scripts/run.sh": "#!/bin/sh\n# Run\n",
  });
  const helper = proxiedHelper(mode);
  const rt = new SkillRuntime({
    home,
    host: testHost(home),
    watch: true,
    watchHelper: helper.port,
  });
  const view = async () => await rt.view("dev/a", { catalog: await rt.currentCatalog() });
  try {
    await rt.currentCatalog(); // the first answer; the watchers open after it
    deepEqual((await rt.watchStatus()).filter((s) => s.state !== "watched"), []);
    const first = await view();
    deepEqual(first.linkedFiles?.references, ["references/one.md"]);
    deepEqual(summaries(first), ["references/one.md: One", "scripts/run.sh: Run"]);
    Deno.writeTextFileSync(`${home}/skills/dev/a/references/two.md`, "# Two\n");
    const seen = await view();
    deepEqual(seen.linkedFiles?.references, ["references/one.md", "references/two.md"]);
    deepEqual(summaries(seen), [
      "references/one.md: One",
      "references/two.md: Two",
      "scripts/run.sh: Run",
    ]);
    // Asked of the helper once per catalog (the edit made a new one), and remembered.
    equal(helper.seen.files, 2);
    await view();
    equal(helper.seen.files, 2);
  } finally {
    await rt.close();
    helper.stop();
    removeTrees(home);
  }
}

Deno.test("[PERF-5][V-2] a watching runtime reads a skill's files on the watch helper's thread", async () => {
  await viewsThrough("forward");
});

Deno.test("[PERF-5][V-2] a helper that answers a read with an error: the files are read here, the view is the same", async () => {
  await viewsThrough("error");
});

Deno.test({
  name:
    `[PERF-5][V-2] a helper that never answers a read: after ${HELPER_READ_MS} ms the files are read here`,
  fn: async () => await viewsThrough("drop"),
});

Deno.test("[PERF-5] a read asked of a helper that closes fails, and one the helper answers with an error fails with it", async () => {
  const channel = new MessageChannel();
  const helper = new HelperWatches(channel.port1);
  channel.port2.onmessage = (event: MessageEvent<ToWatchHelper>) => {
    const m = event.data;
    if (m.kind === "files" && m.dir === "/answer") {
      channel.port2.postMessage({ kind: "answer", id: m.id, error: "unreadable" });
    }
  };
  await rejects(() => helper.files("/answer", null), /^Error: unreadable$/);
  const pending = helper.files("/never", null);
  helper.close();
  await rejects(() => pending, /^Error: closed$/);
  channel.port2.close();
});

Deno.test("[PERF-6] while a watcher is being opened, a read is not queued behind it: it fails at once, unasked, and is read here", async () => {
  const channel = new MessageChannel();
  const helper = new HelperWatches(channel.port1);
  const asked: ToWatchHelper["kind"][] = [];
  let opened = () => {};
  const answered = new Promise<void>((resolve) => (opened = resolve));
  channel.port2.onmessage = (event: MessageEvent<ToWatchHelper>) => {
    const m = event.data;
    asked.push(m.kind);
    if (m.kind === "files") channel.port2.postMessage({ kind: "answer", id: m.id, value: "read" });
    if (m.kind === "open") {
      answered.then(() => channel.port2.postMessage({ kind: "ready", id: m.id }));
    }
  };
  const watch = helper.open(["/root"]);
  await rejects(() => helper.files("/dir", null), /^Error: the helper is opening watchers$/);
  opened();
  (await watch).close();
  equal(await helper.files("/dir", null), "read");
  deepEqual(asked, ["open", "close", "files"]);
  helper.close();
  channel.port2.close();
});
