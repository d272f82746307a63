/**
 * What a script may not leave behind in what it writes ([RUN-2]), found by one bash function
 * that the box's prelude (`box_init.ts`: binds those there read-only before the script) and
 * the sweep after it (`sweep.ts`: removes the ones the script made) both run. Git and the
 * agents run what these hold on their own — a shell prompt or an IDE runs `git status`,
 * which runs a repository's `core.fsmonitor` — so a script that could plant one would run
 * its code outside the box, later, with the user's rights.
 *
 * `candidates` prints one record per thing found below the `roots` array, NUL-ended:
 * `KIND DEVICE:INODE:TYPE[:TARGET-MD5]<TAB>PATH` (a link's target too: a link made anew
 * may reuse the inode of the one it replaced), where KIND is
 * - `K`: an entry with a kept name (`.git`, file or folder; an agent's folder), or a file
 *   a repository's config points to (`core.hooksPath` and every file below it, an
 *   `[include]`/`[includeIf]` path), or a bare repository's `HEAD` or `commondir` (a
 *   folder git would take for one: it holds `refs` or a `commondir` beside it);
 * - `N`: an entry with a noted name (other tools' settings, `noted` array): reported, kept.
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
  ".husky",
];

/** The bash functions `pointed` and `candidates` (see the module doc). */
export const CANDIDATES_SH = `pointed() {
  local cfg=$1/config top=\${1%/*} sect= line k v
  [ -f "$cfg" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    line=\${line#"\${line%%[![:space:]]*}"}
    case $line in \\[*) sect=\${line,,}; continue ;; esac
    k=\${line%%=*}; k=\${k%"\${k##*[![:space:]]}"}; k=\${k,,}
    v=\${line#*=}; v=\${v#"\${v%%[![:space:]]*}"}; v=\${v%"\${v##*[![:space:]]}"}; v=\${v%\\"}; v=\${v#\\"}
    case "$sect:$k" in '[core]:hookspath'|'[include]:path'|'[includeif '*':path') ;; *) continue ;; esac
    case $v in /*) ;; '~'*|'') continue ;; *) if [ "$k" = hookspath ]; then v=$top/$v; else v=$1/$v; fi ;; esac
    printf '%s\\0' "$v"
  done < "$cfg"
}
candidates() {
  local kind rec p d
  [ "\${#roots[@]}" -gt 0 ] || return 0
  local -a extra=()
  while IFS= read -r -d '' rec; do
    kind=\${rec%% *}; rec=\${rec#* }; p=\${rec#*$'\\t'}
    if [ "$kind" = H ]; then
      d=\${p%/*}; [ -e "$d/refs" ] || [ -e "$d/commondir" ] || continue
      kind=K
    fi
    # A link's identity holds what it points to: a new link may reuse the old one's inode.
    [ -L "$p" ] && rec="\${rec%%$'\\t'*}:$(readlink -- "$p" | md5sum | cut -c1-32)"$'\\t'"$p"
    printf '%s %s\\0' "$kind" "$rec"
    if [ "$kind" = K ] && [ "\${p##*/}" = .git ] && [ -d "$p" ]; then
      while IFS= read -r -d '' d; do extra+=("$d"); done < <(pointed "$p")
    fi
  done < <(find "\${roots[@]}" -xdev \\( "\${named[@]:1}" \\) -prune -printf 'K %D:%i:%y\\t%p\\0' \\
    -o \\( "\${noted[@]:1}" \\) -prune -printf 'N %D:%i:%y\\t%p\\0' \\
    -o \\( -name HEAD -o -name commondir \\) -printf 'H %D:%i:%y\\t%p\\0' 2>/dev/null)
  for d in "\${extra[@]}"; do
    d=$(realpath -m -- "$d")
    for r in "\${roots[@]}"; do
      case $d in "$r"/*) find "$d" -xdev -printf 'K %D:%i:%y\\t%p\\0' 2>/dev/null; break ;; esac
    done
  done
}
`;
