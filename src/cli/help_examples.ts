/**
 * The examples each command's help ends with ([C-8]): two or three lines a person can
 * copy, each a real command line of the installed `skillrt`.
 *
 * @module
 */

/** Examples by command name. */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  list: ["skillrt list", "skillrt list --category devops --json", "skillrt list --categories"],
  search: ["skillrt search docker", "skillrt search release notes --json"],
  view: [
    "skillrt view docker-basics",
    "skillrt view devops/docker-basics references/layers.md",
    "skillrt view acme:deploy --json",
  ],
  invoke: [
    "skillrt invoke release-notes draft notes for v2",
    "skillrt invoke fix-issue --args 123",
  ],
  prompt: ["skillrt prompt", "skillrt prompt --format markdown --budget-chars 4000"],
  validate: ["skillrt validate", "skillrt validate ./my-skill --profile agentskills"],
  doctor: ["skillrt doctor", "skillrt --home ~/.hermes doctor --json"],
  sandbox: [
    "skillrt sandbox view",
    "skillrt sandbox create my-skill --category devops",
    "skillrt sandbox view --try-read /etc/passwd",
  ],
  create: [
    "skillrt create my-skill --file ./SKILL.md",
    "cat SKILL.md | skillrt create my-skill --category devops",
  ],
  edit: ["skillrt edit my-skill --file ./SKILL.md"],
  patch: [
    'skillrt patch my-skill --old "## Steps" --new "## Checklist"',
    "skillrt patch my-skill --file-path references/api.md --old v1 --new v2 --replace-all",
  ],
  delete: ["skillrt delete my-skill", "skillrt delete old-skill --absorbed-into new-skill"],
  "write-file": ["skillrt write-file my-skill references/api.md --file ./api.md"],
  "remove-file": ["skillrt remove-file my-skill references/api.md"],
  pending: ["skillrt pending", "skillrt pending diff 0b759318", "skillrt pending approve all"],
  curator: [
    "skillrt curator status",
    "skillrt curator run --dry-run",
    "skillrt curator pin my-skill",
  ],
  bundle: [
    "skillrt bundle show release-day",
    "skillrt bundle create release-day --skills changelog,release-notes",
    'skillrt bundle edit release-day --instruction "Start with the changelog."',
    "skillrt bundle delete release-day",
  ],
  init: [
    "skillrt init my-skill",
    'skillrt init deploy-check --category devops --description "Check a deploy before it ships."',
  ],
  enable: ["skillrt enable docker-basics", "skillrt enable docker-basics --platform telegram"],
  disable: ["skillrt disable docker-basics", "skillrt disable docker-basics --platform telegram"],
  setup: ["skillrt setup github-issues"],
  graph: ["skillrt graph", "skillrt graph --format dot > skills.dot"],
  hub: [
    "skillrt hub scan ./downloaded-skill",
    "skillrt hub install ./my-skill",
    "skillrt hub audit --verify",
    "skillrt hub keygen --out team.key",
    "skillrt hub publish ./team-skills --out ./site --sign team.key",
  ],
  sync: ["skillrt sync --from /opt/agent/skills"],
  mcp: [
    "skillrt mcp",
    "skillrt mcp --allow-writes",
    "skillrt mcp --http --port 8765",
    "skillrt mcp --http --host 10.0.0.5 --token-file /etc/skillrt/token",
  ],
  completions: [
    'eval "$(skillrt completions bash)"',
    "skillrt completions fish > ~/.config/fish/completions/skillrt.fish",
  ],
};

/** The help text that follows a command's options. */
export function examplesText(command: string): string {
  const lines = HELP_EXAMPLES[command] ?? [];
  return lines.length ? `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}\n` : "";
}
