#!/bin/sh
# Install into a temporary prefix and build an application against it with
# pkg-config alone, as a user outside the tree would; then the same with
# CMake's find_package(eh) (shared and static), and check the installed
# man pages with mandoc -Tlint and against each tool's --help.
# usage: run.sh BUILD_DIR [MAKE]   (the Makefile passes $(MAKE), so the
# install joins its jobserver instead of warning that it is unavailable)
set -eu
build=${1:-build}
make=${2:-make}
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Installing says nothing on stderr: no warning of make's either.
$make --no-print-directory -s NODEPS=1 BUILD="$build" PREFIX="$tmp/prefix" install >/dev/null 2>"$tmp/install.err" || {
    cat "$tmp/install.err" >&2
    echo "install: FAIL: make install" >&2
    exit 1
}
if [ -s "$tmp/install.err" ]; then
    echo "install: FAIL: make install wrote to stderr: $(cat "$tmp/install.err")" >&2
    exit 1
fi
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
# Out of tree, a backend plugin is built against the installed headers
# (<eh/backend_api.h> is installed for that; emberlint keeps frontend code
# from including it) and not linked with libeh: the program loading it
# provides libeh.  The installed app loads it, selects it, and runs its
# kernel, ref's through its delegate, and its custom op; ehinfo lists it.
# Only backend_api.h of the backend_*.h headers is installed.
for h in "$tmp"/prefix/include/eh/backend_*.h; do
    case $h in */backend_api.h) ;; *) echo "install: FAIL: $h was installed" >&2; exit 1 ;; esac
done
cat > "$tmp/plugin.c" <<'PLUGIN'
#include <eh/backend_api.h>
static eh_status outoftree_negative(const eh_op_call *call)
{
    const eh_tensor *x = call->in[0];
    for (int64_t i = 0; i < x->size; i++) /* -x - 100: tells its kernel from ref's */
        eh_store_f64(call->out[0]->data, x->dtype, i, -eh_load_f64(x->data, x->dtype, i) - 100);
    return EH_OK;
}
static double outoftree_half(const double *x, const void *params)
{
    (void)params;
    return x[0] / 2;
}
static const eh_backend table = {EH_BACKEND_ABI, .name = "outoftree", .delegate = "ref",
                                 .kernels = {[EH_OP_negative] = outoftree_negative}};
eh_status EH_PLUGIN_INIT(void)
{
    static const eh_custom_op_def half = {.name = "oot.half", .n_in = 1, .n_out = 1,
                                          .rule = EH_CUSTOM_ELEMENTWISE, .float_result = 1,
                                          .per_element = outoftree_half};
    eh_status st = eh_backend_register(&table);
    return st == EH_OK ? eh_custom_op_define(&half) : st;
}
PLUGIN
cat > "$tmp/host.c" <<'HOST'
#include <eh/eh.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    if (argc != 2 || eh_backend_load(argv[1]) != EH_OK || eh_set_backend("outoftree") != EH_OK) {
        fprintf(stderr, "host: %s\n", eh_error_message());
        return 1;
    }
    eh_scope_begin();
    eh_tensor *x = eh_scalar(4, EH_F64);
    double neg = eh_item(eh_negative(x)), abs = eh_item(eh_abs(eh_scalar(-3, EH_F64)));
    double half = eh_item(eh_custom_call("oot.half", EH_INPUTS(x), NULL));
    eh_scope_end();
    printf("%g %g %g\n", neg, abs, half);
    return eh_last_error() != EH_OK;
}
HOST
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -fPIC -shared plugin.c -o libeh-outoftree.so $(pkg-config --cflags eh)
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror host.c -o host $(pkg-config --cflags --libs eh)
out=$(./host "$tmp/libeh-outoftree.so")
if [ "$out" != "-104 3 2" ]; then
    echo "install: FAIL: the out-of-tree plugin's host printed '$out'" >&2
    exit 1
fi
"$tmp/prefix/bin/ehinfo" --plugin "$tmp/libeh-outoftree.so" | grep -q '^oot.half ' ||
    { echo "install: FAIL: ehinfo --plugin does not list the plugin's custom op" >&2; exit 1; }

