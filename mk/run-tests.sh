#!/bin/sh
# Run cmocka test binaries once per backend (EH_TEST_BACKEND); print each
# run's result and a closing total.
# usage: run-tests.sh BUILD_DIR "BACKEND..." TEST_BIN...
build=$1
backends=$2
shift 2
passed=0
failed=0
bad_bins=""
log="$build/tests/last-run.log"
mkdir -p "$build/tests"
: > "$log"
for backend in $backends; do
for bin in "$@"; do
    out=$(EH_TEST_BACKEND=$backend "$bin" 2>&1)
    rc=$?
    printf '%s\n' "$out" >> "$log"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1 # crashed or a sanitizer stopped it
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then
        bad_bins="$bad_bins $bin"
        printf '%s\n' "$out"
        printf 'FAIL %s on %s (exit %d)\n' "$(basename "$bin")" "$backend" "$rc"
    else
        printf 'ok   %-20s %-5s %4d tests\n' "$(basename "$bin")" "$backend" "$p"
    fi
done
done
echo "tests: $passed passed, $failed failed"
[ -z "$bad_bins" ]
