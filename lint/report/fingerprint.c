/* lint/report/fingerprint.c -- finding fingerprints (fingerprint.h). */
#include "fingerprint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "mem.h"
#include "strbuf.h"
#include "strmap.h"

/* The line with every space, tab, CR, VT and FF removed; "" when the line
 * does not exist. */
static char *normalized(const el_text *t, unsigned line)
{
    const char *s;
    size_t len;
    el_buf b = {0};
    if (el_text_line(t, line, &s, &len))
        for (size_t i = 0; i < len; i++)
            if (!strchr(" \t\r\v\f", s[i]))
                el_buf_putc(&b, s[i]);
    return b.n ? el_buf_take(&b) : el_xstrdup("");
}

/* The nearest line from `line` in direction `step` whose normalized text
 * is not empty ("" when there is none). */
static char *neighbour(const el_text *t, unsigned line, int step)
{
    for (long k = (long)line + step; k >= 1 && (size_t)k <= t->n_lines; k += step) {
        char *n = normalized(t, (unsigned)k);
        if (n[0])
            return n;
        free(n);
    }
    return el_xstrdup("");
}

static void hash_context(el_hasher *h, const el_text *t, unsigned line)
{
    char *parts[3] = {normalized(t, line), neighbour(t, line, -1), neighbour(t, line, +1)};
    for (int i = 0; i < 3; i++) {
        el_hash_str(h, parts[i]);
        free(parts[i]);
    }
}

char **el_fingerprints(const el_findings *f, el_texts *texts)
{
    char **out = el_xcalloc(f->n + 1, sizeof *out);
    el_strmap seen = {0}; /* file \n rule \n hash -> count */
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        el_hasher h;
        el_hash_init(&h);
        el_hash_str(&h, "emberlint-fingerprint-1");
        el_hash_str(&h, x->rule);
        hash_context(&h, el_texts_get(texts, x->file), x->line);
        char hex[33];
        el_hash_hex(el_hash_final(&h), hex);
        hex[16] = '\0';
        char *key = el_xasprintf("%s\n%s\n%s", x->file, x->rule, hex);
        uintptr_t n = (uintptr_t)el_strmap_get(&seen, key) + 1;
        el_strmap_put(&seen, key, (void *)n);
        free(key);
        out[i] = el_xasprintf("%s:%lu", hex, (unsigned long)n);
    }
    el_strmap_free(&seen);
    return out;
}

void el_fingerprints_free(char **fp, size_t n)
{
    if (!fp)
        return;
    for (size_t i = 0; i < n; i++)
        free(fp[i]);
    free(fp);
}
