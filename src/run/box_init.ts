/**
 * What runs first inside the bubblewrap box, before the script ([RUN-2]): a fixed bash
 * prelude that closes every descriptor but stdin, stdout and stderr (the caller's open
 * files never reach the script), sets the box's limits ({@linkcode BOX_LIMITS}: processes,
 * data memory, file size, open files; the processes also as the box's own `pid_max`, which
 * binds root too where the kernel namespaces it; then, for root, `/proc/sys` is made
 * read-only, or the box's root could raise it again — any other user stays bound by the
 * `ulimit`, which no script can raise), checks that what bubblewrap bound is what
 * was checked (each bound path is itself — not reached through a link swapped in after the
 * check — and each kept-read-only path is a read-only mount; the work dir is the folder
 * checked, by device and inode), refuses when a unix socket
 * lies in a bound path or the work dir (a read-only bind does not stop `connect()`: the
 * program listening outside would do the script's bidding), binds read-only every git
 * repository and agent folder below the top of what the script may write (`kept_sh.ts`: a
 * nested `.git`, a `.git` file, a bare repository, a `.claude`, what a repository's config
 * points to…), then starts the script with every capability dropped (util-linux
 * `setpriv`; the prelude keeps its own, which the script cannot trace). When the script
 * ends, the prelude kills what it left and removes the empty folders bubblewrap made to
 * keep absent ones read-only; its exit code is the script's. What the script made of
 * those is removed after the box, however it ended, by the sweep (`sweep.ts`). A failed check refuses with one line, exit {@linkcode BOX_REFUSED}. Pure: the
 * programs' paths are handed in.
 *
 * @module
 */
import { CANDIDATES_SH, HOOK_FOLDERS, NOTED_NAMES } from "./kept_sh.ts";

/** The box's limits: the prelude's `ulimit`s (hard and soft), and the sizes of its memory-backed folders. */
export const BOX_LIMITS = {
  /** Processes (`ulimit -u`, and the box's `pid_max` one above it). */
  processes: 512,
  /** Data memory in KiB (`ulimit -d`: 1 GiB; an address-space limit would stop Deno's V8). */
  dataKib: 1024 * 1024,
  /** File size in 1024-byte blocks (`ulimit -f`: 1 GiB). */
  fileBlocks: 1024 * 1024,
  /** Open files (`ulimit -n`). */
  openFiles: 1024,
  /** The box's private `/tmp`, in bytes (a tmpfs lives in memory: 1 GiB). */
  tmpBytes: 1024 * 1024 * 1024,
  /** Its `/dev/shm`, in bytes (64 MiB; the rest of `/dev` is read-only). */
  shmBytes: 64 * 1024 * 1024,
} as const;

/** The exit code when the box refuses to start the script. */
export const BOX_REFUSED = 126;

/** The programs the prelude needs inside the box. */
export interface BoxPrograms {
  /** bash (it closes descriptors above 9, which dash cannot). */
  bash: string;
  /** util-linux `setpriv`. */
  setpriv: string;
}

/** What the prelude checks. */
export interface BoxChecks {
  /** The work dir's `device:inode` when it was checked: the folder bound there must be it. */
  workDirId: string;
  /** Paths bound as themselves whose mounts tell where each filesystem is on the host. */
  anchors: readonly string[];
  /** Paths bound after a check: each must be bound as itself, or not be there at all. */
  bound: readonly string[];
  /** Paths that must be read-only mounts. */
  readOnly: readonly string[];
  /** Of those, the empty folders bubblewrap made for them: removed after the script. */
  made: readonly string[];
  /** What the script may write (the work dir, or the declared paths in it). */
  writable: readonly string[];
  /** Names kept read-only at any depth of `writable` (`keptNames`; see `kept_sh.ts`). */
  keptNames: readonly string[];
}

