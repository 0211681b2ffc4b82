#!/bin/sh
# Run cmocka test binaries and print each run's result and a closing total.
# Binaries after --each run once per backend (EH_TEST_BACKEND set); those
# after --once run once (they iterate backends themselves, or test
# something backend-independent).
# usage: run-tests.sh BUILD_DIR "BACKEND..." --each BIN... --once BIN...
build=$1
backends=$2
shift 2
passed=0
failed=0
bad=""
log="$build/tests/last-run.log"
mkdir -p "$build/tests"
: > "$log"

run_one() { # BIN BACKEND-or-empty
    if [ -n "$2" ]; then
        out=$(EH_TEST_BACKEND=$2 "$1" 2>&1)
    else
        out=$("$1" 2>&1)
    fi
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
        bad="$bad $1"
        printf '%s\n' "$out"
        printf 'FAIL %s %s (exit %d)\n' "$(basename "$1")" "$2" "$rc"
    else
        printf 'ok   %-26s %-5s %5d tests\n' "$(basename "$1")" "${2:-all}" "$p"
    fi
}

mode=each
each=""
once=""
for arg in "$@"; do
    case "$arg" in
        --each) mode=each ;;
        --once) mode=once ;;
        *) if [ "$mode" = each ]; then each="$each $arg"; else once="$once $arg"; fi ;;
    esac
done
for backend in $backends; do
    for bin in $each; do run_one "$bin" "$backend"; done
done
for bin in $once; do run_one "$bin" ""; done

echo "tests: $passed passed, $failed failed"
[ -z "$bad" ]
