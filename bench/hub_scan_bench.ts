/**
 * The guard scanner over a 5 MB skill (issue 12: `hub scan` of a 5 MB skill under a
 * second): a SKILL.md, twelve reference documents (prose, tables, fenced shell, a little
 * non-ASCII text and emoji) and eight scripts, about 5 MiB in all, scanned in memory the
 * way `hub scan` scans the files it reads. `deno task bench` runs it; nothing is asserted.
 */
import { scanEntries, type ScanEntry } from "../src/scanner/scanner.ts";

const PROSE = [
  "## Deploying the service\n\nThis section explains how the release pipeline builds, tests and ships the",
  "service. Each stage runs in a clean container; caches are keyed by the lock file so a change to the",
  "dependencies rebuilds them. Der Build läuft in etwa drei Minuten — 構建大約需要三分鐘. 🚀\n",
  "| Stage | Command | Notes |\n| --- | --- | --- |\n| build | `make build` | produces dist/ |",
  "| test | `make test` | runs unit and integration tests |\n| ship | `make release` | tags and pushes |\n",
  '```bash\nset -euo pipefail\nexport PATH="$HOME/.local/bin:$PATH"\nmake build && make test\n',
  'docker run --rm --user $(id -u):$(id -g) -v "$(pwd)":/work builder make\n```\n',
  "When a step fails, read the log from the bottom up: the first error is usually the real one, and",
  "later errors follow from it. Retry only after you understand why it failed.\n\n",
].join("\n");

const SCRIPT = [
  "#!/usr/bin/env python3",
  '"""Collects build metadata and writes a summary."""',
  "import json, os, subprocess, sys",
  "",
  "def summary(path: str) -> dict:",
  '    with open(path, encoding="utf-8") as f:',
  "        data = json.load(f)",
  '    return {"name": data.get("name"), "files": len(data.get("files", []))}',
  "",
  'if __name__ == "__main__":',
  '    out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True)',
  '    print(json.dumps({"commit": out.stdout.strip(), **summary(sys.argv[1])}))',
  "",
].join("\n");

const TOTAL = 5 * 1024 * 1024;
const encoder = new TextEncoder();

function entry(path: string, unit: string, bytes: number): ScanEntry {
  const data = encoder.encode(unit.repeat(Math.max(1, Math.floor(bytes / unit.length))));
  return { path, size: data.length, mode: 0o644, data };
}

const skillMd = "---\nname: release-pipeline\ndescription: Builds and ships the service.\n---\n\n" +
  PROSE.repeat(8);
const entries: ScanEntry[] = [entry("SKILL.md", skillMd, skillMd.length)];
const perReference = Math.floor((TOTAL * 0.8) / 12);
const perScript = Math.floor((TOTAL * 0.2) / 8);
for (let i = 0; i < 12; i++) entries.push(entry(`references/part-${i}.md`, PROSE, perReference));
for (let i = 0; i < 8; i++) entries.push(entry(`scripts/tool_${i}.py`, SCRIPT, perScript));
const bytes = entries.reduce((n, e) => n + e.size, 0);

Deno.bench(
  `hub scan: a ${(bytes / 1024 / 1024).toFixed(1)} MiB skill (${entries.length} files)`,
  () => {
    scanEntries(entries);
  },
);