# The repository's own examples, copied out of the tree and built against
# the prefix as docs/extending.md says: the BLIS backend plugin and the
# program that loads it, and the application with custom ops (its blas
# kernel calls OpenBLAS itself, so it links it).
cp -R "$top/examples/plugin" "$top/examples/custom_op" "$tmp/"
blis_arch=$(cc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
blis_lib=/usr/lib/$blis_arch/blis-pthread
(
    cd "$tmp/plugin"
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -fPIC -shared plugins/blis/*.c -o libeh-blis.so \
        $(pkg-config --cflags eh) -isystem "/usr/include/$blis_arch/blis-pthread" \
        -L"$blis_lib" -Wl,-rpath,"$blis_lib" -lblis
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror demo.c -o plugin-demo $(pkg-config --cflags --libs eh)
    cd "$tmp/custom_op"
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -I. ./*.c backends/*/*.c -o custom-op \
        $(pkg-config --cflags --libs eh) -lopenblas -lm
) >"$tmp/examples.log" 2>&1 || {
    cat "$tmp/examples.log" >&2
    echo "install: FAIL: examples/plugin or examples/custom_op did not build against the prefix" >&2
    exit 1
}
out=$("$tmp/plugin/plugin-demo" "$tmp/plugin/libeh-blis.so" 2>&1) &&
    printf '%s\n' "$out" | grep -q '^same result on both backends' || {
    echo "install: FAIL: the out-of-tree BLIS plugin demo printed: $out" >&2
    exit 1
}
ref_out=$(EH_BACKEND=ref "$tmp/custom_op/custom-op" | sed 1d)
for b in blas lazy; do
    out=$(EH_BACKEND=$b "$tmp/custom_op/custom-op")
    if [ "$(printf '%s\n' "$out" | head -n 1)" != "backend $b" ] ||
        [ "$(printf '%s\n' "$out" | sed 1d)" != "$ref_out" ]; then
        echo "install: FAIL: the out-of-tree custom-op example on $b printed: $out" >&2
        exit 1
    fi
done
"$tmp/prefix/bin/emberlint" "$tmp/custom_op" "$tmp/plugin" >"$tmp/lint.out" 2>&1 || {
    cat "$tmp/lint.out" >&2
    echo "install: FAIL: the installed emberlint finds problems in the copied examples" >&2
    exit 1
}

# CMake: find_package(eh REQUIRED) against the prefix, eh::eh (shared)
# and eh::eh_static, built and run; a newer version is refused.
mkdir "$tmp/cm"
cp "$tmp/app.c" "$tmp/cm/app.c"
cat > "$tmp/cm/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(ehapp C)
find_package(eh 0.1 REQUIRED)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE eh::eh)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE eh::eh_static)
CMAKE
cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
    >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cm/build" >>"$tmp/cmake.log" 2>&1 || {
    cat "$tmp/cmake.log" >&2
    echo "install: FAIL: the CMake project did not build against the installed package" >&2
    exit 1
}
for kind in shared static; do
    out=$("$tmp/cm/build/app_$kind")
    if [ "$out" != "0.1.0 1 2 3" ]; then
        echo "install: FAIL: the CMake app ($kind) printed '$out'" >&2
        exit 1
    fi
done
if ! ldd "$tmp/cm/build/app_shared" | grep -q "$tmp/prefix/lib/libeh.so"; then
    echo "install: FAIL: app_shared does not use the installed libeh.so" >&2
    exit 1
fi
if ldd "$tmp/cm/build/app_static" | grep -q "libeh.so"; then
    echo "install: FAIL: app_static uses libeh.so" >&2
    exit 1
fi
sed -i 's/find_package(eh 0.1 REQUIRED)/find_package(eh 1.0 REQUIRED)/' "$tmp/cm/CMakeLists.txt"
if cmake -S "$tmp/cm" -B "$tmp/cm/build2" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null 2>&1; then
    echo "install: FAIL: find_package(eh 1.0) accepted version 0.1.0" >&2
    exit 1
fi

# The man pages are installed and mandoc finds nothing to warn about.
for page in man1/emberlint.1 man1/ember-migrate.1 man1/ehinfo.1 man3/libeh.3; do
    f="$tmp/prefix/share/man/$page"
    if [ ! -f "$f" ]; then
        echo "install: FAIL: $page is not installed" >&2
        exit 1
    fi
    if ! lint=$(mandoc -Tlint -W warning "$f" 2>&1) || [ -n "$lint" ]; then
        echo "install: FAIL: mandoc -Tlint on $page: $lint" >&2
        exit 1
    fi
    if ! MANWIDTH=80 man -l "$f" >/dev/null 2>"$tmp/man.err" || [ -s "$tmp/man.err" ]; then
        echo "install: FAIL: man -l $page: $(cat "$tmp/man.err")" >&2
        exit 1
    fi
done
# Every option a tool's --help lists is in its man page (written as
# \-\-name or \-x in the roff source).
for tool in emberlint ember-migrate ehinfo; do
    page="$tmp/prefix/share/man/man1/$tool.1"
    opts=$("$tmp/prefix/bin/$tool" --help | grep -E '^ +-' |
        grep -oE -- '(^|[ ,[])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[ ,[]//' | sort -u)
    missing=""
    for o in $opts; do
        roff=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -qE -- "$roff([^a-zA-Z0-9_-]|$)" "$page" || missing="$missing $o"
    done
    if [ -n "$missing" ]; then
        echo "install: FAIL: $tool --help lists options its man page does not:$missing" >&2
        exit 1
    fi
done
# The installed documentation's links between its pages resolve there
# (ember-migrate.md sends the reader to migration.md and extending.md, a
# rule's page to extending.md): every relative link to a .md page or a
# directory of pages that lies inside the installed documentation.  Links
# out of it (../lint/..., ../rules/*.json, ../examples/...) are for readers
# of the repository.
doc="$tmp/prefix/share/doc/emberharmony"
broken=
for f in $(cd "$doc" && find . -name '*.md' | sort); do
    d=$(dirname "$f")
    for l in $(grep -o '\]([^)#]*' "$doc/$f" | sed 's/^](//' | sort -u); do
        case $l in
        http*|mailto:*) continue ;;
        *.md|*/) ;;
        *) continue ;;
        esac
        t=$(realpath -m "$doc/$d/$l")
        case $t in
        "$doc"/*) [ -e "$t" ] || broken="$broken ${f#./}->$l" ;;
        esac
    done
done
if [ -n "$broken" ]; then
    echo "install: FAIL: links between installed docs that do not resolve:$broken" >&2
    exit 1
fi
echo "install: 6 passed, 0 failed (pkg-config app, an out-of-tree plugin, examples/plugin and examples/custom_op built outside the tree, CMake apps shared and static, man pages, links between the installed docs, against $tmp/prefix)"
cd "$top"
