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

/* The normalized line and its neighbours, kept for the next finding:
 * findings come sorted, and those of one line share them (thousands of
 * findings on one long generated line cost one pass over it, not one
 * each). */
typedef struct context {
    const el_text *t;
    unsigned line;
    char *parts[3];
    el_strmap hashes;  /* rule -> the 16 hex digits, on this line */
} context;

static void free_value(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    free(value);
}

static void context_clear(context *c)
{
    for (int i = 0; i < 3; i++)
        free(c->parts[i]);
    el_strmap_each(&c->hashes, free_value, NULL);
    el_strmap_free(&c->hashes);
    memset(c, 0, sizeof *c);
}

/* The 16 hex digits of rule's hash at line of t (borrowed from c). */
static const char *line_hash(context *c, const el_text *t, unsigned line, const char *rule)
{
    if (!c->parts[0] || c->t != t || c->line != line) {
        context_clear(c);
        c->t = t;
        c->line = line;
        c->parts[0] = normalized(t, line);
        c->parts[1] = neighbour(t, line, -1);
        c->parts[2] = neighbour(t, line, +1);
    }
    char *hex = el_strmap_get(&c->hashes, rule);
    if (!hex) {
        el_hasher h;
        el_hash_init(&h);
        el_hash_str(&h, "emberlint-fingerprint-1");
        el_hash_str(&h, rule);
        for (int i = 0; i < 3; i++)
            el_hash_str(&h, c->parts[i]);
        hex = el_xmalloc(33);
        el_hash_hex(el_hash_final(&h), hex);
        hex[16] = '\0';
        el_strmap_put(&c->hashes, rule, hex);
    }
    return hex;
}

char **el_fingerprints(const el_findings *f, el_texts *texts)
{
    char **out = el_xcalloc(f->n + 1, sizeof *out);
    el_strmap seen = {0}; /* file \n rule \n hash -> count */
    context last = {0};
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        const char *hex = line_hash(&last, el_texts_get(texts, x->file), x->line, x->rule);
        char *key = el_xasprintf("%s\n%s\n%s", x->file, x->rule, hex);
        uintptr_t n = (uintptr_t)el_strmap_get(&seen, key) + 1;
        el_strmap_put(&seen, key, (void *)n);
        free(key);
        out[i] = el_xasprintf("%s:%lu", hex, (unsigned long)n);
    }
    context_clear(&last);
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
