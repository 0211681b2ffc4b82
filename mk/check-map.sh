#!/bin/sh
# Hold the map of the tree (docs/architecture.md, "Map of the tree") to
# the tree: every folder that holds files has a row, every row names a
# folder that exists, and for the layers of lint/ and migrate/ the "may
# use" column lists exactly the folders the Makefile lets them include.
# Fixture trees, fuzzing seed corpora and the legacy example's own folders
# are described by the row of the folder that holds them.
#
# usage: check-map.sh FOLDER=USED... ...   (as mk/check-layers.sh)
set -u
doc=docs/architecture.md
fail=0
bad() { echo "map: FAIL: $*"; fail=1; }

# The rows: "folder<TAB>used folder..." from the table's first and last cells.
rows=$(awk '
    /^## / { inmap = ($0 ~ /^## Map of the tree/) ; next }
    inmap && /^\| `[^`]*\/` \|/ {
        n = split($0, cell, "|")
        path = cell[2]; gsub(/[ `]/, "", path)
        uses = ""; last = cell[n - 1]
        while (match(last, /`[^`]*\/`/)) {
            uses = uses " " substr(last, RSTART + 1, RLENGTH - 2)
            last = substr(last, RSTART + RLENGTH)
        }
        print path "\t" uses
    }' "$doc")
[ -n "$rows" ] || { echo "map: FAIL: no \"Map of the tree\" table in $doc"; exit 1; }
listed() { printf '%s\n' "$rows" | cut -f1 | grep -qxF "$1"; }

# The folders that hold files (a git checkout: tracked and new files).
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard)
else
    files=$(find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||')
fi
folders=$(printf '%s\n' "$files" | sed -n 's|/[^/]*$||p' | sort -u |
          grep -v -e 'fixtures' -e '^examples/legacy/' -e '^tests/structure/' \
                  -e '^tests/fuzz/corpus/')
n=0
for d in $folders; do
    n=$((n + 1))
    listed "$d/" || bad "$d/ holds files but has no row in $doc's map"
done
for d in $(printf '%s\n' "$rows" | cut -f1); do
    [ -d "$d" ] || bad "the map lists $d, which does not exist"
done

# The layers' "may use" against the Makefile.
for spec in "$@"; do
    dir=${spec%%=*}
    want=$(for u in ${spec#*=}; do echo "$u/"; done | sort | tr '\n' ' ')
    row=$(printf '%s\n' "$rows" | awk -F '\t' -v d="$dir/" '$1 == d { print $2 }')
    have=$(for u in $row; do echo "$u"; done | sort | tr '\n' ' ')
    [ "$have" = "$want" ] ||
        bad "$dir/ may use \"$want\" (Makefile: LINT_USES_*), the map says \"$have\""
done

[ $fail -eq 0 ] || exit 1
echo "map: $doc has a row for each of the $n folders; the layers' may-use column matches the Makefile"
