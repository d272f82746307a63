/**
 * `deno task install`: puts a `skillrt` command on PATH for the current user ([C-6]) —
 * `deno install -g` of `main.ts` with the warden's flags from
 * `src/warden/warden_flags.ts` (the same list as `deno task skillrt` and the compiled
 * binary), this project's config (so its imports resolve) and the Worker option. The
 * command then runs from any folder, and relative paths on its command line are the
 * user's. `deno task uninstall` removes it. `--root DIR` (or `DENO_INSTALL_ROOT`) picks
 * the install root, as for `deno install`.
 *
 * @module
 */
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

/** The `deno install` arguments for the `skillrt` command. */
export function installArgs(repo: string, root?: string): string[] {
  return [
    "install",
    "--global",
    "--force",
    "--name",
    "skillrt",
    ...(root ? ["--root", root] : []),
    "--config",
    `${repo}/deno.json`,
    "--quiet", // the installed command's first run: no download lines of Deno's in its output
    ...WARDEN_FLAGS,
    "--unstable-worker-options",
    `${repo}/main.ts`,
  ];
}

/**
 * What a successful install says: where the command is, and how to put its folder on
 * `PATH` when `path` (the user's `PATH`) lacks it. `root` is the install root (`--root`,
 * else `DENO_INSTALL_ROOT`, else `~/.deno`).
 */
export function installedNote(root: string, path: string): string {
  const bin = `${root.replace(/\/$/, "")}/bin`;
  const onPath = path.split(":").some((p) => p.replace(/\/$/, "") === bin);
  return `Installed ${bin}/skillrt.` +
    (onPath
      ? " Try: skillrt --help"
      : `\n${bin} is not on your PATH; add it: export PATH="${bin}:$PATH"`);
}

/** The `deno uninstall` arguments for the `skillrt` command. */
export function uninstallArgs(root?: string): string[] {
  return ["uninstall", "--global", ...(root ? ["--root", root] : []), "skillrt"];
}

if (import.meta.main) {
  const repo = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const rootAt = Deno.args.indexOf("--root");
  const root = rootAt >= 0 ? Deno.args[rootAt + 1] : undefined;
  const uninstall = Deno.args.includes("--uninstall");
  const result = await new Deno.Command(Deno.execPath(), {
    args: uninstall ? uninstallArgs(root) : installArgs(repo, root),
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(result.stderr);
  if (result.code !== 0 && uninstall && /No installation found/.test(said)) {
    console.error("skillrt is not installed here: nothing to uninstall.");
  } else if (result.code !== 0) {
    // Deno's own first line says what went wrong; its backtrace helps nobody here.
    console.error(said.split("\n").filter((l) => l && !/backtrace|^\s+\d+:/.test(l)).join("\n"));
  } else if (said) console.error(said.trimEnd());
  if (result.code === 0 && !uninstall) {
    const home = Deno.env.get("HOME") ?? "";
    const installRoot = root ?? Deno.env.get("DENO_INSTALL_ROOT") ?? `${home}/.deno`;
    console.log(installedNote(installRoot, Deno.env.get("PATH") ?? ""));
  }
  Deno.exit(result.code);
}
