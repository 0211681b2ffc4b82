#!/bin/sh
# Install the Debian packages the build needs, if any are missing, then
# the npm packages the tests run (into .deps/npm, git-ignored).
# Idempotent and quick when everything is there.
set -eu

# (binutils: nm and objdump, which lint/engine/gen_clang_api.sh reads libclang with;
# libomp-14-dev: clang 14's <omp.h>, which libclang finds for OpenMP code)
PACKAGES="gcc binutils make clang libclang-dev libclang-rt-14-dev libjson-c-dev libopenblas-dev liblapacke-dev libcmocka-dev libfftw3-dev libsleef-dev pkg-config libblis-dev libblis-pthread-dev libomp-14-dev"
# The real tools `make test` runs against emberlint's CI features and the
# installed package: git (--diff-base), pre-commit (the hooks), cmake (the
# CMake package), mandoc (lints the man pages), Node.js and npm (the SARIF
# validator below; a Node.js installed otherwise, with its own npm, is
# used as it is).
PACKAGES="$PACKAGES git pre-commit cmake mandoc"
command -v node >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs"
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

if [ -n "$missing" ]; then
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
fi

# npm packages, pinned, into a project-local folder: Microsoft's SARIF
# Multitool (the validator GitHub's code-scanning docs point to), which
# make test runs on emberlint's SARIF (tests/lint/sarif_validate.sh).
NPM_DIR=.deps/npm
SARIF_MULTITOOL_VERSION=5.7.0
if [ ! -x "$NPM_DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
    echo "deps: installing @microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION into $NPM_DIR"
    mkdir -p "$NPM_DIR"
    npm install --prefix "$NPM_DIR" --no-save --no-audit --no-fund --loglevel=error \
        "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" >/dev/null
    # its postinstall (chmod) may be skipped by npm's script policy
    chmod u+x "$NPM_DIR/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
fi
