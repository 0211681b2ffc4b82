/* migrate/includes.c -- the #include lines of moved code: parsing them,
 * what they name, and re-spelling them so that they reach the same files
 * from a file's new place (move_ctx.h); and em_relpath (moves.h). */
#include "move_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

char *em_relpath(const char *from_dir, const char *to)
{
    /* the longest common prefix that ends at a directory boundary */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        char a = from_dir[i], b = to[i];
        if ((a == '/' || !a) && (b == '/' || !b))
            common = i;
        if (!a || !b || a != b)
            break;
    }
    el_buf o = {0};
    /* one ".." per component of from_dir below the common part */
    for (const char *p = from_dir + common; *p; p++)
        if (*p == '/' && p[1])
            el_buf_puts(&o, "../");
    const char *rest = to + common;
    while (*rest == '/')
        rest++;
    el_buf_puts(&o, rest);
    if (!o.n)
        el_buf_puts(&o, ".");
    return el_buf_take(&o);
}

/* Lexically normalized "dir/rel". */
char *mv_join_norm(const char *dir, const char *rel)
{
    char *j = el_path_join(dir, rel);
    char *n = el_path_abs(j);
    free(j);
    return n;
}

/* What an include names, as seen from a file in dir: "<x>" for angled
 * includes, the normalized path for quoted ones. */
char *mv_include_key(const char *dir, bool angled, const char *name, size_t n)
{
    char *spelled = el_xstrndup(name, n);
    char *k;
    if (angled) {
        k = el_xasprintf("<%s>", spelled);
    } else {
        k = mv_join_norm(dir, spelled);
    }
    free(spelled);
    return k;
}

bool mv_dest_has_key(const dest *d, const char *k)
{
    for (size_t i = 0; i < d->n_keys; i++)
        if (!strcmp(d->keys[i], k))
            return true;
    return false;
}

void mv_dest_add_key(dest *d, char *k)
{
    el_grow(&d->keys, &d->cap_keys, d->n_keys + 1, sizeof *d->keys);
    d->keys[d->n_keys++] = k;
}

/* The next #include line of s[0..n) from *at on (its end, '\n' or n, in
 * *end; *at moves past it): false when there is none. */
static bool next_include(const char *s, size_t n, size_t *at, size_t *end, bool *angled,
                         const char **name, size_t *name_len)
{
    while (*at < n) {
        size_t ls = *at, le = ls;
        while (le < n && s[le] != '\n')
            le++;
        *at = le + 1;
        if (el_include_line(s + ls, le - ls, angled, name, name_len)) {
            *end = le;
            return true;
        }
    }
    return false;
}

/* Offset just past the last #include line of text (0 when none). */
size_t mv_after_last_include(const char *s, size_t n)
{
    size_t pos = 0, at = 0, le, nn;
    bool a;
    const char *nm;
    while (next_include(s, n, &at, &le, &a, &nm, &nn))
        pos = le < n ? le + 1 : le;
    return pos;
}

void mv_keys_from_text(dest *d, const char *s, size_t n)
{
    char *dir = el_path_dirname(d->path);
    size_t at = 0, le, nn;
    bool a;
    const char *nm;
    while (next_include(s, n, &at, &le, &a, &nm, &nn))
        mv_dest_add_key(d, mv_include_key(dir, a, nm, nn));
    free(dir);
}

/* Where a file is after the moves (itself when it does not move). */
static const char *new_location(ctx *c, const char *path)
{
    size_t fi = mv_file_index(c->t, path);
    if (fi != (size_t)-1 && c->fp[fi].whole)
        return c->fp[fi].dest;
    return path;
}

/* The spelling an include needs in a file at new_includer to reach the
 * same file after the moves; NULL when the present one still does.  A
 * quoted include that was found next to its includer stays relative; one
 * found through the include path keeps its spelling unless its target
 * moved (then it is re-spelled against the same include directory). */
char *mv_respell(ctx *c, const em_include *inc, const char *new_includer, bool *angled)
{
    *angled = inc->angled;
    if (!inc->resolved)
        return NULL;
    const char *target = new_location(c, inc->resolved);
    bool moved = strcmp(target, inc->resolved) != 0;
    char *old_dir = el_path_dirname(inc->path);
    char *next = el_path_join(old_dir, inc->spelled);
    char *real = el_path_real(next);
    bool relative = !inc->angled && real && !strcmp(real, inc->resolved);
    free(real);
    free(next);
    free(old_dir);
    char *spelled = NULL;
    if (relative) {
        char *nd = el_path_dirname(new_includer);
        spelled = em_relpath(nd, target);
        free(nd);
    } else if (moved) {
        size_t rl = strlen(inc->resolved), sl = strlen(inc->spelled);
        if (rl > sl && !strcmp(inc->resolved + rl - sl, inc->spelled) &&
            inc->resolved[rl - sl - 1] == '/') {
            char *base = el_xstrndup(inc->resolved, rl - sl - 1);
            char *under = el_path_under(target, base);
            free(base);
            if (under && strncmp(under, "..", 2))
                spelled = under;
            else
                free(under);
        }
        if (!spelled) {
            char *nd = el_path_dirname(new_includer);
            spelled = em_relpath(nd, target);
            free(nd);
            *angled = false;
        }
    } else {
        return NULL;
    }
    if (*angled == inc->angled && !strcmp(spelled, inc->spelled)) {
        free(spelled);
        return NULL;
    }
    return spelled;
}

/* The byte range of `"spelled"` / `<spelled>` in the directive's line. */
bool mv_spelled_range(const em_text *tx, const em_include *inc, size_t *b, size_t *e)
{
    size_t n = strlen(inc->spelled);
    char open = inc->angled ? '<' : '"', close = inc->angled ? '>' : '"';
    for (size_t i = inc->begin; i + n + 2 <= inc->end && i + n + 2 <= tx->len; i++)
        if (tx->data[i] == open && !memcmp(tx->data + i + 1, inc->spelled, n) &&
            tx->data[i + 1 + n] == close) {
            *b = i;
            *e = i + n + 2;
            return true;
        }
    return false;
}

/* The directive's line as it must read in a file at new_includer. */
char *mv_include_line(ctx *c, const em_text *tx, const em_include *inc,
                      const char *new_includer)
{
    size_t end = inc->end <= tx->len ? inc->end : tx->len;
    char *line = el_xstrndup(tx->data + inc->begin, end - inc->begin);
    if (!end || tx->data[end - 1] != '\n') {
        char *l2 = el_xasprintf("%s\n", line);
        free(line);
        line = l2;
    }
    bool angled;
    char *sp = mv_respell(c, inc, new_includer, &angled);
    size_t b, e;
    if (sp && mv_spelled_range(tx, inc, &b, &e)) {
        el_buf o = {0};
        el_buf_putn(&o, line, b - inc->begin);
        el_buf_printf(&o, angled ? "<%s>" : "\"%s\"", sp);
        el_buf_puts(&o, line + (e - inc->begin));
        free(line);
        line = el_buf_take(&o);
    }
    free(sp);
    return line;
}
