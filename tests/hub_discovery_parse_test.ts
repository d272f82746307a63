/** [IO-1] The entries of a v0.2.0 discovery index, held to the RFC's fields and the source grammar. */
import { deepEqual } from "node:assert/strict";
import { parseIndex } from "../src/hub/well_known_index.ts";
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
