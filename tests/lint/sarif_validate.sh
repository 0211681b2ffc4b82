#!/bin/sh
# Validate emberlint's SARIF with Microsoft's SARIF Multitool (the
# validator GitHub's code-scanning documentation points to; make deps
# installs it into .deps/npm): zero errors and zero warnings.  Validated:
# a run over every rule's fixtures (findings of every rule, fixes, odd
# file names), the same run split in 3 shards and merged, and a run with
# no findings.  The check itself is checked: a SARIF file with a
# duplicate tag (JSON1020) must be refused.
# usage: sarif_validate.sh BUILD_DIR   (from the top of the tree)
set -eu
build=${1:-build}
top=$(pwd)
lint="$top/$build/bin/emberlint"
tool="$top/.deps/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
# .NET's globalization: no ICU needed
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
passed=0
failed=0
fail() {
    echo "sarif: FAIL: $*" >&2
    failed=$((failed + 1))
}
if [ ! -x "$tool" ]; then
    echo "sarif: FAIL: the SARIF Multitool is not installed (run make deps)" >&2
    echo "sarif: 0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Warnings the validator may give that we accept, each with its reason
# (rule IDs, space-separated).  None today.
JUSTIFIED=""

# validate FILE: the validator's errors and warnings, one a line, on stdout
validate() {
    out=$("$tool" validate "$1" --level "Error;Warning" -o "$tmp/validation.sarif" --log ForceOverwrite 2>&1) || true
    printf '%s\n' "$out" | grep -E '\): (error|warning) [A-Z]+[0-9]+' | while IFS= read -r line; do
        id=$(printf '%s\n' "$line" | sed -E 's/.*\): (error|warning) ([A-Z]+[0-9]+).*/\2/')
        case " $JUSTIFIED " in *" $id "*) ;; *) printf '%s\n' "$line" ;; esac
    done
    printf '%s\n' "$out" | grep -q "1 files scanned" || echo "the validator did not scan $1: $out"
}

check() { # NAME FILE
    problems=$(validate "$2")
    if [ -n "$problems" ]; then
        fail "$1: $problems"
    else
        passed=$((passed + 1))
    fi
}

args="--no-cache --format sarif tests/lint/fixtures tests/lint/fix_fixtures -- -Ilibeh/include"
# shellcheck disable=SC2086
"$lint" -o "$tmp/fixtures.sarif" $args || [ $? -eq 1 ] || fail "emberlint failed on the fixtures"
grep -q '"fixes"' "$tmp/fixtures.sarif" || fail "the fixtures' SARIF has no fixes"
grep -q '"partialFingerprints"' "$tmp/fixtures.sarif" || fail "the fixtures' SARIF has no fingerprints"
check "fixtures" "$tmp/fixtures.sarif"

for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$lint" --shard "$k/3" -o "$tmp/shard$k.sarif" $args || [ $? -eq 1 ] || fail "shard $k/3 failed"
done
"$lint" merge --format sarif -o "$tmp/merged.sarif" "$tmp/shard1.sarif" "$tmp/shard2.sarif" \
    "$tmp/shard3.sarif" || [ $? -eq 1 ] || fail "emberlint merge failed"
cmp -s "$tmp/merged.sarif" "$tmp/fixtures.sarif" || fail "merged SARIF differs from the unsharded run's"
check "merged shards" "$tmp/merged.sarif"
check "one shard" "$tmp/shard2.sarif"

"$lint" --no-cache --format sarif -o "$tmp/clean.sarif" examples/normalize.c -- -Ilibeh/include \
    || fail "emberlint failed on a clean file"
check "no findings" "$tmp/clean.sarif"

# The check can fail: a duplicate tag is a schema error.
sed 's/"tags": \[/"tags": [ "twice", "twice",/' "$tmp/fixtures.sarif" > "$tmp/broken.sarif"
if validate "$tmp/broken.sarif" | grep -q JSON1020; then
    passed=$((passed + 1))
else
    fail "the validator accepted a SARIF file with duplicate tags"
fi

echo "sarif: $passed passed, $failed failed (SARIF Multitool validate)"
[ "$failed" -eq 0 ]
