/* migrate/headers.c -- lexing legacy headers: which functions a header
 * declares, to tell a header that only declares moved functions (it moves
 * too) from one that declares more (move_ctx.h). */
#include "move_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"

/* The names of a header's top-level function declarations; *other is
 * set when it declares anything else (types, variables, definitions
 * that are not plain prototypes).  Comments, strings and preprocessor
 * lines are skipped. */
char **mv_header_decls(const char *s, size_t n, size_t *count, bool *other)
{
    char **names = NULL;
    size_t nn = 0, cap = 0;
    *other = false;
    el_buf stmt = {0};
    int depth = 0;
    bool line_start = true;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 1 : n;
            el_buf_putc(&stmt, ' ');
            continue;
        }
        if (ch == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
            line_start = true;
            continue;
        }
        if (line_start && ch == '#') {
            while (i < n && !(s[i] == '\n' && s[i - 1] != '\\'))
                i++;
            line_start = true;
            continue;
        }
        if (ch == '\n') {
            line_start = true;
            el_buf_putc(&stmt, ' ');
            continue;
        }
        if (ch != ' ' && ch != '\t')
            line_start = false;
        if (ch == '"' || ch == '\'') {
            for (i++; i < n && s[i] != ch; i++)
                if (s[i] == '\\')
                    i++;
            el_buf_puts(&stmt, "0");
            continue;
        }
        if (ch == '{') {
            depth++;
            *other = true;     /* a body or a type: not a plain prototype */
        } else if (ch == '}') {
            depth--;
        }
        el_buf_putc(&stmt, ch);
        if (ch == ';' && depth == 0) {
            const char *st = el_buf_str(&stmt);
            const char *paren = strchr(st, '(');
            bool typedef_ = strstr(st, "typedef") != NULL;
            if (!paren || typedef_) {
                *other = true;
            } else {
                const char *e = paren;
                while (e > st && e[-1] == ' ')
                    e--;
                const char *b = e;
                while (b > st && em_is_ident(b[-1]))
                    b--;
                if (b == e) {
                    *other = true;     /* (*fp)(...) and the like */
                } else {
                    el_grow(&names, &cap, nn + 1, sizeof *names);
                    names[nn++] = el_xstrndup(b, (size_t)(e - b));
                }
            }
            stmt.n = 0;
            if (stmt.s)
                stmt.s[0] = '\0';
        }
    }
    /* text left after the last ';' that is more than blanks */
    for (const char *p = el_buf_str(&stmt); *p; p++)
        if (*p != ' ' && *p != '\t')
            *other = true;
    el_buf_free(&stmt);
    *count = nn;
    return names;
}

bool mv_header_declares(ctx *c, const char *header, const char *name)
{
    char *err = NULL;
    size_t fi = mv_file_index(c->t, header);
    const em_text *tx =
        em_texts_get(c->texts, header, fi != (size_t)-1 ? &c->t->files[fi].hash : NULL, &err);
    free(err);
    if (!tx)
        return false;
    size_t n;
    bool other;
    char **names = mv_header_decls(tx->data, tx->len, &n, &other);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found |= !strcmp(names[i], name);
    mv_free_strs(names, n);
    return found;
}
