#!/bin/sh
# Prove that the Makefile enforces the layers of lint/ and migrate/: a file
# that includes a header of a layer it may not use fails to build, and one
# that includes the headers it may use builds.  Each probe is compiled with
# the command make itself would run for a real object of the layer (make
# -n -B), only the source and output swapped, so the test sees the
# Makefile's own per-layer include paths.  Also: no #include "../...", and
# every folder of lint/ with sources is a layer (or a part folder of one).
#
# usage: check-layers.sh MAKE BUILD FOLDER=USED... ...
#   FOLDER=USED  a layer folder and the folders it may include from, e.g.
#                "lint/change=lint/base lint/engine"
# A folder's headers are its own *.h and those of its subfolders that are
# not layers themselves (lint/rules/backend_branch/).
set -u
make_cmd=$1
build=$2
shift 2
work="$build/layer-check"
rm -rf "$work"
mkdir -p "$work"

specs="$*"
folders=""
for spec in "$@"; do folders="$folders ${spec%%=*}"; done

is_folder() { # DIR: a listed layer folder?
    for f in $folders; do [ "$f" = "$1" ] && return 0; done
    return 1
}

# The headers of a layer folder, spelled as its files include them.
headers_of() {
    for h in "$1"/*.h; do [ -f "$h" ] && echo "${h#$1/}"; done
    for d in "$1"/*/; do
        d=${d%/}
        [ -d "$d" ] && ! is_folder "$d" || continue
        for h in "$d"/*.h; do [ -f "$h" ] && echo "${h#$1/}"; done
    done
}

fail=0
bad() { echo "layers: FAIL: $*"; fail=1; }

# The compile command make runs for the first source of a folder, as a
# template: @SRC@ and @OBJ@ where the source and object go.
template_of() {
    src=$(ls "$1"/*.c 2>/dev/null | head -n 1)
    [ -n "$src" ] || return 1
    obj="$build/obj/${src%.c}.o"
    line=$($make_cmd --no-print-directory -n -B NODEPS=1 BUILD="$build" "$obj" 2>/dev/null |
           grep -F -- " -c $src -o $obj" | tail -n 1)
    [ -n "$line" ] || return 1
    printf '%s\n' "$line" | sed -e "s| -c $src -o $obj| -c @SRC@ -o @OBJ@|" -e 's/ -MMD -MP//'
}

compile() { # TEMPLATE SRC OBJ LOG
    cmd=$(printf '%s\n' "$1" | sed -e "s|@SRC@|$2|" -e "s|@OBJ@|$3|")
    sh -c "$cmd" > "$4" 2>&1
}

n_up=0
n_ok=0
for spec in "$@"; do
    dir=${spec%%=*}
    uses=${spec#*=}
    name=$(echo "$dir" | tr / _)
    tmpl=$(template_of "$dir") || { bad "$dir: no compile command from make for its first source"; continue; }

    # the right way: every header of the layer and one of each layer below
    ok="$work/${name}_ok.c"
    : > "$ok"
    for h in $(headers_of "$dir"); do echo "#include \"$h\"" >> "$ok"; done
    for u in $uses; do
        h=$(headers_of "$u" | head -n 1)
        [ -n "$h" ] && echo "#include \"$h\"" >> "$ok"
    done
    echo "typedef int layer_probe;" >> "$ok"
    if compile "$tmpl" "$ok" "${ok%.c}.o" "${ok%.c}.log"; then
        n_ok=$((n_ok + 1))
    else
        bad "$dir: its own headers and those of $uses do not build with its flags:"
        cat "${ok%.c}.log"
    fi

    # the wrong way: a header of every other layer must not be found
    for other in $folders; do
        [ "$other" = "$dir" ] && continue
        allowed=0
        for u in $uses; do [ "$u" = "$other" ] && allowed=1; done
        [ $allowed -eq 1 ] && continue
        h=$(headers_of "$other" | head -n 1)
        [ -n "$h" ] || continue
        # as a file of the layer would spell it, and through a folder an
        # include path might open (lint/: "engine/config.h"; the root)
        k=0
        last=""
        for spelled in "$h" "${other#lint/}/$h" "$other/$h"; do
            [ "$spelled" = "$last" ] && continue
            last=$spelled
            k=$((k + 1))
            up="$work/${name}_includes_$(echo "$other" | tr / _)_$k.c"
            printf '#include "%s" /* from %s */\ntypedef int layer_probe;\n' "$spelled" "$other" > "$up"
            if compile "$tmpl" "$up" "${up%.c}.o" "${up%.c}.log"; then
                bad "$dir may not include $other, but #include \"$spelled\" builds with its flags"
            elif grep -qF -e "error: $spelled: No such file" -e "'$spelled' file not found" "${up%.c}.log"; then
                n_up=$((n_up + 1))
            else
                bad "$dir may not include $other: #include \"$spelled\" fails, but not for want of the file:"
                cat "${up%.c}.log"
            fi
        done
    done
done

# No escapes: a relative include that climbs out of its folder.
for dir in $folders; do
    if [ "$dir" = lint ]; then files=$(ls lint/*.[ch] 2>/dev/null); else files=$(find "$dir" -name '*.[ch]'); fi
    esc=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' $files /dev/null)
    [ -z "$esc" ] || bad "#include \"../...\" climbs out of a layer folder:
$esc"
done

# Every folder of lint/ that holds sources is a layer or a layer's part.
for d in $(find lint migrate -type d); do
    ls "$d"/*.[ch] > /dev/null 2>&1 || continue
    is_folder "$d" || is_folder "${d%/*}" || bad "$d holds sources but is no layer (Makefile: LINT_LAYERS)"
done

[ $fail -eq 0 ] || exit 1
echo "layers: $n_up wrong-way includes fail to build, $n_ok layers build with the headers they may use; no ../ escapes"
