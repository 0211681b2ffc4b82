/* lint/rules/backend_branch/directive_memo.c -- the conditional and
 * #define directives of a project file, read from its text once a thread
 * (a project header is read by every TU that includes it: reading its
 * text from libclang and scanning it per TU cost more than the rest of
 * EH103's derived macros together). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch.h"
#include "c_text.h"
#include "config.h"
#include "mem.h"
#include "strbuf.h"
#include "strmap.h"

static pthread_key_t key;
static bool have_key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void free_file(const char *path, void *v, void *ud)
{
    (void)path;
    (void)ud;
    bb_directives *d = v;
    for (size_t i = 0; i < d->n; i++) {
        free(d->v[i].words);
        free(d->v[i].backend_word);
    }
    free(d->v);
    free(d);
}

static void free_memo(void *p)
{
    el_strmap *m = p;
    el_strmap_each(m, free_file, NULL);
    el_strmap_free(m);
    free(m);
}

static void make_key(void)
{
    have_key = pthread_key_create(&key, free_memo) == 0; /* else no memo */
}

static el_strmap *memo(void)
{
    pthread_once(&once, make_key);
    if (!have_key)
        return NULL;
    el_strmap *m = pthread_getspecific(key);
    if (!m) {
        m = el_xcalloc(1, sizeof *m);
        if (pthread_setspecific(key, m) != 0) {
            free(m);
            return NULL;
        }
    }
    return m;
}

/* The directive's kind by its name, or -1 for one that does not count. */
static int kind_of(const char *t, size_t b, size_t e)
{
    static const struct {
        const char *name;
        bb_directive_kind kind;
    } names[] = {{"if", BB_OPEN},     {"ifdef", BB_OPEN},  {"ifndef", BB_OPEN},
                 {"elif", BB_ELIF},   {"elifdef", BB_ELIF}, {"elifndef", BB_ELIF},
                 {"else", BB_ELSE},   {"endif", BB_ENDIF}, {"define", BB_DEFINE},
                 {"error", BB_ERROR}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strlen(names[k].name) == e - b && memcmp(t + b, names[k].name, e - b) == 0)
            return (int)names[k].kind;
    return -1;
}

/* The identifiers of t[i..le) (comments and literals passed over),
 * separated by spaces; for #define the macro's name alone. */
static char *words_of(const char *t, size_t i, size_t le, bool first_only)
{
    el_buf b = {0};
    while (i < le) {
        size_t j = el_text_skip_lexeme(t, le, i), e = 0;
        if (j != i) {
            i = j;
        } else if (el_text_ident_at(t, le, i, &e)) {
            if (b.n)
                el_buf_putc(&b, ' ');
            el_buf_putn(&b, t + i, e - i);
            i = e;
            if (first_only)
                break;
        } else {
            i++;
        }
    }
    if (!b.n)
        return el_xstrdup("");
    return el_buf_take(&b);
}

/* The condition t[i..le) of the #if, #ifdef or #ifndef `dir`: `0`
 * alone, or one macro's absence (#ifndef X, #if !defined(X), #if
 * !defined X: words becomes X). */
static void condition_shape(bb_directive *x, const char *dir, const char *t, size_t i, size_t le)
{
    char c[128];
    size_t n = 0;
    while (i < le && n + 1 < sizeof c) { /* the condition, blanks and comments out */
        size_t j = el_text_skip_lexeme(t, le, i);
        if (j != i && t[i] == '/') {
            i = j;
            continue;
        }
        if (!strchr(" \t\r\n\\", t[i]))
            c[n++] = t[i];
        i++;
    }
    c[n] = '\0';
    const char *sp = strchr(x->words, ' ');
    bool one_word = x->words[0] && !sp;
    bool defined_one = sp && sp - x->words == 7 && !strncmp(x->words, "defined", 7) &&
                       !strchr(sp + 1, ' ');
    bool is_if = !strcmp(dir, "if");
    x->zero = is_if && !strcmp(c, "0");
    x->negated = (!strcmp(dir, "ifndef") && one_word) ||
                 (is_if && defined_one && !strncmp(c, "!defined", 8) && !strchr(c, '&') &&
                  !strchr(c, '|'));
    if (x->negated && defined_one) {
        char *w = el_xstrdup(sp + 1);
        free(x->words);
        x->words = w;
    }
}

static bb_directives *read_directives(const char *t, size_t n)
{
    bb_directives *d = el_xcalloc(1, sizeof *d);
    size_t cap = 0;
    unsigned line = 1;
    size_t counted = 0; /* newlines counted up to here */
    for (size_t i = 0, le = 0; (i = el_text_next_directive(t, n, i, &le)) < n; i = le) {
        for (; counted < i; counted++)
            line += t[counted] == '\n';
        size_t b = el_text_skip_blanks(t, le, i + 1), e = b;
        while (e < le && el_text_ident_char(t[e]))
            e++;
        int k = kind_of(t, b, e);
        if (k < 0)
            continue;
        el_grow(&d->v, &cap, d->n + 1, sizeof *d->v);
        bb_directive *x = &d->v[d->n++];
        *x = (bb_directive){.kind = (bb_directive_kind)k, .line = line,
                            .words = words_of(t, e, le, k == BB_DEFINE)};
        if (k == BB_OPEN) {
            char dir[8];
            snprintf(dir, sizeof dir, "%.*s", (int)(e - b), t + b);
            condition_shape(x, dir, t, e, le);
        }
    }
    return d;
}

bb_directives *bb_directives_of(el_ctx *ctx, CXFile f, const char *path)
{
    el_strmap *m = path ? memo() : NULL;
    bb_directives *d = m ? el_strmap_get(m, path) : NULL;
    if (d)
        return d;
    size_t size = 0;
    const char *text = el_file_text(ctx, f, &size);
    d = read_directives(text ? text : "", text ? size : 0);
    if (m)
        el_strmap_put(m, path, d);
    return d;
}

void bb_directives_release(bb_directives *d, const char *path)
{
    if (path && memo())
        return; /* the memo's */
    free_file(NULL, d, NULL);
}

bool bb_next_word(const char **p, char *id, size_t n)
{
    if (!**p)
        return false;
    size_t l = strcspn(*p, " ");
    snprintf(id, n, "%.*s", (int)l, *p);
    *p += l + ((*p)[l] == ' ');
    return true;
}

const char *bb_directive_backend_word(bb_directive *x, const el_config *cfg)
{
    if (x->asked != cfg) {
        free(x->backend_word);
        x->backend_word = NULL;
        x->asked = cfg;
        char id[128];
        for (const char *w = x->words; bb_next_word(&w, id, sizeof id);)
            if (strcmp(id, "defined") != 0 && el_config_is_backend_macro(cfg, id)) {
                x->backend_word = el_xstrdup(id);
                break;
            }
    }
    return x->backend_word;
}
