/* lint/engine/args_policy.h -- which compiler arguments reach libclang.
 *
 * Compiler arguments come from input: compile_commands.json, the words
 * after `--`, configuration.  Many clang options do more than parse: they
 * write files (-o, -MD, -MF, -Wp,-MD,PATH, --serialize-diagnostics,
 * -save-temps, -ftime-trace, -fmodules' cache), load code (-fplugin=,
 * -Xclang -load) or hand options to LLVM (-mllvm).  So this is an
 * allow-list of argument kinds that only affect how the code parses
 * (include paths, macros, language and target, warnings, known language
 * -f and -m options); every other argument is dropped.  Both tools get
 * their arguments through here (lint/engine/flags.c).  docs/emberlint.md
 * lists the kinds. */
#ifndef EL_ARGS_POLICY_H
#define EL_ARGS_POLICY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum el_arg_fate {
    EL_ARG_KEEP,          /* only affects parsing */
    EL_ARG_DROP,          /* dropped, with a note under -v */
    EL_ARG_DROP_QUIET     /* dropped silently: -c, -o FILE, -M* and the like
                           * that every build's commands carry */
} el_arg_fate;

typedef struct el_arg_info {
    el_arg_fate fate;
    size_t span;          /* arguments it takes: 1, or 2 when its value is
                           * the next one */
    bool path;            /* its value is a file or directory */
    size_t value_off;     /* span 1 and path: where the value starts in the
                           * argument ("-Ifoo": 2, "--sysroot=x": 10) */
    bool bare;            /* not an option: an input file, or a stray word */
    bool searched;        /* path, and a relative one not found in the
                           * working directory is looked up in the
                           * #include "..." search chain (-include,
                           * -imacros: `-include config.h` with
                           * -Ibuild/gen finds build/gen/config.h) */
} el_arg_info;

/* What becomes of args[i] (and args[i + 1] when span is 2). */
el_arg_info el_arg_inspect(char *const *args, size_t n, size_t i);

/* Keep, in place, the arguments that only affect parsing; free the
 * others.  When notes is not NULL, each dropped argument that deserves a
 * note (not EL_ARG_DROP_QUIET) is appended to (*notes)[*n_notes] as one
 * string, with its value ("-Xclang -load").  The new count. */
size_t el_args_filter(char **args, size_t n, char ***notes, size_t *n_notes);

/* OpenMP parsed as plain C: libclang 14's cursors do not reach the
 * statements inside an OpenMP directive (`#pragma omp parallel for`
 * shows only the variables its region captures), so the rules would not
 * see a call there.  The -fopenmp family (-fopenmp, -fopenmp=RUNTIME,
 * -fno-openmp, -fopenmp-simd, -fopenmp-version=V, Apple's -Xclang
 * -fopenmp and -Xpreprocessor -fopenmp, Intel's -qopenmp and -fiopenmp)
 * is taken out of args[0..n) in place and, when OpenMP is on,
 * args[0] becomes the one macro it defines (-D_OPENMP=201511, gcc's), so
 * code under `#ifdef _OPENMP` is linted as it builds.  Run before
 * el_args_filter, which drops -Xclang.  The new count (never more). */
size_t el_args_openmp_as_c(char **args, size_t n);

#endif
