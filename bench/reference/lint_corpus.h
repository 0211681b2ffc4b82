/* bench/reference/lint_corpus.h -- the generated C corpus of the lint
 * section of `make bench`, and the small file-system helpers it uses. */
#ifndef EH_BENCH_LINT_CORPUS_H
#define EH_BENCH_LINT_CORPUS_H

#include <stddef.h>

/* Write a corpus of `n_files` .c files (frontend code on libeh's API),
 * spread over module directories `dir`/modNN/, each module with one
 * header its files include.  The content depends only on n_files: the
 * same call writes the same bytes.  `dir` is removed first.  Returns the
 * number of bytes written, or -1 with a reason in err. */
long lint_corpus_write(const char *dir, int n_files, char *err, size_t cap);

/* One frontend file of `n_calls` call sites in one function (backend calls
 * with fixes, calls through a macro, op calls): time per file must stay
 * linear in its calls.  Bytes written, or -1 with a reason in err. */
long lint_calls_write(const char *path, int n_calls, char *err, size_t cap);

/* Break every `every`-th .c file under dir (in path order, the first
 * included): a syntax error appended.  The number broken, or -1. */
int lint_corpus_break(const char *dir, int every, char *err, size_t cap);

/* rm -rf `path` (no error if it does not exist); 0 or -1. */
int lint_rm_tree(const char *path);

/* mkdir -p; 0 or -1. */
int lint_mkdir_p(const char *path);

/* The .c files under `dir` (recursively; symbolic links are not
 * followed), sorted by path, appended to *v (malloc'd strings, *n and
 * *cap updated).  0, or -1 if `dir` cannot be read. */
int lint_list_c_files(const char *dir, char ***v, size_t *n, size_t *cap);

#endif
