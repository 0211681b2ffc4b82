#!/bin/sh
# The circle check must be able to fail: run mk/check-circles.sh on
# tests/structure/'s small trees and expect a call circle in call_circle/,
# an include circle in include_circle/, and nothing in one_way/.
# usage: run.sh BUILD  (the fixtures' objects built under BUILD/obj/)
set -u
build=$1
obj="$build/obj/tests/structure"
log="$build/structure-check.log"
fail=0

expect_circle() { # GROUP KIND FILE...: rejected, naming each FILE
    if sh mk/check-circles.sh "$build" "$1=$(ls "$obj/$1"/*.o | tr '\n' ' ')" > "$log" 2>&1; then
        echo "structure: FAIL: mk/check-circles.sh accepts the $2 circle of tests/structure/$1/"
        fail=1
        return
    fi
    kind=$2
    shift 2
    for f in "$@"; do
        if ! grep -q "$kind each other" "$log" || ! grep -q "^    .*$f" "$log"; then
            echo "structure: FAIL: mk/check-circles.sh did not name $f in the circle:"
            cat "$log"
            fail=1
        fi
    done
}

expect_circle call_circle call ping.o pong.o
expect_circle include_circle include first.h second.h
if ! sh mk/check-circles.sh "$build" "one_way=$(ls "$obj/one_way"/*.o | tr '\n' ' ')" > "$log" 2>&1; then
    echo "structure: FAIL: mk/check-circles.sh rejects tests/structure/one_way/:"
    cat "$log"
    fail=1
fi
[ $fail -eq 0 ] && echo "structure: the circle check rejects a call circle and an include circle, accepts a one-way pair"
[ $fail -eq 0 ]
