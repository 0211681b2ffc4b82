#!/bin/sh
# Install into a temporary prefix and build an application against it with
# pkg-config alone, as a user outside the tree would.
set -eu
build=${1:-build}
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make --no-print-directory -s NODEPS=1 BUILD="$build" PREFIX="$tmp/prefix" install >/dev/null
cat > "$tmp/app.c" <<'APP'
#include <eh/eh.h>
#include <stdio.h>
int main(void)
{
    const int64_t shape[1] = {3};
    const float x[3] = {1.0f, 2.0f, 3.0f};
    eh_scope_begin();
    eh_tensor *t = eh_convert_to_tensor(x, 1, shape, EH_F32);
    eh_tensor *y = eh_keep(eh_multiply_scalar(eh_add(t, t), 0.5));
    eh_scope_end();
    if (!y) {
        fprintf(stderr, "app: %s\n", eh_error_message());
        return 1;
    }
    const float *v = eh_data_f32(y);
    printf("%s %g %g %g\n", eh_version(), v[0], v[1], v[2]);
    eh_release(y);
    return 0;
}
APP
cd "$tmp"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror app.c -o app $(pkg-config --cflags --libs eh)
out=$(./app)
if [ "$out" != "0.1.0 1 2 3" ]; then
    echo "install: FAIL: the installed app printed '$out'" >&2
    exit 1
fi
# The tools are installed and run.
"$tmp/prefix/bin/ehinfo" --format text >/dev/null || { echo "install: FAIL: ehinfo" >&2; exit 1; }
"$tmp/prefix/bin/emberlint" --version >/dev/null || { echo "install: FAIL: emberlint" >&2; exit 1; }
# The backend-author header is not installed: applications cannot include it.
if [ -e "$tmp/prefix/include/eh/backend_api.h" ]; then
    echo "install: FAIL: backend_api.h was installed" >&2
    exit 1
fi
echo "install: 1 passed, 0 failed (pkg-config app against $tmp/prefix)"
cd "$top"
