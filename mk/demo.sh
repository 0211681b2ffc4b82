#!/bin/sh
# make demo: run every example program on every backend.
set -eu
build=${1:-build}
status=0
for ex in "$build"/examples/*; do
    [ -x "$ex" ] || continue
    echo "== $(basename "$ex")"
    "$ex" || status=1
    echo
done
exit $status
