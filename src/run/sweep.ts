/**
 * The sweep after a box ([RUN-2]): what the script planted in what it may write — a git
 * repository or an agent's folder, a file a repository's config points to (`kept_sh.ts`)
 * — is removed once the box is gone, however it ended: with the script, at the time limit
 * or the output cap, or because the script killed the box's prelude. Before the box a
 * first sweep lists every such thing there by device, inode and type, and what the user's
 * repositories point to; after it, a second one removes each kept thing that was not
 * there as a kept thing (a folder moved aside keeps its inode: the user's own repository
 * is never taken for a planted one; a noted folder renamed `.git` is), following only the
 * pointed paths the first listed (a planted config is never read), and reports other
 * tools' settings the script made (`NOTED_NAMES`). A sweep that takes longer than
 * {@linkcode SWEEP_SECONDS} is stopped, saying so. Each sweep runs in a box of its own that runs no code of
 * the skill, with only what the script could write bound, writable, and the capabilities
 * to look through and remove what the script made unreadable to its owner.
 *
 * @module
 */
import { type Grant, keptNames } from "./grant.ts";
import { systemArgs, writableRoots } from "./bwrap_args.ts";
import { CANDIDATES_SH, HOOK_FOLDERS, NOTED_NAMES } from "./kept_sh.ts";
import type { SystemEntry } from "./host_kinds.ts";
import { SANDBOX_PATH } from "./script_kind.ts";
import { identity } from "./prepare.ts";

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
made=() roots=() ids=() named=() noted=()
while [ "$1" != -- ]; do made+=("$1"); shift; done; shift
while [ "$1" != -- ]; do roots+=("$1"); shift; done; shift
while [ "$1" != -- ]; do ids+=("$1"); shift; done; shift
while [ "$1" != -- ]; do named+=(-o -name "$1"); shift; done; shift
while [ $# -gt 0 ]; do noted+=(-o -name "$1"); shift; done
for i in "\${!roots[@]}"; do
  [ "\${ids[$i]}" = - ] || [ "$(stat -c %d:%i -- "\${roots[$i]}" 2>/dev/null)" = "\${ids[$i]}" ] || {
    printf 'skillrt: the sweep did not look at %q: it is not the folder that was checked (a link was swapped in?)\\n' "\${roots[$i]}"
    exit 3
  }
done
for p in "\${made[@]}"; do rmdir -- "$p" 2>/dev/null; done
# Whether the folder holding p is itself, with no link on the way (else nothing is removed there).
direct() { local d=\${1%/*}; [ "$(realpath -e -- "$d" 2>/dev/null)" = "$d" ]; }
${CANDIDATES_SH}
if [ "$mode" = list ]; then candidates; exit 0; fi
declare -A was_kept was_noted
pointed_paths=()
while IFS= read -r -d '' rec; do
  kind=\${rec%% *}; id=\${rec#* }; p=\${id#*$'\\t'}; id=\${id%%$'\\t'*}
  case $kind in K) was_kept[$id]=1 ;; N) was_noted[$id]=1 ;; P) pointed_paths+=("$p") ;; esac
done
now() { scan; for p in "\${pointed_paths[@]}"; do direct "$p" && under "$p"; done; }
while IFS= read -r -d '' rec; do
  kind=\${rec%% *}; id=\${rec#* }; p=\${id#*$'\\t'}; id=\${id%%$'\\t'*}
  [ -e "$p" ] || [ -L "$p" ] || continue
  if [ "$kind" = N ]; then
    [ -z "\${was_noted[$id]+x}" ] || continue
    printf 'skillrt: note: the script made or changed %q, settings another tool may load or run: look at it before you use that tool here\\n' "$p"
    continue
  fi
  [ -z "\${was_kept[$id]+x}" ] || continue
  direct "$p" || {
    printf 'skillrt: did not remove %q, which the script made: a link lies on the way to it; remove it yourself\\n' "$p"
    continue
  }
  rm -rf -- "$p" 2>/dev/null
  if [ -e "$p" ] || [ -L "$p" ]; then
    printf 'skillrt: could not remove %q, which the script made: a git repository or an agent folder planted there would run commands in the tools that open it; remove it yourself\\n' "$p"
  else
    printf 'skillrt: removed %q (the script made it): a git repository or an agent folder planted there would run commands in the tools that open it\\n' "$p"
  fi
done < <(now)
exit 0
`;

/**
 * The line of a sweep box over what `grant` lets the script write; `made`: the empty folders
 * bubblewrap made for absent kept paths, removed first when still there and empty (the box
 * removes them itself unless it was killed).
 */
export function sweepArgv(
  host: SweepHost,
  grant: Grant,
  ids: readonly string[],
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
    ...ids,
    "--",
    ...keptNames(),
    ...HOOK_FOLDERS,
    "--",
    ...NOTED_NAMES,
  ];
}

/**
 * The identity (`device:inode`) of each place the script may write, taken without following
 * a link, `-` for one not there: each sweep box checks the folder bound at each path is it,
 * or looks at nothing (another user may swap one for a link while the script runs); the
 * work dir must still be `workDirId`, the one checked before the question.
 */
export function rootIds(grant: Grant, workDirId: string): string[] | string {
  const ids: string[] = [];
  for (const root of writableRoots(grant)) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(root);
    } catch {
      ids.push("-");
      continue;
    }
    const id = identity(info);
    if (info.isSymlink || (root === grant.workDir && id !== workDirId)) {
      return `'${root}' is not the folder that was checked (a link was swapped in?)`;
    }
    ids.push(id);
  }
  return ids;
}

