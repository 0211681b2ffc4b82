#!/bin/sh
# make demo: the examples on every backend, then the migration story of the
# legacy application examples/legacy/ (docs/migration.md walks through it):
#
#   1. emberlint on examples/legacy             the findings (exit 1 expected)
#   2. ember-migrate analyze                    the op x backend matrix
#   3. ember-migrate plan --unsafe-fixes        the unified diff, nothing written
#   4. ember-migrate apply --unsafe-fixes       on a copy: $BUILD/demo/legacy-migrated
#      (the application's own op becomes a custom op, an unsafe change:
#      without --unsafe-fixes it is left out and listed)
#   5. emberlint on the copy                    EH1xx gone; the rest is for a person
#   6. build and run both, on every backend     outputs identical; the
#                                               application's own op (a
#                                               custom op after the
#                                               migration) runs the kernel
#                                               of the backend in use
#
# usage: sh mk/demo.sh [--check] BUILD [BACKENDS]
#
# --check (run by `make test`) prints one line, or the claims that failed,
# and exits non-zero when any of these is false: the legacy tree has EH1xx
# findings; it builds and runs; analyze succeeds; plan's diff passes
# `git apply --check` on a fresh copy and, applied there, gives the tree
# apply gives; apply succeeds and leaves none of EH101-EH104; a second
# apply (and plan) changes nothing; the migrated tree builds; both versions
# print the same output on every backend; after the migration the custom
# op app.pairwise_sqdist runs eh_blas_pairwise_sqdist under blas and
# eh_ref_pairwise_sqdist under ref (LEGACY_TRACE=1 makes them say so).
set -u

