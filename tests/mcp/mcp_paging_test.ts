/**
 * [IO-4] through the SDK's real client on a home of many skills: `prompts/list` and
 * `resources/list` in pages (opaque cursors, stable while skills come and go, a bad cursor
 * a -32602), completion of skill names (prefix, any case, 100 at most with `total` and
 * `hasMore`), and logging (`logging/setLevel` honoured, the home's diagnostics sent as
 * notifications at the level set). The pure parts (cursors, hint arguments) too.
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { LoggingMessageNotificationSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectStdio } from "./mcp_helpers.ts";
import { makeTree, skill } from "../helpers.ts";
import { decodeCursor, pageAfter } from "../../src/mcp/paging.ts";
import { argumentsText, promptArguments } from "../../src/mcp/prompt_arguments.ts";
import { splitArguments } from "../../src/preprocess/shell_words.ts";
import { RpcError } from "../../src/mcp/tools.ts";
import { homeMessages, MAX_MESSAGES, SessionLog } from "../../src/mcp/logging.ts";
import { splitFrontmatter } from "../../src/frontmatter/fence.ts";
import { buildRecord } from "../../src/scan/record.ts";
import { indexRecords } from "../../src/scan/skill_index.ts";

const N = 130;
const pad = (i: number) => String(i).padStart(3, "0");

/** 130 skills `gen-000`…, one `Gen-Upper`, and `review` whose hint takes a skill; pages of 40. */
function manySkills(): string {
  const files: Record<string, string> = {
    "config.yaml": "skills:\n  mcp_list_max_skills: 40\n",
    "skills/review/SKILL.md": skill("review", "Review.", 'argument-hint: "[skill] [--strict]"\n'),
    "skills/Gen-Upper/SKILL.md": skill("Gen-Upper", "Upper case."),
  };
  for (let i = 0; i < N; i++) files[`skills/gen-${pad(i)}/SKILL.md`] = skill(`gen-${pad(i)}`, "G.");
  return makeTree(files);
}

type Lister = (cursor?: string) => Promise<{ names: string[]; nextCursor?: string }>;

/** Every page of a list, with the number of pages. */
async function walk(list: Lister, between?: (page: number) => void) {
  const names: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(cursor);
    names.push(...page.names);
    cursor = page.nextCursor;
    pages++;
    between?.(pages);
  } while (cursor !== undefined);
  return { names, pages };
}

const prompts = (client: Client): Lister => async (cursor) => {
  const r = await client.listPrompts(cursor ? { cursor } : {});
  return { names: r.prompts.map((p: { name: string }) => p.name), nextCursor: r.nextCursor };
};
const resources = (client: Client): Lister => async (cursor) => {
  const r = await client.listResources(cursor ? { cursor } : {});
  return { names: r.resources.map((p: { name: string }) => p.name), nextCursor: r.nextCursor };
};

Deno.test("[IO-4] prompts/list and resources/list come in pages within the budget; the walk holds each skill once; a bad cursor is -32602", async () => {
  const home = manySkills();
  const client = await connectStdio(home);
  try {
    for (const list of [prompts(client), resources(client)]) {
      const first = await list();
      equal(first.names.length, 40);
      ok(first.nextCursor);
      const { names, pages } = await walk(list);
      equal(pages, 4); // 132 skills in pages of 40
      equal(names.length, N + 2);
      equal(new Set(names).size, names.length);
      deepEqual(names, [...names].sort());
    }
    for (const cursor of ["not a cursor!", btoa("someone-else:gen-001"), "Zm9v"]) {
      const refused = await client.listPrompts({ cursor }).then(
        () => undefined,
        (e: unknown) => e as McpError,
      );
      ok(refused instanceof McpError, cursor);
      equal(refused.code, -32602);
      match(refused.message, /Invalid cursor/);
    }
  } finally {
    await client.close();
  }
});