/** The longest a sweep may take (it holds the work dir's turn): two minutes. */
export const SWEEP_SECONDS = 120;

/** The line that ends a sweep stopped at {@linkcode SWEEP_SECONDS}. */
export const SWEEP_STOPPED =
  `skillrt: the sweep after the script did not finish (it may take ${SWEEP_SECONDS}s at most); what it planted may remain\n`;

/** The line of a run whose first sweep did not finish: nothing is removed after it. */
export const SWEEP_UNLISTED =
  "skillrt: the sweep before the script did not finish, so nothing it plants is removed after it; look at the work dir's .git and agents' folders\n";

/** What a sweep box printed, and whether it ran to its end. */
interface Swept {
  out: Uint8Array;
  complete: boolean;
}

async function sweepBox(argv: string[], input: Uint8Array): Promise<Swept> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
    clearEnv: true,
    env: { PATH: SANDBOX_PATH },
  }).spawn();
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    child.kill("SIGKILL"); // bwrap --die-with-parent: the box goes with it
  }, SWEEP_SECONDS * 1000);
  const writer = child.stdin.getWriter();
  await writer.write(input).catch(() => {});
  await writer.close().catch(() => {});
  const { stdout, success } = await child.output();
  clearTimeout(timer);
  return { out: stdout, complete: success && !stopped };
}

/**
 * Lists what is there before the box: the records for {@linkcode sweepAfter} (bytes, as
 * the names are), or undefined when the list is not whole — then nothing is removed after.
 */
export async function sweepBefore(
  host: SweepHost,
  grant: Grant,
  ids: readonly string[],
): Promise<Uint8Array | undefined> {
  const listed = await sweepBox(sweepArgv(host, grant, ids, "list"), new Uint8Array());
  return listed.complete ? listed.out : undefined;
}

/**
 * Removes what the script made after the box (`made`: the folders the box made, see
 * {@linkcode sweepArgv}); the lines saying so (for its stderr).
 */
export async function sweepAfter(
  host: SweepHost,
  grant: Grant,
  ids: readonly string[],
  before: Uint8Array,
  made: readonly string[],
): Promise<string> {
  const swept = await sweepBox(sweepArgv(host, grant, ids, "clean", made), before);
  const lines = new TextDecoder().decode(swept.out);
  return swept.complete ? lines : lines + SWEEP_STOPPED;
}
