/* parse-only -- the baseline of the lint section of `make bench`: bare
 * libclang parsing of translation units, and nothing else.
 *
 *   parse-only FILE... -- COMPILER ARGUMENTS
 *
 * Each FILE is parsed once, in order, on one thread, with one CXIndex,
 * the given compiler arguments and the parse options emberlint uses
 * (lint/engine/engine.c: PARSE_OPTIONS), then disposed of.  Like
 * emberlint (elc_parse_in_caller_thread), libclang parses on this thread,
 * not on a new thread per file.  --plain: without the detailed
 * preprocessing record (what the record itself costs).  No cursor is visited
 * and nothing is hashed, cached or printed: what emberlint does beyond this
 * is its own cost.  Like emberlint, the diagnostics are read to see whether
 * a file has errors; a file that does not parse cleanly makes the exit
 * status 1 (the bench then reports an error: the flags are wrong and the
 * comparison would mean nothing).  Usage errors exit 2.
 *
 * Built by the Makefile as $(BUILD)/bench/parse-only (it has its own main,
 * so it is not part of eh-bench). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <clang-c/Index.h>

#define PARSE_OPTIONS                                                                     \
    (CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |         \
     CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles)

int main(int argc, char **argv)
{
    struct rlimit rl; /* as elc_parse_in_caller_thread */
    if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
        (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (8u << 20)))
        setenv("LIBCLANG_NOTHREADS", "1", 0);
    unsigned options = PARSE_OPTIONS;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--plain") == 0) {
        options = PARSE_OPTIONS & ~(unsigned)CXTranslationUnit_DetailedPreprocessingRecord;
        first = 2;
    }
    int dashes = -1;
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dashes = i;
            break;
        }
    int n_files = (dashes < 0 ? argc : dashes) - first;
    if (n_files < 1 || strcmp(argv[first], "-h") == 0 || strcmp(argv[first], "--help") == 0) {
        fprintf(stderr, "usage: parse-only [--plain] FILE... [-- COMPILER ARGUMENTS]\n");
        return 2;
    }
    const char *const *args = dashes < 0 ? NULL : (const char *const *)argv + dashes + 1;
    int n_args = dashes < 0 ? 0 : argc - dashes - 1;

    CXIndex idx = clang_createIndex(0, 0);
    int bad = 0;
    for (int f = first; f < first + n_files; f++) {
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec =
            clang_parseTranslationUnit2(idx, argv[f], args, n_args, NULL, 0, options, &tu);
        if (ec != CXError_Success || !tu) {
            fprintf(stderr, "parse-only: %s: libclang could not parse it (error %d)\n", argv[f],
                    (int)ec);
            bad++;
            continue;
        }
        unsigned nd = clang_getNumDiagnostics(tu);
        int errors = 0;
        for (unsigned i = 0; i < nd; i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
                if (!errors++) {
                    CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
                    fprintf(stderr, "parse-only: %s\n", clang_getCString(s));
                    clang_disposeString(s);
                }
            }
            clang_disposeDiagnostic(d);
        }
        bad += errors > 0;
        clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(idx);
    if (bad)
        fprintf(stderr, "parse-only: %d of %d files did not parse cleanly\n", bad, n_files);
    return bad ? 1 : 0;
}
