#!/bin/sh
# Install the Debian packages the build needs, if any are missing.
# Idempotent and quick when everything is there.
set -eu

PACKAGES="gcc make clang libclang-dev libclang-rt-14-dev libjson-c-dev libopenblas-dev liblapacke-dev libcmocka-dev libfftw3-dev pkg-config libblis-dev libblis-pthread-dev"

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run 'sudo make deps' (or: sudo apt-get install$missing)" >&2
    exit 1
fi

echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
