/* lint/report/srctext.c -- files' text for the reports (srctext.h). */
#include "srctext.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "strbuf.h"

static el_text *load(const char *path)
{
    el_text *t = el_xcalloc(1, sizeof *t);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return t;
    el_buf b = {0};
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0)
        el_buf_putn(&b, chunk, (size_t)got);
    close(fd);
    if (got < 0) {
        el_buf_free(&b);
        return t;
    }
    t->len = b.n;
    t->data = b.s ? el_buf_take(&b) : el_xstrdup("");
    t->ascii = true;
    for (size_t i = 0; i < t->len && t->ascii; i++)
        t->ascii = (unsigned char)t->data[i] < 0x80;
    size_t cap = 0;
    for (size_t off = 0;;) {
        el_grow(&t->line_off, &cap, t->n_lines + 1, sizeof *t->line_off);
        t->line_off[t->n_lines++] = off;
        const char *nl = memchr(t->data + off, '\n', t->len - off);
        if (!nl)
            break;
        off = (size_t)(nl - t->data) + 1;
        if (off == t->len)
            break; /* a final newline starts no line */
    }
    return t;
}

const el_text *el_texts_get(el_texts *ts, const char *path)
{
    el_text *t = el_strmap_get(&ts->by_path, path);
    if (!t) {
        t = load(path);
        el_strmap_put(&ts->by_path, path, t);
    }
    return t;
}

static void free_one(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    el_text *t = value;
    free(t->data);
    free(t->line_off);
    free(t);
}

void el_texts_free(el_texts *ts)
{
    el_strmap_each(&ts->by_path, free_one, NULL);
    el_strmap_free(&ts->by_path);
}

bool el_text_line(const el_text *t, unsigned line, const char **s, size_t *len)
{
    if (!t->data || line < 1 || line > t->n_lines)
        return false;
    size_t b = t->line_off[line - 1];
    size_t e = line < t->n_lines ? t->line_off[line] : t->len;
    if (e > b && t->data[e - 1] == '\n')
        e--;
    *s = t->data + b;
    *len = e - b;
    return true;
}

/* UTF-16 code units of s[0..n): a 4-byte sequence is a surrogate pair;
 * any other lead byte (and every invalid byte, shown as U+FFFD) is one. */
static unsigned utf16_units(const char *s, size_t n)
{
    unsigned u = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80)
            continue; /* continuation */
        u += c >= 0xF0 && c <= 0xF4 ? 2 : 1;
    }
    return u;
}

unsigned el_text_col16(const el_text *t, unsigned line, unsigned byte_col)
{
    const char *s;
    size_t len;
    if (byte_col < 1 || !el_text_line(t, line, &s, &len))
        return byte_col;
    size_t upto = byte_col - 1;
    if (t->ascii) /* (no scan of the line: thousands of findings on one long line) */
        return byte_col;
    if (upto > len)
        return utf16_units(s, len) + (unsigned)(upto - len) + 1;
    return utf16_units(s, upto) + 1;
}

void el_text_position(const el_text *t, size_t offset, unsigned *line, unsigned *col16)
{
    if (!t->data || !t->n_lines) {
        *line = 1;
        *col16 = 1;
        return;
    }
    if (offset > t->len)
        offset = t->len;
    size_t lo = 0, hi = t->n_lines; /* last line whose start <= offset */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->line_off[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = (unsigned)lo + 1;
    size_t n = offset - t->line_off[lo];
    *col16 = (t->ascii ? (unsigned)n : utf16_units(t->data + t->line_off[lo], n)) + 1;
}
