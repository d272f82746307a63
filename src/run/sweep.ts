/**
 * The sweep after a box ([RUN-2]): what the script planted in what it may write — a git
 * repository or an agent's folder, a file a repository's config points to (`kept_sh.ts`)
 * — is removed once the box is gone, however it ended: with the script, at the time limit
 * or the output cap, or because the script killed the box's prelude. Before the box a
 * first sweep lists every such thing there by device and inode; after it, a second one
 * removes each that was not there (a folder moved aside keeps its inode: the user's own
 * repository is never taken for a planted one), and reports other tools' settings the
 * script made (`NOTED_NAMES`). Each sweep runs in a box of its own that runs no code of
 * the skill, with only what the script could write bound, writable, and the capabilities
 * to look through and remove what the script made unreadable to its owner.
 *
 * @module
 */
import { type Grant, keptNames } from "./grant.ts";
import { systemArgs, writableRoots } from "./bwrap_args.ts";
import { CANDIDATES_SH, NOTED_NAMES } from "./kept_sh.ts";
import type { SystemEntry } from "./host_kinds.ts";
import { SANDBOX_PATH } from "./script_kind.ts";

/** What a sweep box needs of the machine. */
export interface SweepHost {
  /** The bwrap executable. */
  bwrap: string;
  /** The host's system folders. */
  system: readonly SystemEntry[];
  /** bash inside the box. */
  bash: string;
}

const SWEEP = `set -u
mode=$1; shift
while [ "$1" != -- ]; do rmdir -- "$1" 2>/dev/null; shift; done; shift
roots=() named=() noted=()
while [ "$1" != -- ]; do roots+=("$1"); shift; done; shift
while [ "$1" != -- ]; do named+=(-o -name "$1"); shift; done; shift
while [ $# -gt 0 ]; do noted+=(-o -name "$1"); shift; done
${CANDIDATES_SH}
if [ "$mode" = list ]; then candidates; exit 0; fi
declare -A before
while IFS= read -r -d '' rec; do id=\${rec#* }; before[\${id%%$'\\t'*}]=1; done
while IFS= read -r -d '' rec; do
  kind=\${rec%% *}; id=\${rec#* }; p=\${id#*$'\\t'}; id=\${id%%$'\\t'*}
  [ -z "\${before[$id]+x}" ] || continue
  [ -e "$p" ] || [ -L "$p" ] || continue
  if [ "$kind" = N ]; then
    printf 'skillrt: note: the script made %q, settings another tool may load or run: look at it before you use that tool here\\n' "$p"
    continue
  fi
  rm -rf -- "$p" 2>/dev/null
  if [ -e "$p" ] || [ -L "$p" ]; then
    printf 'skillrt: could not remove %q, which the script made: a git repository or an agent folder planted there would run commands in the tools that open it; remove it yourself\\n' "$p"
  else
    printf 'skillrt: removed %q (the script made it): a git repository or an agent folder planted there would run commands in the tools that open it\\n' "$p"
  fi
done < <(candidates)
`;

/**
 * The line of a sweep box over what `grant` lets the script write; `made`: the empty folders
 * bubblewrap made for absent kept paths, removed first when still there and empty (the box
 * removes them itself unless it was killed).
 */
export function sweepArgv(
  host: SweepHost,
  grant: Grant,
  mode: "list" | "clean",
  made: readonly string[] = [],
): string[] {
  const roots = writableRoots(grant);
  return [
    host.bwrap,
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--cap-add",
    "CAP_DAC_READ_SEARCH",
    "--cap-add",
    "CAP_DAC_OVERRIDE",
    ...systemArgs(host.system, false),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    ...roots.flatMap((r) => ["--bind-try", r, r]),
    "--chdir",
    "/",
    "--",
    host.bash,
    "-c",
    SWEEP,
    "skillrt-sweep",
    mode,
    ...made,
    "--",
    ...roots,
    "--",
    ...keptNames(),
    "--",
    ...NOTED_NAMES,
  ];
}

async function sweepBox(argv: string[], input: Uint8Array): Promise<Uint8Array> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    env: { PATH: SANDBOX_PATH },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(input).catch(() => {});
  await writer.close().catch(() => {});
  return (await child.output()).stdout;
}

/** Lists what is there before the box (records for {@linkcode sweepAfter}). */
export function sweepBefore(host: SweepHost, grant: Grant): Promise<Uint8Array> {
  return sweepBox(sweepArgv(host, grant, "list"), new Uint8Array());
}

/**
 * Removes what the script made after the box (`made`: the folders the box made, see
 * {@linkcode sweepArgv}); the lines saying so (for its stderr).
 */
export async function sweepAfter(
  host: SweepHost,
  grant: Grant,
  before: Uint8Array,
  made: readonly string[],
): Promise<string> {
  return new TextDecoder().decode(await sweepBox(sweepArgv(host, grant, "clean", made), before));
}
