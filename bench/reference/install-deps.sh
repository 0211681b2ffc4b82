#!/bin/sh
# make bench: install the optional Python references (Debian python3-numpy,
# python3-numexpr) when they are missing.  Never fails: without them the
# harness skips the NumPy / numexpr rows with a note.
pkgs="python3-numpy python3-numexpr"
missing=""
for p in $pkgs; do
    case "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "bench: no apt-get: not installing$missing; those reference columns will be skipped"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "bench: not root: not installing$missing; those reference columns will be skipped"
    echo "bench: (sudo apt-get install$missing, then make bench again)"
    exit 0
fi
echo "bench: installing$missing (Debian packages, for the reference columns)"
export DEBIAN_FRONTEND=noninteractive
to=""
command -v timeout >/dev/null 2>&1 && to="timeout 240"
log=$(mktemp)
# shellcheck disable=SC2086
if $to apt-get install -y -qq --no-install-recommends $missing >"$log" 2>&1 ||
   { $to apt-get update -qq >>"$log" 2>&1 &&
     $to apt-get install -y -qq --no-install-recommends $missing >>"$log" 2>&1; }; then
    echo "bench: installed$missing"
else
    tail -n 3 "$log" | sed 's/^/bench:   /'
    echo "bench: could not install$missing; those reference columns will be skipped"
fi
rm -f "$log"
exit 0
