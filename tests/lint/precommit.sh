#!/bin/sh
# The pre-commit hooks of .pre-commit-hooks.yaml, run by the real
# pre-commit in a temporary git repository that uses them: a commit that
# stages a file with a finding is refused and the finding shown; a clean
# commit passes; only staged content is linted; emberlint-fix fixes the
# staged file and refuses the commit until the fix is staged.
# usage: precommit.sh BUILD_DIR   (from the top of the tree)
set -eu
build=${1:-build}
top=$(pwd)
passed=0
failed=0
fail() {
    echo "pre-commit: FAIL: $*" >&2
    failed=$((failed + 1))
}
ok() { passed=$((passed + 1)); }
if ! command -v pre-commit >/dev/null 2>&1; then
    echo "pre-commit: FAIL: pre-commit is not installed (run make deps)" >&2
    echo "pre-commit: 0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PRE_COMMIT_HOME="$tmp/pre-commit-home"
export PATH="$top/$build/bin:$PATH"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp"
git config --global init.defaultBranch main
git config --global protocol.file.allow always

# The hooks' repository: this tree's .pre-commit-hooks.yaml, committed.
mkdir "$tmp/hooks"
cp .pre-commit-hooks.yaml "$tmp/hooks/"
(cd "$tmp/hooks" && git init -q && git add .pre-commit-hooks.yaml && git commit -qm hooks)
rev=$(git -C "$tmp/hooks" rev-parse HEAD)

project() { # DIR HOOK [ARGS-LINE]
    mkdir "$1"
    cd "$1"
    git init -q
    {
        echo "repos:"
        echo "- repo: $tmp/hooks"
        echo "  rev: $rev"
        echo "  hooks:"
        echo "  - id: $2"
        [ -z "${3:-}" ] || echo "    args: $3"
    } > .pre-commit-config.yaml
    git add .pre-commit-config.yaml
    git commit -qm config
    pre-commit install >/dev/null
}

# emberlint: a bad commit is refused with the finding
project "$tmp/p1" emberlint
printf 'int f(void);\n#include <cblas.h>\n' > bad.c
git add bad.c
if git commit -qm bad > "$tmp/out" 2>&1; then
    fail "a commit with a finding was accepted"
else
    grep -q "bad.c:2:1: error: frontend code includes backend-private header 'cblas.h'" "$tmp/out" \
        && ok || fail "the refusal does not show the finding: $(cat "$tmp/out")"
fi
[ "$(git rev-list --count HEAD)" -eq 1 ] && ok || fail "the bad commit was made"
# a clean commit passes, and unstaged bad content is not what is linted
git rm -q --cached bad.c
rm bad.c
printf 'int g(void) { return 1; }\n' > good.c
git add good.c
printf '#include <cblas.h>\n' >> good.c
if git commit -qm good > "$tmp/out" 2>&1; then ok; else fail "a clean commit was refused: $(cat "$tmp/out")"; fi
grep -q "cblas" good.c && ok || fail "the unstaged change was lost"
cd "$top"

# emberlint-fix: fixes the staged file, refuses until the fix is staged
project "$tmp/p2" emberlint-fix "[--extra-arg=-I$top/libeh/include]"
printf '#include <eh/eh.h>\n#include <cblas.h>\nint h(void);\n' > fixme.c
git add fixme.c
if git commit -qm fix > "$tmp/out" 2>&1; then
    fail "emberlint-fix let a commit through that it changed"
else
    ! grep -q 'cblas.h' fixme.c && grep -q '#include <eh/eh.h>' fixme.c && ok ||
        fail "emberlint-fix did not fix: $(cat fixme.c) $(cat "$tmp/out")"
fi
git add fixme.c
if git commit -qm fixed > "$tmp/out" 2>&1; then ok; else fail "the fixed commit was refused: $(cat "$tmp/out")"; fi
cd "$top"

echo "pre-commit: $passed passed, $failed failed (real pre-commit, hooks of .pre-commit-hooks.yaml)"
[ "$failed" -eq 0 ]
