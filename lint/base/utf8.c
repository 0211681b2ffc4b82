/* lint/base/utf8.c -- UTF-8 validation and cleaning. */
#include "utf8.h"

#include <string.h>

#include "strbuf.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t seq_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool el_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t l = seq_len(p + i, n - i);
        if (!l)
            return false;
        i += l;
    }
    return true;
}

char *el_utf8_clean(const char *s)
{
    el_buf b = {0};
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        size_t l = seq_len(p + i, n - i);
        if (!l) {
            el_buf_puts(&b, "\xEF\xBF\xBD");
            i++;
        } else if (l == 1 && (p[i] < 0x20 || p[i] == 0x7F) && p[i] != '\t') {
            el_buf_putc(&b, ' ');
            i++;
        } else {
            el_buf_putn(&b, s + i, l);
            i += l;
        }
    }
    return el_buf_take(&b);
}
