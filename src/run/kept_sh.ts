/**
 * What a script may not leave behind in what it writes ([RUN-2]), found by bash functions
 * that the box's prelude (`box_init.ts`: binds those there read-only before the script) and
 * the sweeps around it (`sweep.ts`: list them before, remove the ones the script made
 * after) run. Git and the agents run what these hold on their own — a shell prompt or an
 * IDE runs `git status`, which runs a repository's `core.fsmonitor` — so a script that
 * could plant one would run its code outside the box, later, with the user's rights.
 *
 * `scan` prints one record per thing found below the `roots` array, NUL-ended:
 * `KIND DEVICE:INODE:TYPE[:TARGET-MD5]<TAB>PATH` (a link's target too: a link made anew may
 * reuse the inode of the one it replaced), where KIND is `K` for an entry with a kept name
 * (`named`: `.git`, file or folder; an agent's folder; a hooks folder) or a bare
 * repository's `HEAD` or `commondir` (beside `refs` or a `commondir`: git takes the folder
 * for a repository), and `N` for an entry with a noted name (`noted`: other tools'
 * settings), reported and kept. `pointers` reads those records and prints what the
 * repositories among them point to inside the roots — `core.hooksPath`, `[include]` and
 * `[includeIf]` paths, through a `.git` file's `gitdir` and its `commondir` — resolved by
 * their folder (a link there is itself the thing). `candidates` prints the scan, then a
 * `P -<TAB>PATH` record for each pointed path with `K` records of what is there (`under`).
 * Only the user's repositories are ever followed: the prelude and the first sweep run
 * before the script; the last sweep follows the pointed paths the first one listed.
 * The arrays `roots`, `named` and `noted` (`-o -name X` pairs) are the caller's. Pure text.
 *
 * @module
 */

/** Names of other tools' settings a script may have reason to write: reported when it made them, not removed. */
export const NOTED_NAMES: readonly string[] = [
  ".mcp.json",
  "CLAUDE.md",
  "AGENTS.md",
  "GEMINI.md",
  ".cursor",
  ".gemini",
  ".vscode",
  ".idea",
  ".envrc",
  ".hg",
  ".jj",
  ".svn",
];

/** Folders of hooks git runs when a repository's config names them (husky's): kept like `.git`. */
export const HOOK_FOLDERS: readonly string[] = [".husky"];

/** The bash functions of the module doc: `scan`, `under`, `pointers`, `candidates` and their helpers. */
export const CANDIDATES_SH = `pointed() {
  local cfg=$1/config top=$2 sect= line k v
  [ -f "$cfg" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    line=\${line#"\${line%%[![:space:]]*}"}
    case $line in \\[*) sect=\${line,,}; continue ;; esac
    k=\${line%%=*}; k=\${k%"\${k##*[![:space:]]}"}; k=\${k,,}
    v=\${line#*=}; v=\${v#"\${v%%[![:space:]]*}"}; v=\${v%"\${v##*[![:space:]]}"}; v=\${v%\\"}; v=\${v#\\"}
    case "$sect:$k" in '[core]:hookspath'|'[include]:path'|'[includeif '*':path') ;; *) continue ;; esac
    case $v in /*) ;; '~'*|'') continue ;; *) if [ "$k" = hookspath ]; then v=$top/$v; else v=$1/$v; fi ;; esac
    printf '%s\\0' "$v"
  done < <(head -c 65536 -- "$cfg")
}
gitdirs() {
  local p=$1 top=\${1%/*} g c
  if [ -d "$p" ] && [ ! -L "$p" ]; then printf '%s\\0' "$p"; g=$p
  elif [ -f "$p" ] && [ ! -L "$p" ]; then
    IFS= read -r g < "$p" || [ -n "$g" ] || return 0
    case $g in 'gitdir: '*) g=\${g#gitdir: } ;; *) return 0 ;; esac
    case $g in /*) ;; *) g=$top/$g ;; esac
    printf '%s\\0' "$g"
  else return 0
  fi
  if [ -f "$g/commondir" ]; then
    IFS= read -r c < "$g/commondir" || [ -n "$c" ] || return 0
    case $c in /*) ;; *) c=$g/$c ;; esac
    printf '%s\\0' "$c"
  fi
}
emit() {
  local kind rec p d
  while IFS= read -r -d '' rec; do
    kind=\${rec%% *}; rec=\${rec#* }; p=\${rec#*$'\\t'}
    if [ "$kind" = H ]; then
      d=\${p%/*}; [ -e "$d/refs" ] || [ -e "$d/commondir" ] || continue
      kind=K
    fi
    # A kept link's identity holds what it points to: a new link may reuse the old one's inode
    # (a noted one's need not: it is only reported, and no fork per noted link).
    [ "$kind" = K ] && [ -L "$p" ] && rec="\${rec%%$'\\t'*}:$(readlink -- "$p" | md5sum | cut -c1-32)"$'\\t'"$p"
    printf '%s %s\\0' "$kind" "$rec"
  done
}
scan() {
  [ "\${#roots[@]}" -gt 0 ] || return 0
  find "\${roots[@]}" -xdev \\( "\${named[@]:1}" \\) -prune -printf 'K %D:%i:%y\\t%p\\0' \\
    -o \\( "\${noted[@]:1}" \\) -prune -printf 'N %D:%i:%y:%s:%T@\\t%p\\0' \\
    -o \\( -name HEAD -o -name commondir \\) -printf 'H %D:%i:%y\\t%p\\0' 2>/dev/null | emit
}
under() {
  [ -e "$1" ] || [ -L "$1" ] || return 0
  find "$1" -xdev -printf 'K %D:%i:%y\\t%p\\0' 2>/dev/null | emit
}
pointers() {
  local rec p g d r n=0
  while IFS= read -r -d '' rec; do
    p=\${rec#*$'\\t'}
    [ "\${rec%% *}" = K ] && [ "\${p##*/}" = .git ] || continue
    while IFS= read -r -d '' g; do
      while IFS= read -r -d '' d; do
        d="$(realpath -m -- "\${d%/*}")/\${d##*/}"
        for r in "\${roots[@]}"; do
          case $d in "$r"/*) printf '%s\\0' "$d"; n=$((n + 1)); break ;; esac
        done
        [ "$n" -lt 256 ] || return 0
      done < <(pointed "$g" "\${p%/*}")
    done < <(gitdirs "$p")
  done
}
candidates() {
  local -a found=()
  local d
  mapfile -d '' -t found < <(scan)
  [ "\${#found[@]}" -eq 0 ] || printf '%s\\0' "\${found[@]}"
  while IFS= read -r -d '' d; do
    printf 'P -\\t%s\\0' "$d"
    under "$d"
  done < <([ "\${#found[@]}" -eq 0 ] || printf '%s\\0' "\${found[@]}" | pointers)
}
`;
