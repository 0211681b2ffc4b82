/* tests/lint/test_diff.c -- unified diffs (lint/change/diff.h): for every shape
 * of change the diff must be accepted by `git apply --check`, and
 * applying it (with git, and with patch -p1) must give the new content
 * byte for byte.  A randomized test does the same for 200 random edits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_test.h"
#include "diff.h"

/* The diff as a string. */
static char *diff_str(const char *rel, const char *old, size_t old_len, const char *new_text,
                      size_t new_len, mode_t mode)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(el_diff_write(f, rel, old, old_len, new_text, new_len, mode), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static bool have_patch(void)
{
    return system("patch --version >/dev/null 2>&1") == 0;
}

/* In a scratch tree holding old (NULL: absent) at rel, the diff applies
 * with `tool` (git or patch) and leaves exactly new_text (NULL: no file). */
static void check_apply(const char *tool, const char *rel, const char *old, size_t old_len,
                        const char *new_text, size_t new_len, const char *patch)
{
    char *dir = tt_tmpdir();
    if (old)
        free(tt_write_n(dir, rel, old, old_len));
    if (strcmp(tool, "git") == 0) {
        tt_git_apply(dir, patch, true);
    } else {
        char *pfile = tt_write(dir, ".patch", patch);
        const char *argv[] = {"patch", "-p1", "-s", "-f", "--no-backup-if-mismatch", "-i", pfile, NULL};
        tt_run r = tt_exec(dir, argv, NULL);
        if (r.status != 0)
            fail_msg("patch -p1 refuses the diff of %s: %s%s\n%s", rel, r.out, r.err, patch);
        tt_free(&r);
        free(pfile);
    }
    size_t got_len = 0;
    char *path = tt_path(dir, rel);
    char *got = tt_read(path, &got_len);
    if (!new_text) {
        assert_null(got);
    } else {
        assert_non_null(got);
        if (got_len != new_len || memcmp(got, new_text, new_len) != 0)
            fail_msg("%s applied the diff of %s to something else:\n%s", tool, rel, patch);
    }
    free(got);
    free(path);
    tt_rmtree(dir);
    free(dir);
}

/* Diff, check it applies with git (and patch), return it. */
static char *roundtrip_n(const char *rel, const char *old, size_t old_len, const char *new_text,
                         size_t new_len, mode_t mode, bool with_patch)
{
    char *d = diff_str(rel, old, old_len, new_text, new_len, mode);
    bool equal = old && new_text && old_len == new_len && memcmp(old, new_text, old_len) == 0;
    if (equal) {
        assert_string_equal(d, "");
        return d;
    }
    assert_true(strncmp(d, "diff --git ", 11) == 0);
    check_apply("git", rel, old, old_len, new_text, new_len, d);
    if (with_patch && have_patch())
        check_apply("patch", rel, old, old_len, new_text, new_len, d);
    return d;
}

static char *roundtrip(const char *rel, const char *old, const char *new_text)
{
    return roundtrip_n(rel, old, old ? strlen(old) : 0, new_text, new_text ? strlen(new_text) : 0,
                       0644, true);
}

/* The diff of old -> new_text (round-tripped) contains want. */
static void expect_hunk(const char *rel, const char *old, const char *new_text, const char *want)
{
    char *d = roundtrip(rel, old, new_text);
    if (!tt_contains(d, want))
        fail_msg("the diff of %s lacks\n%s\nit is:\n%s", rel, want, d);
    free(d);
}

/* The diff of old -> new_text (round-tripped) is exactly want. */
static void expect_diff(const char *rel, const char *old, const char *new_text, const char *want)
{
    char *d = roundtrip(rel, old, new_text);
    assert_string_equal(d, want);
    free(d);
}

/* "l1\n" .. "lN\n" */
static char *numbered(int n, const char *fmt)
{
    char *s = calloc((size_t)n * 16 + 1, 1);
    assert_non_null(s);
    for (int i = 1; i <= n; i++)
        sprintf(s + strlen(s), fmt, i);
    return s;
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_middle_change(void **state)
{
    (void)state;
    char *old = numbered(20, "l%d\n");
    char *new_text = strdup(old);
    char *p = strstr(new_text, "l10\n");
    p[0] = 'L';
    expect_diff("src/m.c", old, new_text,
                "diff --git a/src/m.c b/src/m.c\n"
                "--- a/src/m.c\n"
                "+++ b/src/m.c\n"
                "@@ -7,7 +7,7 @@\n"
                " l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n");
    free(old);
    free(new_text);
}

static void test_start_and_end(void **state)
{
    (void)state;
    static const char six[] = "one\ntwo\nthree\nfour\nfive\nsix\n";
    static const struct {
        const char *old, *new_text, *hunk;
    } cases[] = {
        {six, "zero\none\ntwo\nthree\nfour\nfive\nsix\n", "@@ -1,3 +1,4 @@\n+zero\n one\n two\n three\n"},
        {six, "two\nthree\nfour\nfive\nsix\n", "@@ -1,4 +1,3 @@\n-one\n"},
        {six, "one\ntwo\nthree\nfour\nfive\nsix\nseven\n", "@@ -4,3 +4,4 @@\n four\n five\n six\n+seven\n"},
        {six, "one\ntwo\nthree\nfour\nfive\nSIX\n", "@@ -3,4 +3,4 @@\n three\n four\n five\n-six\n+SIX\n"},
        /* A one-line file. */
        {"x\n", "y\n", "@@ -1 +1 @@\n-x\n+y\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_hunk("a.c", cases[i].old, cases[i].new_text, cases[i].hunk);
}

static void test_no_newline_at_end(void **state)
{
    (void)state;
    static const char nonl[] = "\\ No newline at end of file\n";
    /* The newline goes away. */
    expect_hunk("n.c", "a\nb\nc\n", "a\nb\nc", "-c\n+c\n\\ No newline at end of file\n");
    /* It comes back. */
    expect_hunk("n.c", "a\nb\nc", "a\nb\nc\n", "-c\n\\ No newline at end of file\n+c\n");
    /* Neither has one: a change elsewhere keeps the last line as context. */
    char *d = roundtrip("n.c", "a\nb\nc", "A\nb\nc");
    assert_true(tt_contains(d, " c\n\\ No newline at end of file\n"));
    assert_int_equal(count(d, nonl), 1);
    free(d);
    /* Neither has one and the last line changes. */
    d = roundtrip("n.c", "a\nb\nc", "a\nb\nC");
    assert_int_equal(count(d, nonl), 2);
    free(d);
    /* The change far from the end does not mention it. */
    char *old = numbered(30, "%d\n");
    size_t n = strlen(old);
    old[n - 1] = '\0';
    char *new_text = strdup(old);
    new_text[0] = 'X';
    d = roundtrip("n.c", old, new_text);
    assert_int_equal(count(d, nonl), 0);
    free(d);
    free(old);
    free(new_text);
    /* A single line without newline, to nothing and from nothing. */
    expect_hunk("n.c", "only", "", "@@ -1 +0,0 @@\n-only\n\\ No newline at end of file\n");
    free(roundtrip("n.c", "", "only"));
    /* CRLF lines are lines like any other. */
    free(roundtrip("n.c", "a\r\nb\r\n", "a\r\nB\r\n"));
}

static void test_new_and_deleted(void **state)
{
    (void)state;
    expect_diff("dir/sub/new.c", NULL, "int x;\nint y;\n",
                "diff --git a/dir/sub/new.c b/dir/sub/new.c\n"
                "new file mode 100644\n"
                "--- /dev/null\n"
                "+++ b/dir/sub/new.c\n"
                "@@ -0,0 +1,2 @@\n+int x;\n+int y;\n");
    free(roundtrip("new.c", NULL, "no newline"));
    expect_diff("gone.c", "int x;\nint y;\n", NULL,
                "diff --git a/gone.c b/gone.c\n"
                "deleted file mode 100644\n"
                "--- a/gone.c\n"
                "+++ /dev/null\n"
                "@@ -1,2 +0,0 @@\n-int x;\n-int y;\n");
    free(roundtrip("gone.c", "x", NULL));

    /* An executable file keeps its mode line. */
    char *d = roundtrip_n("run.sh", NULL, 0, "#!/bin/sh\n", 10, 0755, false);
    assert_true(tt_contains(d, "new file mode 100755\n"));
    free(d);

    /* Names with a space (git ends them with a tab) and odd characters
     * (git quotes them). */
    expect_hunk("my dir/a b.c", "1\n", "2\n", "--- a/my dir/a b.c\t\n");
    d = roundtrip_n("q\"t\\.c", "1\n", 2, "2\n", 2, 0644, false);
    assert_true(tt_contains(d, "--- \"a/q\\\"t\\\\.c\"\n"));
    free(d);
}

static void test_empty_files(void **state)
{
    (void)state;
    /* New and deleted empty files: only the header (git writes the same). */
    char *d = roundtrip_n("e.c", NULL, 0, "", 0, 0644, false);
    assert_string_equal(d, "diff --git a/e.c b/e.c\nnew file mode 100644\n");
    free(d);
    d = roundtrip_n("e.c", "", 0, NULL, 0, 0644, false);
    assert_string_equal(d, "diff --git a/e.c b/e.c\ndeleted file mode 100644\n");
    free(d);
    /* Empty to content and back. */
    expect_hunk("e.c", "", "a\nb\n", "@@ -0,0 +1,2 @@\n");
    expect_hunk("e.c", "a\nb\n", "", "@@ -1,2 +0,0 @@\n");
}

static void test_many_hunks(void **state)
{
    (void)state;
    char *old = numbered(100, "line %d\n");
    /* Every 10th line changed: 7 equal lines between changes than the 6
     * two contexts need, so separate hunks. */
    char *new_text = strdup(old);
    for (int i = 5; i <= 95; i += 10) {
        char key[32];
        snprintf(key, sizeof key, "line %d\n", i);
        char *p = strstr(new_text, key);
        p[0] = 'L';
    }
    char *d = roundtrip("many.c", old, new_text);
    assert_int_equal(count(d, "\n@@ "), 10);
    assert_true(tt_contains(d, "@@ -2,7 +2,7 @@\n"));
    free(d);
    free(new_text);
    /* Every 7th line: exactly 6 equal lines between, contexts touch: one hunk. */
    new_text = strdup(old);
    for (int i = 7; i <= 98; i += 7) {
        char key[32];
        snprintf(key, sizeof key, "\nline %d\n", i);
        char *p = strstr(new_text, key);
        p[1] = 'L';
    }
    d = roundtrip("many.c", old, new_text);
    assert_int_equal(count(d, "\n@@ "), 1);
    assert_true(tt_contains(d, "@@ -4,97 +4,97 @@\n"));
    free(d);
    free(new_text);
    /* Large insertions and deletions mixed. */
    char *a = numbered(300, "%d\n");
    char *b = numbered(300, "%d\n");
    char *mixed = malloc(strlen(a) * 3);
    assert_non_null(mixed);
    mixed[0] = '\0';
    strncat(mixed, a + 100, 500);
    strcat(mixed, "inserted\nblock\n");
    strcat(mixed, b + 900);
    d = roundtrip("mixed.c", a, mixed);
    free(d);
    free(a);
    free(b);
    free(mixed);
    free(old);
}

static void test_identical(void **state)
{
    (void)state;
    char *d = diff_str("same.c", "a\nb\n", 4, "a\nb\n", 4, 0644);
    assert_string_equal(d, "");
    free(d);
    d = diff_str("same.c", "", 0, "", 0, 0644);
    assert_string_equal(d, "");
    free(d);
    d = diff_str("same.c", NULL, 0, NULL, 0, 0644);
    assert_string_equal(d, "");
    free(d);
}

/* A write error is reported. */
static void test_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        skip();
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    assert_int_equal(el_diff_write(f, "x.c", "a\n", 2, "b\n", 2, 0644), -1);
    fclose(f);
}

/* ---- randomized ---- */

static unsigned long rng = 88172645463325252ul;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

typedef struct lines {
    char **v;
    size_t n;
} lines;

static const char *const vocab[] = {"{", "}", "", "x = 1;", "return x;", "int y;", "/* c */",
                                    "if (a)", "else", "foo();", "bar();", "\t", " "};

static void push(lines *l, size_t at, const char *s)
{
    l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
    assert_non_null(l->v);
    memmove(l->v + at + 1, l->v + at, (l->n - at) * sizeof *l->v);
    l->v[at] = strdup(s);
    l->n++;
}

static char *join(const lines *l, bool final_newline)
{
    size_t len = 1;
    for (size_t i = 0; i < l->n; i++)
        len += strlen(l->v[i]) + 1;
    char *s = malloc(len);
    assert_non_null(s);
    s[0] = '\0';
    for (size_t i = 0; i < l->n; i++) {
        strcat(s, l->v[i]);
        if (i + 1 < l->n || final_newline)
            strcat(s, "\n");
    }
    return s;
}

static void test_random(void **state)
{
    (void)state;
    const size_t nvocab = sizeof vocab / sizeof *vocab;
    for (int iter = 0; iter < 200; iter++) {
        lines l = {0};
        size_t n = rnd(40);
        for (size_t i = 0; i < n; i++)
            push(&l, l.n, vocab[rnd((unsigned)nvocab)]);
        bool nl_old = rnd(4) != 0;
        char *old = join(&l, nl_old);
        unsigned muts = 1 + rnd(8);
        for (unsigned m = 0; m < muts; m++) {
            unsigned op = rnd(3);
            if (op == 0 || l.n == 0) {
                unsigned run = 1 + rnd(3);
                size_t at = rnd((unsigned)l.n + 1);
                for (unsigned k = 0; k < run; k++)
                    push(&l, at, vocab[rnd((unsigned)nvocab)]);
            } else if (op == 1) {
                size_t at = rnd((unsigned)l.n);
                free(l.v[at]);
                memmove(l.v + at, l.v + at + 1, (l.n - at - 1) * sizeof *l.v);
                l.n--;
            } else {
                size_t at = rnd((unsigned)l.n);
                free(l.v[at]);
                l.v[at] = strdup(vocab[rnd((unsigned)nvocab)]);
            }
        }
        bool nl_new = rnd(5) ? nl_old : !nl_old;
        char *new_text = join(&l, nl_new);
        /* patch(1) too, on some of them (each run costs a process). */
        char *d = roundtrip_n("r/rand.c", old, strlen(old), new_text, strlen(new_text), 0644,
                              iter % 8 == 0);
        free(d);
        free(old);
        free(new_text);
        for (size_t i = 0; i < l.n; i++)
            free(l.v[i]);
        free(l.v);
    }
}

/* A big rewrite stays fast and correct. */
static void test_large(void **state)
{
    (void)state;
    size_t n = 20000;
    char *a = malloc(n * 12), *b = malloc(n * 12);
    assert_non_null(a);
    assert_non_null(b);
    a[0] = b[0] = '\0';
    size_t la = 0, lb = 0;
    for (size_t i = 0; i < n; i++) {
        la += (size_t)sprintf(a + la, "a%zu\n", i * 7919 % n);
        lb += (size_t)sprintf(b + lb, "%s%zu\n", i % 3 ? "a" : "b", i * 7919 % n);
    }
    char *d = roundtrip_n("big.c", a, la, b, lb, 0644, false);
    free(d);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_middle_change),
        cmocka_unit_test(test_start_and_end),
        cmocka_unit_test(test_no_newline_at_end),
        cmocka_unit_test(test_new_and_deleted),
        cmocka_unit_test(test_empty_files),
        cmocka_unit_test(test_many_hunks),
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
