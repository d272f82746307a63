/** [IO-1] The entries of a v0.2.0 discovery index, held to the RFC's fields and the source grammar. */
import { deepEqual } from "node:assert/strict";
import { parseIndex } from "../../src/hub/well_known_index.ts";
import { isPrivateHost, onIndexOrigin } from "../../src/hub/source_grammar.ts";
import { SCHEMA_V02 } from "./discovery_index.ts";

Deno.test("[IO-1] v0.2.0 entries are held to the RFC's fields and the source grammar: each bad one skipped with its reason, the rest kept", () => {
  const digest = `sha256:${"ab".repeat(32)}`;
  const good = { name: "good", type: "skill-md", description: "d", url: "good/SKILL.md", digest };
  const doc = parseIndex(
    JSON.stringify({
      $schema: SCHEMA_V02,
      version: "9.0.0", // not v0.2.0's field: ignored
      skills: [
        good,
        { ...good, name: "no-type", type: undefined },
        { ...good, name: "upper", digest: digest.toUpperCase().replace("SHA256", "sha256") },
        { ...good, name: "md5", digest: `md5:${"a".repeat(32)}` },
        { ...good, name: "no-url", url: "" },
        { ...good, name: "../climb" },
        { ...good, name: "Bad--Name" },
        { ...good, description: 7, name: "no-description" },
        { ...good, name: "twice" },
        { ...good, name: "twice", description: "again" },
        "not an entry",
      ],
    }),
    "u",
  );
  deepEqual(doc.skills, [{
    name: "good",
    description: "d",
    artifact: { type: "skill-md", url: "good/SKILL.md", digest },
    files: [],
  }]);
  deepEqual([doc.version, doc.problems], ["0.2.0", [
    "Skipped 'twice' of 'u': 2 entries name it, so none is kept.",
    "Skipped an entry of 'u': 'no-type' has no type.",
    "Skipped an entry of 'u': 'upper' has no valid digest.",
    "Skipped an entry of 'u': 'md5' has no valid digest.",
    "Skipped an entry of 'u': 'no-url' has no url.",
    `Skipped an entry of 'u': name "../climb" is not a valid skill name.`,
    `Skipped an entry of 'u': name "Bad--Name" is not a valid skill name.`,
    "Skipped an entry of 'u': 'no-description' has no description.",
    "Skipped an entry of 'u': an entry is not an object.",
  ]]);
});

Deno.test("[IO-1] where an index's URLs may lie: its files on its own origin; an artifact on another host by https (or the index's scheme), never this machine or a private network for an index on the internet", () => {
  const index = "https://site.example/.well-known/agent-skills/index.json";
  const at = (url: string, artifact: boolean, from = index) => {
    try {
      return onIndexOrigin(url, from, "kit", { artifact });
    } catch (error) {
      return (error as Error).message;
    }
  };
  deepEqual(
    [
      at("https://cdn.example/kit.tar.gz", true),
      at("kit.tar.gz", true),
      at("https://cdn.example/kit.tar.gz", false),
      at("http://cdn.example/kit.tar.gz", true),
      at("https://127.0.0.1/kit.tar.gz", true),
      at("https://[::1]/kit.tar.gz", true),
      at("https://169.254.169.254/latest/meta-data", true),
      at("https://0x7f000001/kit.tar.gz", true),
      at("https://localhost./kit.tar.gz", true),
      at("http://127.0.0.1:9/kit.tar.gz", true, "http://127.0.0.1:8/index.json"),
    ],
    [
      "https://cdn.example/kit.tar.gz",
      "https://site.example/.well-known/agent-skills/kit.tar.gz",
      "Refusing 'https://cdn.example/kit.tar.gz': it is not on the index's host 'site.example'.",
      "Refusing 'http://cdn.example/kit.tar.gz': it is not on the index's host 'site.example' (an artifact on another host must be fetched by https or the index's https:).",
      ...["127.0.0.1", "[::1]", "169.254.169.254", "127.0.0.1", "localhost."].map((host) =>
        `Refusing '${new URL(`https://${host}/`).href}${
          host === "169.254.169.254" ? "latest/meta-data" : "kit.tar.gz"
        }': it is not on the index's host 'site.example' (an index on the internet cannot send skillrt to this machine or a private network).`
      ),
      "http://127.0.0.1:9/kit.tar.gz",
    ],
  );
  deepEqual(
    [
      "10.0.0.1",
      "172.16.5.5",
      "172.32.0.1",
      "192.168.0.1",
      "100.64.0.1",
      "8.8.8.8",
      "[fd12::1]",
      "[fe80::1]",
      "[2001:db8::1]",
      "[::ffff:7f00:1]",
    ]
      .map(isPrivateHost),
    [true, true, false, true, true, false, true, true, false, true],
  );
});
