/* tests/fuzz/fuzz_compdb.c -- the compile-database reader on any bytes.
 *
 * The input is written as build/compile_commands.json and loaded as `-p
 * build` does; every file it lists (and one it does not, which borrows an
 * entry) then gets its argument vector the way both tools build it,
 * through the allow-list (lint/engine/args_policy.h).  Besides crashes,
 * hangs and leaks, this checks the allow-list's promise: no argument
 * that reaches libclang is one that writes a file, loads code or passes
 * options through (a list the harness keeps on its own). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_policy.h"
#include "compdb.h"
#include "flags.h"
#include "fuzz_util.h"
#include "mem.h"
#include "path.h"

static char *dir, *build, *json;

/* Prefixes of arguments that must never reach libclang. */
static const char *const forbidden[] = {
    "-o",       "-M",         "-Wp,",          "-Xclang", "-mllvm",     "-fplugin",
    "-fpass-plugin", "-fprofile", "--serialize", "-save-temps", "--save-temps", "-ftime-trace",
    "-fmodules", "-load",     "-B",            "-ivfsoverlay", "-include-pch", "@",
    "-fcrash",  "-emit",      "-dependency",   "--config", "-fsanitize-ignorelist",
    "-fsanitize-blacklist", "-Xpreprocessor", "--driver-mode", "-v",
};

static void check_vector(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        /* values of kept options (the word after -I, -D, ...) are data */
        if (i > 0 && (strcmp(v[i - 1], "-I") == 0 || strcmp(v[i - 1], "-D") == 0 ||
                      strcmp(v[i - 1], "-U") == 0 || strcmp(v[i - 1], "-include") == 0 ||
                      strcmp(v[i - 1], "-isystem") == 0 || strcmp(v[i - 1], "-iquote") == 0 ||
                      strcmp(v[i - 1], "-idirafter") == 0 || strcmp(v[i - 1], "-imacros") == 0 ||
                      strcmp(v[i - 1], "-x") == 0 || strcmp(v[i - 1], "-target") == 0 ||
                      strcmp(v[i - 1], "-isysroot") == 0 || strcmp(v[i - 1], "--sysroot") == 0 ||
                      strcmp(v[i - 1], "-arch") == 0 || strcmp(v[i - 1], "-F") == 0 ||
                      strcmp(v[i - 1], "-iframework") == 0 || strcmp(v[i - 1], "-iprefix") == 0 ||
                      strncmp(v[i - 1], "-iwith", 6) == 0 || strcmp(v[i - 1], "-cxx-isystem") == 0 ||
                      strcmp(v[i - 1], "-isystem-after") == 0))
            continue;
        if (v[i][0] != '-') {
            fprintf(stderr, "fuzz_compdb: a bare word reaches libclang: '%s'\n", v[i]);
            abort();
        }
        for (size_t k = 0; k < sizeof forbidden / sizeof forbidden[0]; k++) {
            if (strncmp(v[i], forbidden[k], strlen(forbidden[k])) == 0 &&
                strcmp(v[i], "-MD") != 0 /* never kept; listed for the message */) {
                fprintf(stderr, "fuzz_compdb: '%s' reaches libclang\n", v[i]);
                abort();
            }
        }
    }
}

static void args_for(const el_compdb *db, const char *file)
{
    el_source src;
    memset(&src, 0, sizeof src);
    src.path = (char *)file;
    char *extra[] = {"-DFUZZ=1"};
    char **dropped = NULL;
    size_t nd = 0, n = 0;
    char **v = el_flags_for(db, &src, extra, 1, &n, &dropped, &nd);
    check_vector(v, n);
    el_args_free(v, n);
    el_args_free(dropped, nd);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    el_path_init();
    dir = fuzz_tmpdir();
    build = el_path_join(dir, "build");
    json = el_path_join(build, "compile_commands.json");
    char *cmd = el_xasprintf("mkdir -p '%s'", build);
    if (system(cmd) != 0)
        abort();
    free(cmd);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir)
        LLVMFuzzerInitialize(NULL, NULL);
    fuzz_write(json, data, size);
    char *err = NULL;
    el_compdb *db = el_compdb_load(build, &err);
    free(err);
    if (!db)
        return 0;
    size_t n = el_compdb_file_count(db);
    for (size_t i = 0; i < n && i < 64; i++)
        args_for(db, el_compdb_file(db, i));
    char *other = el_path_join(dir, "elsewhere/other.c");
    args_for(db, other);
    free(other);
    char **owned = NULL;
    size_t np = 0;
    el_compdb_paths_or(db, NULL, &np, &owned);
    free(owned);
    el_compdb_free(db);
    return 0;
}