Deno.test("[IO-4] a page walk is stable while skills come and go: each skill there throughout is seen exactly once", async () => {
  const home = manySkills();
  const client = await connectStdio(home);
  try {
    const { names } = await walk(prompts(client), (page) => {
      if (page !== 1) return;
      // Before the cursor: two skills removed, one added; after it: one added, one removed.
      for (const gone of ["gen-005", "gen-006", "gen-090"]) {
        Deno.removeSync(`${home}/skills/${gone}`, { recursive: true });
      }
      makeTree({
        "skills/aaa-new/SKILL.md": skill("aaa-new", "New."),
        "skills/gen-100a/SKILL.md": skill("gen-100a", "New too."),
      }, home);
    });
    const throughout = ["Gen-Upper", ...Array.from({ length: N }, (_, i) => `gen-${pad(i)}`)]
      .filter((n) => !["gen-005", "gen-006", "gen-090"].includes(n)).concat("review");
    for (const name of throughout) equal(names.filter((n) => n === name).length, 1, name);
    equal(new Set(names).size, names.length);
    // The pages after the first saw the change (each call reads the skills as they are).
    ok(names.includes("gen-100a"));
    ok(!names.includes("gen-090"));
  } finally {
    await client.close();
  }
});

Deno.test("[IO-4] completion/complete: skill names by prefix in any case, at most 100 with total and hasMore; nothing for what names no skill", async () => {
  const client = await connectStdio(manySkills());
  try {
    const template = await client.complete({
      ref: { type: "ref/resource", uri: "skill://{name}" },
      argument: { name: "name", value: "GEN" },
    });
    equal(template.completion.values.length, 100);
    equal(template.completion.total, N + 1);
    equal(template.completion.hasMore, true);
    equal(template.completion.values[0], "Gen-Upper");
    const few = await client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "skill", value: "gen-12" },
    });
    deepEqual(few.completion, {
      values: Array.from({ length: 10 }, (_, i) => `gen-12${i}`),
      total: 10,
      hasMore: false,
    });
    for (
      const [ref, argument] of [
        [{ type: "ref/prompt", name: "review" }, "strict"], // not a skill's name
        [{ type: "ref/prompt", name: "no-such-prompt" }, "skill"],
        [{ type: "ref/resource", uri: "test://template/{id}" }, "name"],
      ] as const
    ) {
      const none = await client.complete({ ref, argument: { name: argument, value: "g" } });
      deepEqual(none.completion, { values: [], total: 0, hasMore: false });
    }
  } finally {
    await client.close();
  }
});

Deno.test("[IO-4] logging: setLevel is honoured and the home's diagnostics arrive as notifications at the level set, each once", async () => {
  const home = makeTree({
    "skills/fine/SKILL.md": skill("fine", "Fine."),
    "skills/unclosed/SKILL.md": "---\nname: unclosed\ndescription: never closed\n",
    "skills/colon/SKILL.md": "---\nname: colon\ndescription: Use it: when needed\n---\n\nBody.\n",
  });
  const client = await connectStdio(home);
  type Message = { level: string; logger?: string; data: { code?: string; message: string } };
  const got: Message[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n: { params: Message }) => void got.push(n.params),
  );
  try {
    await client.setLoggingLevel("error");
    await client.callTool({ name: "skills_list", arguments: {} });
    deepEqual(got.map((m) => [m.level, m.data.code]), [["error", "frontmatter.unclosed"]]);
    equal(got[0].logger, "skillrt.scan");
    match(got[0].data.message, /skills\/unclosed\/SKILL\.md:1: Frontmatter is not closed/);
    await client.setLoggingLevel("debug");
    await client.listPrompts();
    deepEqual(got.map((m) => [m.level, m.data.code]), [
      ["error", "frontmatter.unclosed"],
      ["warning", "frontmatter.yaml_repaired"], // now sent; the error is not sent twice
    ]);
    await client.callTool({ name: "skills_search", arguments: { query: "fine" } });
    equal(got.length, 2);
    const bad = await client.setLoggingLevel("loud" as "debug").then(
      () => undefined,
      (e: unknown) => e as McpError,
    );
    equal(bad?.code, -32602);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-4] cursors are opaque and this server's own; a page is never empty while entries remain", () => {
  const items = ["a", "b", "c", "d", "e"];
  const first = pageAfter(items, (x) => x, undefined, { skills: 2, chars: 1e9 });
  deepEqual(first.items, ["a", "b"]);
  // Not the key nor an offset as they are: a client has nothing to edit in it.
  ok(first.nextCursor !== "b" && !/^\d+$/.test(first.nextCursor!));
  equal(decodeCursor(first.nextCursor!), "b");
  deepEqual(pageAfter(items, (x) => x, first.nextCursor, { skills: 2, chars: 1e9 }).items, [
    "c",
    "d",
  ]);
  // Over the character budget a page still holds one entry.
  const big = pageAfter(items, (x) => x, undefined, { skills: 10, chars: 1 });
  deepEqual(big.items, ["a"]);
  const last = pageAfter(items, (x) => x, undefined, { skills: 10, chars: 1e9 });
  equal(last.nextCursor, undefined);
  for (const bad of ["", "%%%", "a".repeat(5000), btoa("skillrt.page.v0:b")]) {
    throws(() => decodeCursor(bad), (e: unknown) => e instanceof RpcError && e.code === -32602);
  }
});

