/* tests/migrate/test_texts.c -- file contents and line arithmetic
 * (migrate/texts.h): offsets and lines agree with counting newlines, a
 * changed file is refused.  The arithmetic was a scan from the start of
 * the file each time (with a hash of the whole file per question): a file
 * of 20k call sites took seconds; bench/ (lint section) measures it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_test.h"
#include "texts.h"

/* What the arithmetic means, counted plainly. */
static size_t counted_offset(const char *s, size_t len, unsigned line, unsigned col)
{
    size_t off = 0;
    for (unsigned l = 1; l < line && off < len; off++)
        if (s[off] == '\n')
            l++;
    off += col ? col - 1 : 0;
    return off > len ? len : off;
}

static unsigned counted_line(const char *s, size_t len, size_t off)
{
    unsigned line = 1;
    for (size_t i = 0; i < off && i < len; i++)
        line += s[i] == '\n';
    return line;
}

static void test_line_arithmetic(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    static const char *const contents[] = {"", "\n", "a", "ab\ncd\n\nef", "\n\n\nx\n", "no newline"};
    for (size_t k = 0; k < sizeof contents / sizeof contents[0]; k++) {
        char *rel = tt_fmt("f%zu.c", k);
        char *path = tt_write(dir, rel, contents[k]);
        em_texts ts = {0};
        char *err = NULL;
        const em_text *t = em_texts_get(&ts, path, NULL, &err);
        assert_non_null(t);
        size_t len = strlen(contents[k]);
        for (unsigned line = 0; line < 8; line++)
            for (unsigned col = 0; col < 5; col++)
                assert_int_equal(em_text_offset(t, line, col),
                                 counted_offset(contents[k], len, line, col));
        for (size_t off = 0; off < len + 3; off++)
            assert_int_equal(em_text_line(t, off), counted_line(contents[k], len, off));
        el_hash128 h = el_hash_bytes(contents[k], len);
        assert_non_null(em_texts_get(&ts, path, &h, &err));
        h.a ^= 1; /* another content than the one scanned */
        assert_null(em_texts_get(&ts, path, &h, &err));
        assert_true(strstr(err, "changed since it was read") != NULL);
        free(err);
        em_texts_free(&ts);
        free(path);
        free(rel);
    }
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_arithmetic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