check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
build=${1:-build}
backends=${2:-}

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
case $build in
/*) abs_build=$build ;;
*) abs_build=$repo/$build ;;
esac
if [ -z "$backends" ]; then
    backends=ref
    for b in blas lazy; do
        [ -d "backends/$b" ] && backends="$backends $b"
    done
fi

lint=$build/bin/emberlint
migrate=$build/bin/ember-migrate
legacy=examples/legacy
work=$build/demo
copy=$work/legacy-migrated
extra="-- -I$repo/libeh/include"
libdir=$abs_build/lib
failed=0

# ---- output helpers ------------------------------------------------------
section() { # TITLE
    [ $check -eq 1 ] && return 0
    printf '\n==== %s\n\n' "$1"
}
say() {
    [ $check -eq 1 ] && return 0
    printf '%s\n' "$*"
}
run_to() { # FILE COMMAND...: run it, output (both streams) to FILE; unless
    #         --check, print the command line and then the output.  Its status.
    out=$1
    shift
    "$@" > "$out" 2>&1
    st=$?
    if [ $check -eq 0 ]; then
        printf '$ %s\n' "$*" | sed "s|$repo/||g"
        cat "$out"
    fi
    return $st
}
fail() { # CLAIM: report a broken claim; the run goes on so all are listed
    printf 'demo: FAIL: %s\n' "$1" >&2
    failed=1
}
die() {
    printf 'demo: FAIL: %s\n' "$1" >&2
    exit 1
}
rule_counts() { # FILE: "EH101 x3, EH201 x7" from emberlint's text output
    grep -o '\[EH[0-9]*\]$' "$1" | tr -d '[]' | sort | uniq -c |
        awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 } END { if (NR == 0) printf "none" }'
}
# A listing of every file under DIR with its checksum (build output left out).
snapshot() {
    (cd "$1" && find . -path ./build -prune -o -type f -print | LC_ALL=C sort | xargs cksum)
}
# The plan for display: a file moved whole shows as a deletion and a
# creation; their bodies are summarised (the registration tables and the
# custom ops' header and wrappers are not).
abbreviate_diff() { # FILE
    awk '
    function flush() {
        if (mode != "" && n > 0)
            printf "    [... %d lines: the whole file, %s ...]\n", n, mode
        mode = ""; n = 0
    }
    /^diff --git / { flush(); table = ($0 ~ /kernels\.def$/ || $0 ~ /_ops\.[ch]$/); print; next }
    /^new file mode/ && !table { mode = "created"; print; next }
    /^deleted file mode/ && !table { mode = "deleted"; print; next }
    mode != "" && /^(\+\+\+|---) / { print; next }
    mode != "" && /^@@/ { next }
    mode != "" && /^[-+ \\]/ { n++; next }
    { print }
    END { flush() }' "$1"
}
# Which pairwise_sqdist kernel a run's LEGACY_TRACE lines name.
ran() { # FILE
    sed -n 's/^legacy-app: \(eh_[a-z]*_pairwise_sqdist\) ran$/\1/p' "$1" | sort -u | tr '\n' ' ' |
        sed 's/ $//'
}
# Build an application tree: make -C DIR with this repo's libeh, isolated
# from the calling make's command-line variables.
build_app() { # DIR OUT
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$1" BUILD="$2" \
        EH_CFLAGS="-I$repo/libeh/include" EH_LIBS="$libdir/libeh.so -Wl,-rpath,$libdir"
}

for tool in "$lint" "$migrate" "$libdir/libeh.so"; do
    [ -e "$tool" ] || die "$tool is missing (make demo builds it)"
done
rm -rf "$work"
mkdir -p "$work"

# ---- 0. the examples -----------------------------------------------------
if [ $check -eq 0 ]; then
    section "The examples (examples/*.c), on every backend libeh has: $backends"
    for ex in "$build"/examples/*; do
        [ -f "$ex" ] && [ -x "$ex" ] || continue   # a program, not a folder (examples/plugin/)
        echo "== $(basename "$ex")"
        "$ex" || failed=1
        echo
    done
    [ $failed -eq 0 ] || die "an example failed"
fi

# ---- 1. the legacy application, linted ---------------------------------------
section "A legacy application: $legacy (see $legacy/README.md)"
say "Backend code under ops/blas/ and ops/ref/, a frontend that includes those"
say "headers, calls eh_blas_*/eh_ref_* and branches on eh_get_backend(), and"
say "element loops over eh_data_f32() storage. emberlint finds all of it:"
say
run_to "$work/lint-before.txt" "$lint" --no-cache "$legacy" $extra
rc=$?
say
say "emberlint exit status $rc; findings: $(rule_counts "$work/lint-before.txt")"
[ $rc -eq 1 ] || fail "emberlint $legacy should exit 1 (findings), exited $rc"
grep -q '\[EH1[0-9][0-9]\]$' "$work/lint-before.txt" ||
    fail "emberlint $legacy reports no EH1xx (separation) findings"

# ---- 2. analyze ------------------------------------------------------------
section "ember-migrate analyze: which backend implements which op, and what must move"
run_to "$work/analyze.txt" "$migrate" analyze "$legacy" $extra ||
    fail "ember-migrate analyze $legacy failed: $(tail -n 3 "$work/analyze.txt")"

# ---- 3. plan ---------------------------------------------------------------
section "ember-migrate plan: the whole migration as a unified diff (nothing is written)"
before=$(snapshot "$legacy")
say "The custom op made of the application's pairwise_sqdist is an unsafe change (a"
say "caller can tell the op from the function): plan and apply make it with"
say "--unsafe-fixes only, and list it either way."
say
[ $check -eq 0 ] && printf '$ %s\n' "$migrate plan --unsafe-fixes $legacy $extra" | sed "s|$repo/||g"
"$migrate" plan --unsafe-fixes "$legacy" $extra > "$work/plan.diff" 2> "$work/plan.err"
rc=$?
if [ $check -eq 0 ]; then
    abbreviate_diff "$work/plan.diff"
    cat "$work/plan.err"
    say
    say "($(grep -c '^diff --git' "$work/plan.diff") files in the diff; the whole of it: $work/plan.diff)"
fi
[ $rc -le 1 ] || fail "ember-migrate plan $legacy exited $rc: $(cat "$work/plan.err")"
[ -s "$work/plan.diff" ] || fail "ember-migrate plan $legacy printed no diff"
[ "$(snapshot "$legacy")" = "$before" ] || fail "ember-migrate plan changed files under $legacy"