Deno.test("[IO-3] hint arguments: named from [x], <x>, --flag; their values one word each, whatever they hold", () => {
  deepEqual(
    promptArguments("[issue-number] [--dry-run] <file> [--out DIR] [rest...]").map((a) => a.name),
    [
      "issue-number",
      "dry-run",
      "file",
      "out",
      "rest",
      "instruction",
    ],
  );
  deepEqual(promptArguments("add [id] | remove [id]").map((a) => a.name), [
    "arguments",
    "instruction",
  ]);
  deepEqual(promptArguments("[a] [a]").map((a) => a.name), ["arguments", "instruction"]);
  deepEqual(promptArguments(undefined).map((a) => a.name), ["instruction"]);
  // A downloaded skill's hint names plain arguments; a client's keys are only its own.
  deepEqual(promptArguments("[__proto__] [constructor] [Ünïcøde]").map((a) => a.name), [
    "proto",
    "constructor",
    "n_c_de",
    "instruction",
  ]);
  const given = JSON.parse('{"__proto__": "x", "constructor": "y"}');
  deepEqual(argumentsText("[__proto__] [constructor]", given), { text: "y" });
  deepEqual(argumentsText("[constructor]", {}), {}); // not Object's own constructor
  const hint = "<file> [--dry-run] [--out DIR] [rest...]";
  deepEqual(argumentsText(hint, { "dry-run": "true" }), { missing: "file" });
  deepEqual(argumentsText("[x]", {}), {});
  const text = argumentsText(hint, {
    file: "a b'c",
    "dry-run": "no",
    out: "$(rm -rf ~)",
    rest: "one two",
  });
  ok("text" in text);
  // Hostile values stay single words through the splitting $ARGUMENTS[N] uses.
  deepEqual(splitArguments(text.text!), ["a b'c", "--out", "$(rm -rf ~)", "one", "two"]);
  for (const value of ["x\ny", "back\\slash", "'", '"', "-"]) {
    const one = argumentsText("[v]", { v: value });
    deepEqual(splitArguments((one as { text: string }).text), [value], JSON.stringify(value));
  }
});

Deno.test("[IO-4] the session log: a watcher fallback is a warning; at most 50 messages at once, then one line counting the rest, none sent twice", () => {
  const records = Array.from({ length: 60 }, (_, i) =>
    buildRecord(
      {
        file: `/r/s${i}/SKILL.md`,
        dir: `/r/s${i}`,
        rel: `s${i}`,
        root: "/r",
        source: "local",
        fallbackName: `s${i}`,
      },
      splitFrontmatter(`---\nname: s${i}\n`), // never closed: an error each
    ));
  const index = indexRecords(records);
  const watch = [
    { root: "/r", state: "fallback" as const, reason: "no watcher here" },
    { root: "/w", state: "watched" as const },
  ];
  const fallback = homeMessages(index, watch).filter((m) => m.logger === "skillrt.watch");
  deepEqual(fallback.map((m) => [m.level, m.data.code, m.data.path]), [
    ["warning", "watch.fallback", "/r"],
  ]);
  match(fallback[0].data.message, /Root \/r is not watched \(no watcher here\)/);
  const log = new SessionLog();
  const first = log.due(index, watch);
  equal(first.length, MAX_MESSAGES + 1);
  deepEqual(first.at(-1)!.data, {
    message: "11 more diagnostics; run 'skillrt validate' to see them all.",
    code: "log.more",
  });
  deepEqual(log.due(index, watch), []); // the same index, the same level: nothing new
  log.setLevel("debug");
  deepEqual(log.due(indexRecords(records), watch), []); // all were counted as told
  log.setLevel("emergency");
  equal(log.sends("error"), false);
  equal(log.sends("emergency"), true);
});
