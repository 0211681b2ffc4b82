/* tests/lint/tool_test.h -- helpers shared by the tests of the command-line
 * tools (tests/lint for emberlint, tests/migrate for ember-migrate, which
 * is built on emberlint's library): run a program and capture what it
 * prints, make, fill, copy and remove scratch trees, snapshot a whole tree
 * to compare it byte for byte, apply a diff with git, read JSON.  Every
 * helper fails the test on an unexpected error.
 *
 * Include after <stdarg.h>, <stddef.h>, <setjmp.h> and <cmocka.h> (this
 * header does so itself). */
#ifndef TOOL_TEST_H
#define TOOL_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>

typedef struct tt_run {
    int status;      /* exit status; 128 + signal when killed */
    char *out;       /* standard output */
    char *err;       /* standard error */
} tt_run;

/* Run a program (argv[0], looked up in PATH unless it has a '/') in cwd
 * (NULL: this process's) with extra environment assignments ("NAME=value",
 * NULL-terminated, may be NULL).  Fails the test when it cannot be run or
 * is killed by a signal. */
tt_run tt_exec(const char *cwd, const char *const *argv, const char *const *env);
void tt_free(tt_run *r);
/* Append first and the rest of a NULL-terminated argument list to argv
 * from argv[n] on, keeping argv NULL-terminated; argv holds max entries
 * (fails the test when they do not fit).  Returns the new count. */
size_t tt_vargs(const char **argv, size_t n, size_t max, const char *first, va_list ap);

/* printf into a new string. */
char *tt_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A new string: dir + "/" + rel. */
char *tt_path(const char *dir, const char *rel);
/* Does text contain needle? */
bool tt_contains(const char *text, const char *needle);

/* A new empty directory under $TMPDIR (or /tmp), its real path (the tools
 * show real paths); remove with tt_rmtree. */
char *tt_tmpdir(void);
/* A scratch directory for each test: tt_scratch_setup (a cmocka setup)
 * makes a new tt_dir, tt_scratch_teardown removes it; tt_w writes the
 * file rel under it. */
extern char *tt_dir;
int tt_scratch_setup(void **state);
int tt_scratch_teardown(void **state);
void tt_w(const char *rel, const char *content);
/* A cmocka test run in its own scratch directory. */
#define tt_scratch_test(f) cmocka_unit_test_setup_teardown(f, tt_scratch_setup, tt_scratch_teardown)
/* Remove a tree, also where a test took away write permission. */
void tt_rmtree(const char *dir);
/* Write content (len bytes; tt_write: a string) to dir/rel, creating the
 * directories; returns the path. */
char *tt_write_n(const char *dir, const char *rel, const char *content, size_t len);
char *tt_write(const char *dir, const char *rel, const char *content);
/* A whole file, NUL-terminated, its length in *len (len may be NULL);
 * NULL when it does not exist (any other error fails the test). */
char *tt_read(const char *path, size_t *len);
/* dir/rel exists and holds exactly want. */
void tt_assert_file(const char *dir, const char *rel, const char *want);
/* dir/rel exists and contains needle. */
bool tt_file_contains(const char *dir, const char *rel, const char *needle);
/* Does the directory dir, made read-only by the test, refuse a new file?
 * (Not for root: skip such a test then.) */
bool tt_write_refused(const char *dir);
/* Copy the contents of directory src (dot files too) into the existing
 * directory dst. */
void tt_copytree(const char *src, const char *dst);
/* s with every occurrence of a replaced by b (a new string). */
char *tt_replace_all(const char *s, const char *a, const char *b);

/* Everything under dir, in path order: each directory, file and symlink
 * with its type and, with modes, permission bits; each file's length and
 * content.  Two trees are identical when their snapshots are equal. */
char *tt_snapshot(const char *dir, bool modes);
/* Fail the test, showing the first difference, unless equal. */
void tt_assert_same(const char *expected, const char *actual, const char *what);

/* `git apply --check` the patch (text) in the tree dir, then, with apply,
 * `git apply` it; fails the test, showing the patch, when git refuses.
 * git never looks for a repository above dir. */
void tt_git_apply(const char *dir, const char *patch, bool apply);

/* Parse a JSON text; fails the test when it is not valid JSON. */
json_object *tt_json(const char *text);
/* obj[key] (fails the test when absent). */
json_object *tt_get(json_object *obj, const char *key);
/* Fail the test, showing both, unless the two values are equal. */
void tt_assert_json_equal(json_object *got, json_object *want);

#endif
