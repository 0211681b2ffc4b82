#!/bin/sh
# Fail when the files of a group call or include each other in a circle.
#
# Calls: object A uses object B when A has an undefined symbol that B
# defines (nm).  Includes: file F uses file G when F has #include "G"
# resolving (next to F, else in one of the group's folders) to a .c or .h
# of the group.  Each graph goes through tsort, which reports any loop.
#
# usage: check-circles.sh BUILD NAME=OBJ... ...
#   NAME=OBJ...  a group: its name and its objects ($BUILD/obj/<src>.o, or
#                objects of generated sources); the group's files are the
#                sources of those objects and the headers beside them.
set -u
build=$1
shift
work="$build/circle-check"
mkdir -p "$work"

fail=0
summary=""
for group in "$@"; do
    name=${group%%=*}
    objs=${group#*=}
    tag=$(echo "$name" | tr '/ ' '__')

    # ---- calls ----
    calls="$work/$tag.calls"
    for o in $objs; do
        [ -f "$o" ] || { echo "circles: FAIL: $name: $o is missing"; fail=1; }
    done
    # nm -A: "obj:address T symbol", "obj:   U symbol"
    { nm -A -g --defined-only $objs | awk '{ f = $0; sub(/:.*/, "", f); print "D", $NF, f }'
      nm -A -u $objs | awk '{ f = $0; sub(/:.*/, "", f); print "U", $NF, f }'
    } 2>/dev/null | awk '$1 == "D" { def[$2] = $3; next }
                { use[n++] = $2 " " $3 }
                END { for (i = 0; i < n; i++) { split(use[i], u, " ")
                          if ((u[1] in def) && def[u[1]] != u[2]) print u[2], def[u[1]] } }' |
        sed "s|$build/obj/||g" | sort -u > "$calls"
    for o in $objs; do echo "$o $o"; done | sed "s|$build/obj/||g" >> "$calls"

    # ---- includes ----
    files="$work/$tag.files"
    dirs=""
    for o in $objs; do
        src=${o#$build/obj/}
        src=${src%.o}.c
        [ -f "$src" ] || src=${o%.o}.c # generated
        [ -f "$src" ] && echo "$src"
        d=${src%/*}
        case " $dirs " in *" $d "*) ;; *) dirs="$dirs $d" ;; esac
    done > "$files"
    for d in $dirs; do ls "$d"/*.h 2>/dev/null; done >> "$files"
    sort -u -o "$files" "$files"
    incs="$work/$tag.includes"
    # shellcheck disable=SC2046
    awk -v dirs="$dirs" '
        function norm(p,    n, parts, out, k, i) {
            n = split(p, parts, "/"); k = 0
            for (i = 1; i <= n; i++) {
                if (parts[i] == "." || parts[i] == "") continue
                if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
                out[++k] = parts[i]
            }
            p = out[1]
            for (i = 2; i <= k; i++) p = p "/" out[i]
            return p
        }
        NR == FNR { known[$0] = 1; print $0, $0; next }
        /^[ \t]*#[ \t]*include[ \t]*"/ {
            inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
            here = FILENAME; sub(/\/[^\/]*$/, "", here)
            nd = split(here " " dirs, base, " ")
            for (i = 1; i <= nd; i++) {
                cand = norm(base[i] "/" inc)
                if (cand in known) { print FILENAME, cand; break }
            }
        }' "$files" $(cat "$files") > "$incs"

    for kind in call include; do
        graph=$calls
        [ $kind = include ] && graph=$incs
        if ! tsort "$graph" > /dev/null 2> "$graph.loop"; then
            echo "circles: FAIL: $name: files that ${kind} each other in a circle:"
            sed -n 's/^tsort: \([^:]*\)$/    \1/p' "$graph.loop" | sort -u
            fail=1
        fi
    done
    summary="$summary $name"
done

[ $fail -eq 0 ] || exit 1
echo "circles: no call or include circle in$summary"