# The diff applies to a fresh copy laid out as the repository is (its paths
# are relative to this directory), with no repository above it for git.
fresh=$work/fresh
mkdir -p "$fresh/examples"
cp -R "$legacy" "$fresh/examples/"
rm -rf "$fresh/$legacy/build"
if (cd "$fresh" && GIT_CEILING_DIRECTORIES=$(dirname "$(pwd)") git apply --check "../plan.diff") \
    > "$work/apply-check.log" 2>&1; then
    say
    say "(git apply --check accepts the diff on a fresh copy)"
    (cd "$fresh" && GIT_CEILING_DIRECTORIES=$(dirname "$(pwd)") git apply "../plan.diff") ||
        fail "git apply of the plan on a fresh copy failed"
else
    fail "git apply --check rejects the plan: $(cat "$work/apply-check.log")"
fi

# ---- 4. apply to a copy ----------------------------------------------------
section "ember-migrate apply, on a copy: $copy"
cp -R "$legacy" "$copy"
rm -rf "$copy/build"
[ $check -eq 0 ] && printf '$ cp -R %s %s\n' "$legacy" "$copy"
run_to "$work/apply.txt" "$migrate" apply --unsafe-fixes "$copy" $extra
rc=$?
[ $rc -eq 0 ] || fail "ember-migrate apply $copy exited $rc"
if [ $check -eq 0 ]; then
    say
    say "The migrated tree:"
    (cd "$copy" && find . -path ./build -prune -o -type f -print | LC_ALL=C sort | sed 's|^\./|  |')
fi
if [ -d "$fresh/$legacy" ] && ! diff -r "$fresh/$legacy" "$copy" > "$work/plan-vs-apply.diff" 2>&1; then
    fail "the plan's diff and apply give different trees (see $work/plan-vs-apply.diff)"
fi

# Without --unsafe-fixes, apply makes the safe changes only and lists the
# unsafe ones it left (exit 1): no custom op is made.
safe=$work/legacy-safe
cp -R "$legacy" "$safe"
rm -rf "$safe/build"
"$migrate" apply "$safe" $extra > "$work/apply-safe.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "apply without --unsafe-fixes exited $rc, not 1 (unsafe changes left)"
grep -q ': unsafe, not applied: ' "$work/apply-safe.log" ||
    fail "apply without --unsafe-fixes lists no unsafe change it left (see $work/apply-safe.log)"
[ -e "$safe/app_ops.h" ] && fail "apply without --unsafe-fixes made the custom op"
say
say "Without --unsafe-fixes, apply makes the rest and lists what it left:"
say "$(grep -c ': unsafe, not applied: ' "$work/apply-safe.log") unsafe changes not applied ($work/apply-safe.log)"
grep -q ': unsafe, not applied: make custom op app.pairwise_sqdist ' "$work/apply-safe.log" ||
    fail "apply without --unsafe-fixes does not list the custom op it left (see $work/apply-safe.log)"
# an include left out is named as the tree spells it now (its header moved)
grep -q ": unsafe, not applied: \[EH101\] include <eh/eh.h> instead of 'backends/blas/blas_ops.h'" \
    "$work/apply-safe.log" ||
    fail "apply without --unsafe-fixes names an include left out by its old path (see $work/apply-safe.log)"
# and a later run with --unsafe-fixes finishes it: the tree of one run with it
"$migrate" apply --unsafe-fixes "$safe" $extra > "$work/apply-safe2.log" 2>&1 ||
    fail "apply --unsafe-fixes after a safe apply exited $? (see $work/apply-safe2.log)"
diff -r "$safe" "$copy" > "$work/safe-then-unsafe.diff" 2>&1 ||
    fail "a safe apply, then one with --unsafe-fixes, differs from one run with it (see $work/safe-then-unsafe.diff)"
say "A later apply --unsafe-fixes makes them: the same tree as one run with the flag."