const PRELUDE = `set -u
for fd in /proc/self/fd/*; do
  n=\${fd##*/}
  case $n in 0|1|2) ;; *) { eval "exec $n<&-"; } 2>/dev/null ;; esac
done
unmade() { for p in "\${made[@]}"; do umount "$p" 2>/dev/null && rmdir "$p" 2>/dev/null; done; }
die() { printf 'skillrt: the box refused to start the script: %s\\n' "$1" >&2; unmade; exit 126; }
nosocket() {
  local s
  s=$(find "$1" -xdev -type s -print -quit 2>/dev/null) || die "'$1' could not be looked through for sockets"
  [ -z "$s" ] || die "'$s' is a socket a script could connect to (a program outside the box listens there)"
}
{ echo "$(($1 + 1))" > /proc/sys/kernel/pid_max; } 2>/dev/null
mount -o bind,ro /proc/sys /proc/sys 2>/dev/null || [ "$EUID" != 0 ] ||
  die "/proc/sys could not be made read-only"
ulimit -u "$1" -d "$2" -f "$3" -n "$4" || die "its limits could not be set"
setpriv=$5 workid=$6 made=()
shift 6
while [ "$1" != -- ]; do made+=("$1"); shift; done
shift
[ "$(stat -c %d:%i .)" = "$workid" ] ||
  die "the work dir is not the folder that was checked (a link was swapped in?)"
declare -A dev root opts
while read -r _ _ d r m o _; do
  printf -v m '%b' "$m"; printf -v r '%b' "$r"
  dev[$m]=$d; root[$m]=$r; opts[$m]=$o
done < /proc/self/mountinfo
bdev=() bm=() bpre=()
while [ "$1" != -- ]; do
  a=$1; shift
  [ -n "\${dev[$a]+x}" ] || continue
  rel=\${root[$a]}; [ "$rel" = / ] && rel=
  if [ "\${a%"$rel"}$rel" = "$a" ]; then bdev+=("\${dev[$a]}"); bm+=("\${a%"$rel"}"); bpre+=("")
  elif [ "\${rel%"$a"}$a" = "$rel" ]; then bdev+=("\${dev[$a]}"); bm+=(""); bpre+=("\${rel%"$a"}"); fi
done
shift
while [ "$1" != -- ]; do
  p=$1; shift
  if [ -n "\${dev[$p]+x}" ]; then
    rel=\${root[$p]}; [ "$rel" = / ] && rel=; ok=
    for i in "\${!bdev[@]}"; do
      [ "\${bdev[$i]}" = "\${dev[$p]}" ] || continue
      pre=\${bpre[$i]}
      case $rel in "$pre"|"$pre"/*) [ "\${bm[$i]}\${rel#"$pre"}" = "$p" ] && ok=1 ;; esac
    done
    [ -n "$ok" ] || die "'$p' is not what was checked when bubblewrap bound it (a link was swapped in?)"
    nosocket "$p"
  elif [ -e "$p" ] || [ -L "$p" ]; then
    die "'$p' was not bound as itself (a link was swapped in?)"
  fi
done
shift
declare -A held
while [ "$1" != -- ]; do
  p=$1; shift; held[$p]=1
  [ -n "\${opts[$p]+x}" ] && case ",\${opts[$p]}," in *,ro,*) true ;; *) false ;; esac ||
    die "'$p' is not kept read-only"
done
shift
nosocket "$PWD"
roots=() named=() noted=()
while [ "$1" != -- ]; do roots+=("$1"); shift; done
shift
while [ "$1" != -- ]; do named+=(-o -name "$1"); shift; done
shift
while [ "$1" != -- ]; do noted+=(-o -name "$1"); shift; done
shift
${CANDIDATES_SH}
while IFS= read -r -d '' rec; do
  [ "\${rec%% *}" = K ] || continue
  p=\${rec#*$'\t'}; d=$p
  case \${p##*/} in HEAD|commondir) d=\${p%/*} ;; esac
  [ -z "\${held[$d]+x}" ] || continue
  for r in "\${roots[@]}"; do [ "$d" = "$r" ] && d=$p; done
  mount -o bind,ro "$d" "$d" 2>/dev/null || die "'$d' could not be kept read-only"
done < <(candidates)
"$setpriv" --bounding-set=-all --inh-caps=-all --ambient-caps=-all -- "$@"
rc=$?
kill -KILL -1 2>/dev/null
unmade
exit "$rc"
`;

/**
 * The prelude's line before the script's own command: `bash -c PRELUDE` with the limits,
 * setpriv's path and the checks (each list ended by `--`), all as arguments.
 */
export function boxInitArgv(programs: BoxPrograms, checks: BoxChecks): string[] {
  const l = BOX_LIMITS;
  return [
    programs.bash,
    "-c",
    PRELUDE,
    "skillrt-box",
    String(l.processes),
    String(l.dataKib),
    String(l.fileBlocks),
    String(l.openFiles),
    programs.setpriv,
    checks.workDirId,
    ...checks.made,
    "--",
    ...checks.anchors,
    "--",
    ...checks.bound,
    "--",
    ...checks.readOnly,
    "--",
    ...checks.writable,
    "--",
    ...checks.keptNames,
    ...HOOK_FOLDERS,
    "--",
    ...NOTED_NAMES,
    "--",
  ];
}
