#!/bin/sh
# Fuzz each harness for a while: make fuzz FUZZ_SECONDS=N.
# usage: run.sh FUZZ_BUILD_DIR SECONDS NAME...
# Each harness runs niced (the machine is shared) on its seed corpus
# (tests/fuzz/corpus/NAME, read only) and its working corpus
# (FUZZ_BUILD_DIR/corpus/NAME, where new inputs go).  Crashes, leaks,
# timeouts and disagreements are written to FUZZ_BUILD_DIR/findings/.
# A summary line per harness (seconds, executions, corpus size, findings)
# goes to stdout and FUZZ_BUILD_DIR/summary.txt; the exit status is 1
# when anything was found.
set -u
build=$1
seconds=$2
shift 2
mkdir -p "$build/findings" "$build/logs"
summary="$build/summary.txt"
: > "$summary"
status=0
for name in "$@"; do
    bin="$build/tests/fuzz/fuzz_$name"
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    log="$build/logs/$name.log"
    before=$(ls "$build/findings" | wc -l)
    # -timeout: one input taking this long is a finding (a hang);
    # the command-line harness parses with libclang several times.
    timeout=25
    [ "$name" = cli ] && timeout=120
    nice -n 19 "$bin" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$build/findings/$name-" \
        "$corpus" "tests/fuzz/corpus/$name" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    size=$(ls "$corpus" | wc -l)
    found=$(( $(ls "$build/findings" | wc -l) - before ))
    line=$(printf '%-10s %6ss %10s executions, corpus %5s inputs, %s finding(s)' \
        "$name" "$seconds" "${execs:-?}" "$size" "$found")
    echo "$line" | tee -a "$summary"
    if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
        echo "fuzz: $name: see $log and $build/findings/" | tee -a "$summary"
    fi
done
exit $status