# A second run finds nothing to do.
after=$(snapshot "$copy")
"$migrate" apply --unsafe-fixes "$copy" $extra > "$work/apply2.log" 2>&1 || fail "a second apply exited $?"
[ "$(snapshot "$copy")" = "$after" ] || fail "a second apply changed files"
"$migrate" plan --unsafe-fixes "$copy" $extra > "$work/plan2.diff" 2> "$work/plan2.err"
[ -s "$work/plan2.diff" ] && fail "plan after apply still has changes (see $work/plan2.diff)"
say
say "A second apply changes nothing, and plan has nothing left to show."

# ---- 5. lint the migrated copy ---------------------------------------------
section "emberlint on the migrated copy: what is left is work for a person"
run_to "$work/lint-after.txt" "$lint" --no-cache "$copy" $extra
rc=$?
[ $rc -le 1 ] || fail "emberlint $copy exited $rc"
say
say "Before: $(rule_counts "$work/lint-before.txt")"
say "After:  $(rule_counts "$work/lint-after.txt")"
if grep -q '\[EH10[1-4]\]$' "$work/lint-after.txt"; then
    fail "EH101-EH104 findings remain after apply: $(grep '\[EH10[1-4]\]$' "$work/lint-after.txt" | head -n 5)"
else
    say "The separation findings (EH101-EH104) are gone: ember-migrate fixed them all."
    say "What is left is for a person: hand-written loops over eh_data_f32() storage"
    say "(EH2xx) and casts of element values (EH3xx) become ops when someone decides"
    say "how (docs/migration.md, step 5)."
fi

# ---- 6. build and run both -------------------------------------------------
section "Build and run both versions, on every backend: $backends"
for v in legacy migrated; do
    if [ $v = legacy ]; then dir=$legacy; else dir=$copy; fi
    [ $check -eq 0 ] && printf '$ make -C %s BUILD=%s EH_CFLAGS=... EH_LIBS=...\n' "$dir" "$work/$v-build"
    build_app "$dir" "$abs_build/demo/$v-build" > "$work/$v-build.log" 2>&1 ||
        { cat "$work/$v-build.log" >&2; fail "the $v tree does not build"; }
done
for b in $backends; do
    for v in legacy migrated; do
        app=$work/$v-build/legacy-app
        if [ -x "$app" ]; then
            LEGACY_TRACE=1 EH_BACKEND=$b "$app" > "$work/$v.$b.out" 2> "$work/$v.$b.err" ||
                fail "the $v version failed on $b: $(cat "$work/$v.$b.err")"
        fi
    done
    if [ -s "$work/legacy.$b.out" ] && cmp -s "$work/legacy.$b.out" "$work/migrated.$b.out"; then
        if [ $check -eq 0 ]; then
            [ "$b" = "${backends%% *}" ] && { cat "$work/legacy.$b.out"; echo; }
            printf 'EH_BACKEND=%-5s legacy and migrated outputs are identical (%d lines)\n' \
                "$b" "$(wc -l < "$work/legacy.$b.out")"
            printf '                 pairwise_sqdist ran %s before, %s after (app.pairwise_sqdist)\n' \
                "$(ran "$work/legacy.$b.err")" "$(ran "$work/migrated.$b.err")"
        fi
    else
        [ -s "$work/legacy.$b.out" ] && diff "$work/legacy.$b.out" "$work/migrated.$b.out" >&2
        fail "legacy and migrated outputs differ (or are missing) on $b"
    fi
    # the custom op runs the current backend's own kernel
    case $b in ref | blas)
        [ "$(ran "$work/migrated.$b.err")" = "eh_${b}_pairwise_sqdist" ] ||
            fail "on $b the migrated app.pairwise_sqdist ran $(ran "$work/migrated.$b.err"), not eh_${b}_pairwise_sqdist" ;;
    esac
done

if [ $failed -ne 0 ]; then
    printf 'demo: the migration story of %s does NOT hold (files in %s)\n' "$legacy" "$work" >&2
    exit 1
fi
if [ $check -eq 1 ]; then
    echo "demo: $legacy migrates (lint, analyze, plan, apply, idempotent) and prints the same on $backends"
else
    section "Done"
    say "Everything above is reproducible: docs/migration.md walks through the same steps."
fi
exit 0
