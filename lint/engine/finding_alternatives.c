/* lint/engine/finding_alternatives.c -- the names one place's merged
 * findings gave (finding_alternatives.h). */
#include "finding_alternatives.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"

#define OPEN " (or "
#define CLOSE ", where this line is compiled again)"
#define MAX_QUOTED 32

/* A message apart: its text without an earlier merge's list, the quoted
 * names in it ([b, e) of base, quotes included), and that list. */
typedef struct parsed {
    char *base;
    size_t n_quoted;
    size_t b[MAX_QUOTED], e[MAX_QUOTED];
    char **alts;
    size_t n_alts;
    size_t alts_at; /* the quoted name the list followed */
} parsed;

static void add_name(char ***v, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*v)[i]) == len && strncmp((*v)[i], s, len) == 0)
            return;
    *v = el_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = el_xstrndup(s, len);
}

/* The names of a list "'a', 'b'" at s[0..n), or false when it is not one. */
static bool list_names(const char *s, size_t n, char ***v, size_t *count)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] != '\'')
            return false;
        const char *q = memchr(s + i + 1, '\'', n - i - 1);
        if (!q)
            return false;
        add_name(v, count, s + i, (size_t)(q - s) + 1 - i);
        i = (size_t)(q - s) + 1;
        if (i < n) {
            if (n - i < 2 || s[i] != ',' || s[i + 1] != ' ')
                return false;
            i += 2;
        }
    }
    return *count > 0;
}

/* The earlier list right after the quote that ends at base[at), if any:
 * taken out of base and into p. */
static void take_list(parsed *p, size_t at, size_t quoted)
{
    char *s = p->base + at;
    size_t open = strlen(OPEN);
    if (strncmp(s, OPEN, open) != 0)
        return;
    char *close = strstr(s + open, CLOSE);
    if (!close)
        return;
    char **v = NULL;
    size_t n = 0;
    if (!list_names(s + open, (size_t)(close - s) - open, &v, &n)) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return;
    }
    memmove(s, close + strlen(CLOSE), strlen(close + strlen(CLOSE)) + 1);
    p->alts = v;
    p->n_alts = n;
    p->alts_at = quoted;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The next quote at or after s that opens a name (not one inside a word:
 * "blas's"), and the one that closes it (not followed by a word). */
static char *opening_quote(char *base, char *s)
{
    for (char *q = strchr(s, '\''); q; q = strchr(q + 1, '\''))
        if (q == base || !word_char(q[-1]))
            return q;
    return NULL;
}

static char *closing_quote(char *s)
{
    for (char *r = strchr(s, '\''); r; r = strchr(r + 1, '\''))
        if (!word_char(r[1]))
            return r;
    return NULL;
}

static bool parse(const char *msg, parsed *p)
{
    memset(p, 0, sizeof *p);
    p->base = el_xstrdup(msg);
    for (size_t i = 0; p->base[i];) {
        char *q = opening_quote(p->base, p->base + i);
        char *r = q ? closing_quote(q + 1) : NULL;
        if (!r)
            break;
        if (p->n_quoted == MAX_QUOTED)
            return false;
        p->b[p->n_quoted] = (size_t)(q - p->base);
        p->e[p->n_quoted] = (size_t)(r - p->base) + 1;
        if (!p->alts)
            take_list(p, p->e[p->n_quoted], p->n_quoted);
        i = p->e[p->n_quoted++];
    }
    return true;
}

static void parsed_free(parsed *p)
{
    free(p->base);
    for (size_t i = 0; i < p->n_alts; i++)
        free(p->alts[i]);
    free(p->alts);
}

static bool same_span(const parsed *a, size_t ab, size_t ae, const parsed *b, size_t bb, size_t be)
{
    return ae - ab == be - bb && strncmp(a->base + ab, b->base + bb, ae - ab) == 0;
}

/* The first quoted name where b differs from a, n_quoted when none;
 * (size_t)-1 when their text outside the names differs. */
static size_t first_difference(const parsed *a, const parsed *b)
{
    if (a->n_quoted != b->n_quoted)
        return (size_t)-1;
    size_t ta = 0, tb = 0;
    for (size_t k = 0; k < a->n_quoted; k++) {
        if (!same_span(a, ta, a->b[k], b, tb, b->b[k]))
            return (size_t)-1;
        ta = a->e[k];
        tb = b->e[k];
    }
    if (strcmp(a->base + ta, b->base + tb) != 0)
        return (size_t)-1;
    for (size_t k = 0; k < a->n_quoted; k++)
        if (!same_span(a, a->b[k], a->e[k], b, b->b[k], b->e[k]))
            return k;
    return a->n_quoted;
}

static int cmp_str(const void *pa, const void *pb)
{
    return strcmp(*(char *const *)pa, *(char *const *)pb);
}

/* Every name other gives at kept's quoted name d, kept's own aside. */
static void gather(const parsed *kept, const parsed *other, size_t d, char ***v, size_t *n)
{
    const char *own = kept->base + kept->b[d];
    size_t own_len = kept->e[d] - kept->b[d];
    if (other->alts_at == d)
        for (size_t i = 0; i < other->n_alts; i++)
            if (strlen(other->alts[i]) != own_len || strncmp(other->alts[i], own, own_len) != 0)
                add_name(v, n, other->alts[i], strlen(other->alts[i]));
    if (!same_span(kept, kept->b[d], kept->e[d], other, other->b[d], other->e[d]))
        add_name(v, n, other->base + other->b[d], other->e[d] - other->b[d]);
}

char *el_message_with_alternatives(const char *kept, const char *const *others, size_t n)
{
    parsed k;
    if (!parse(kept, &k)) {
        parsed_free(&k);
        return NULL;
    }
    size_t d = k.n_alts ? k.alts_at : (size_t)-1;
    char **names = NULL;
    size_t n_names = 0;
    for (size_t i = 0; i < k.n_alts; i++)
        add_name(&names, &n_names, k.alts[i], strlen(k.alts[i]));
    for (size_t i = 0; i < n; i++) {
        parsed o;
        if (parse(others[i], &o)) {
            size_t at = first_difference(&k, &o);
            if (at == k.n_quoted && o.n_alts)
                at = o.alts_at; /* the same names, and a list of its own */
            if (at < k.n_quoted && (d == (size_t)-1 || d == at)) {
                d = at;
                gather(&k, &o, d, &names, &n_names);
            }
        }
        parsed_free(&o);
    }
    char *out = NULL;
    if (n_names) {
        qsort(names, n_names, sizeof *names, cmp_str);
        el_buf b = {0};
        el_buf_putn(&b, k.base, k.e[d]);
        el_buf_puts(&b, OPEN);
        for (size_t i = 0; i < n_names; i++) {
            if (i)
                el_buf_puts(&b, ", ");
            el_buf_puts(&b, names[i]);
        }
        el_buf_puts(&b, CLOSE);
        el_buf_puts(&b, k.base + k.e[d]);
        out = el_buf_take(&b);
    }
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    parsed_free(&k);
    return out;
}
