/* migrate/register.c -- registering moved ops in their backend: an entry
 * in backends/<b>/kernels.def (created when missing), or in the
 * directory's eh_backend table for a kernel (move_ctx.h). */
#include "move_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_text.h"
#include "mem.h"
#include "path.h"
#include "rule.h"
#include "strbuf.h"

static const em_table *backend_table_in(ctx *c, const char *dir)
{
    for (size_t i = 0; i < c->t->n_tables; i++) {
        const em_table *tb = &c->t->tables[i];
        if (tb->kind != EM_TABLE_EH_BACKEND)
            continue;
        char *td = el_path_dirname(tb->path);
        bool same = !strcmp(td, dir);
        free(td);
        if (same)
            return tb;
    }
    return NULL;
}

static long op_index(const char *op)
{
    for (size_t i = 0; i < el_op_count(); i++)
        if (!strcmp(el_op_name(i), op))
            return (long)i;
    return -1;
}

/* Past a comment or a string starting at s[i], else past s[i]. */
static size_t skip_lexeme(const char *s, size_t n, size_t i)
{
    size_t j = el_text_skip_lexeme(s, n, i);
    return j == i ? i + 1 : j;
}

/* Register a kernel in an eh_backend table: `[EH_OP_op] = fn,` before the
 * closing brace of its kernels initializer, and a prototype after the
 * file's includes.  False when the initializer cannot be found. */
static bool register_in_table(ctx *c, const em_table *tb, const em_def *def)
{
    const em_text *tx = mv_text_of(c, tb->path);
    if (!tx)
        return false;
    const char *s = tx->data;
    size_t n = tx->len;
    size_t i = em_text_offset(tx, tb->line, 1);
    /* ".kernels" "=" "{" */
    const char *k = NULL;
    for (size_t j = i; j + 8 <= n; j = skip_lexeme(s, n, j))
        if (!strncmp(s + j, ".kernels", 8)) {
            k = s + j + 8;
            break;
        }
    if (!k)
        return false;
    size_t j = (size_t)(k - s);
    while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '='))
        j++;
    if (j >= n || s[j] != '{')
        return false;
    size_t open = j;
    int depth = 0;
    size_t close = n;
    for (j = open; j < n; j = skip_lexeme(s, n, j)) {
        if (s[j] == '{')
            depth++;
        else if (s[j] == '}' && --depth == 0) {
            close = j;
            break;
        }
    }
    if (close >= n)
        return false;
    size_t last = close;
    while (last > open + 1 && (s[last - 1] == ' ' || s[last - 1] == '\t' || s[last - 1] == '\n'))
        last--;
    /* the entry list must end in a comma before ours; an X-macro list
     * (an upper-case name, like EH_BLAS_TABLE_ENTRIES) ends in one */
    size_t id = last;
    while (id > open + 1 && (s[id - 1] == '_' || (s[id - 1] >= 'A' && s[id - 1] <= 'Z') ||
                             (s[id - 1] >= '0' && s[id - 1] <= '9')))
        id--;
    bool macro = id < last && (s[id - 1] == ' ' || s[id - 1] == '\t' || s[id - 1] == '\n' ||
                               s[id - 1] == '{' || s[id - 1] == ',');
    if (s[last - 1] != ',' && s[last - 1] != '{' && !macro) {
        char both[3] = {s[last - 1], ',', '\0'};
        el_edits_add(&c->out->edits, tb->path, last - 1, last, both, EM_GROUP_MOVE);
    }
    bool multiline = memchr(s + open, '\n', close - open) != NULL;
    char *entry;
    if (multiline) {
        /* a line of its own, indented like the line holding the last entry */
        size_t ls = last;
        while (ls > 0 && s[ls - 1] != '\n')
            ls--;
        size_t ind = 0;
        while (s[ls + ind] == ' ' || s[ls + ind] == '\t')
            ind++;
        if (s[last - 1] == '{')
            ind += 4;
        entry = el_xasprintf("\n%.*s[EH_OP_%s] = %s,", (int)ind, s + ls, def->op, def->name);
    } else {
        entry = el_xasprintf(" [EH_OP_%s] = %s,", def->op, def->name);
    }
    el_edits_add(&c->out->edits, tb->path, last, last, entry, EM_GROUP_MOVE);
    free(entry);
    size_t pi = mv_after_last_include(s, n);
    /* a paragraph of its own after the includes */
    char *proto = el_xasprintf("%seh_status %s(const eh_op_call *call);\n",
                               pi && pi < n && s[pi] == '\n' ? "\n" : "", def->name);
    el_edits_add(&c->out->edits, tb->path, pi, pi, proto, EM_GROUP_MOVE);
    free(proto);
    return true;
}

static kdef *get_kdef(ctx *c, const char *dir, const char *backend)
{
    char *path = el_xasprintf("%s/kernels.def", dir);
    for (size_t i = 0; i < c->n_kdefs; i++)
        if (!strcmp(c->kdefs[i].path, path)) {
            free(path);
            return &c->kdefs[i];
        }
    el_grow(&c->kdefs, &c->cap_kdefs, c->n_kdefs + 1, sizeof *c->kdefs);
    kdef *k = &c->kdefs[c->n_kdefs++];
    memset(k, 0, sizeof *k);
    k->path = path;
    snprintf(k->backend, sizeof k->backend, "%s", backend);
    return k;
}

void mv_register_op(ctx *c, const fplan *p, const em_def *def)
{
    char *dir = el_path_dirname(p->dest);
    const em_table *tb = backend_table_in(c, dir);
    char *owned = NULL;
    const char *disp = mv_display_of(c, def->path, &owned);
    if (def->signature && !def->is_kernel) {
        /* kernels.def promises eh_<op>'s signature: never register another */
        em_manuals_add(c->manual, disp, def->line, mv_def_col(c, def),
                       "%s moved into backends/%s/ but is not registered for op %s: %s; its "
                       "callers keep calling it (adapt it to the op, or give it a call "
                       "template)", def->name, def->backend, def->op, def->signature);
    } else if (tb && def->is_kernel) {
        long oi = op_index(def->op);
        const char *have = oi >= 0 && tb->functions ? tb->functions[oi] : NULL;
        if (oi >= 0 && tb->implemented && tb->implemented[oi]) {
            if (!have || strcmp(have, def->name))
                em_manuals_add(c->manual, disp, def->line, mv_def_col(c, def),
                               "%s moved, but backend %s's table already registers %s for op "
                               "%s: choose one by hand", def->name, tb->backend,
                               have ? have : "another kernel", def->op);
        } else if (!register_in_table(c, tb, def)) {
            em_manuals_add(c->manual, disp, def->line, mv_def_col(c, def),
                           "%s moved; register it in backend %s's table by hand (its kernels "
                           "initializer was not found)", def->name, tb->backend);
        }
    } else {
        kdef *k = get_kdef(c, dir, def->backend);
        el_grow(&k->v, &k->cap, k->n + 1, sizeof *k->v);
        kentry *e = &k->v[k->n++];
        snprintf(e->op, sizeof e->op, "%s", def->op);
        snprintf(e->fn, sizeof e->fn, "%s", def->name);
    }
    free(owned);
    free(dir);
}

static int cmp_kentry(const void *pa, const void *pb)
{
    const kentry *a = pa, *b = pb;
    int c = strcmp(a->op, b->op);
    return c ? c : strcmp(a->fn, b->fn);
}

static bool parse_kernel_line(const char *s, size_t n, char *op, size_t opn, char *fn, size_t fnn)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (n - i < 10 || strncmp(s + i, "EH_KERNEL", 9))
        return false;
    i += 9;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '(')
        return false;
    i++;
    while (i < n && s[i] == ' ')
        i++;
    size_t b = i;
    while (i < n && em_is_ident(s[i]))
        i++;
    snprintf(op, opn, "%.*s", (int)(i - b), s + b);
    while (i < n && (s[i] == ' ' || s[i] == ','))
        i++;
    b = i;
    while (i < n && em_is_ident(s[i]))
        i++;
    snprintf(fn, fnn, "%.*s", (int)(i - b), s + b);
    return op[0] && fn[0];
}

static const char kernels_def_header[] =
    "/* %s -- kernels of the `%s` backend,\n"
    " * one X-macro entry per op:\n"
    " *\n"
    " *     EH_KERNEL(op, function)\n"
    " *\n"
    " * op is an op of libeh/ops.def (its id EH_OP_<op>, its frontend eh_<op>),\n"
    " * function the backend's implementation of it.  A consumer defines\n"
    " * EH_KERNEL before including this file, e.g. for a table's entries:\n"
    " *\n"
    " *     #define EH_KERNEL(op, fn) [EH_OP_##op] = fn,\n"
    " *     #include \"kernels.def\"\n"
    " *     #undef EH_KERNEL\n"
    " *\n"
    " * Entries are sorted by op, one per op.  ember-migrate registers here the\n"
    " * implementations it moves out of legacy code. */\n";

int mv_emit_kdef(ctx *c, kdef *k)
{
    qsort(k->v, k->n, sizeof *k->v, cmp_kentry);
    char *rel = el_path_under(k->path, c->t->root);
    if (access(k->path, F_OK) != 0) {
        el_buf b = {0};
        el_buf_printf(&b, kernels_def_header, rel ? rel : el_path_base(k->path), k->backend);
        el_buf_putc(&b, '\n');
        const char *prev = "";
        for (size_t i = 0; i < k->n; i++) {
            if (!strcmp(prev, k->v[i].op))
                continue;
            el_buf_printf(&b, "EH_KERNEL(%s, %s)\n", k->v[i].op, k->v[i].fn);
            prev = k->v[i].op;
        }
        mv_add_create(c, k->path, &b, 0644);
        free(rel);
        return 0;
    }
    free(rel);
    const em_text *tx = em_texts_get(c->texts, k->path, NULL, c->err);
    if (!tx)
        return -1;
    /* existing entries, with the offset of each line */
    typedef struct { char op[64], fn[256]; size_t at; } line_t;
    line_t *lines = NULL;
    size_t nl = 0, cap = 0, end_last = tx->len;
    bool any = false;
    for (size_t ls = 0; ls < tx->len;) {
        size_t le = ls;
        while (le < tx->len && tx->data[le] != '\n')
            le++;
        line_t L;
        if (parse_kernel_line(tx->data + ls, le - ls, L.op, sizeof L.op, L.fn, sizeof L.fn)) {
            L.at = ls;
            el_grow(&lines, &cap, nl + 1, sizeof *lines);
            lines[nl++] = L;
            end_last = le < tx->len ? le + 1 : le;
            any = true;
        }
        ls = le + 1;
    }
    /* a file that does not end in a newline gets one before the entries */
    bool nl_first = !any && tx->len && tx->data[tx->len - 1] != '\n';
    for (size_t i = 0; i < k->n; i++) {
        const kentry *e = &k->v[i];
        if (i && !strcmp(k->v[i - 1].op, e->op))
            continue;
        bool have = false;
        for (size_t j = 0; j < nl && !have; j++)
            if (!strcmp(lines[j].op, e->op)) {
                have = true;
                if (strcmp(lines[j].fn, e->fn)) {
                    char *d = el_path_display(k->path);
                    em_manuals_add(c->manual, d, em_text_line(tx, lines[j].at), 1,
                                   "op %s is registered to %s here; %s moved into the same "
                                   "backend: choose one by hand", e->op, lines[j].fn, e->fn);
                    free(d);
                }
            }
        if (have)
            continue;
        size_t at = end_last;
        for (size_t j = 0; j < nl; j++)
            if (strcmp(lines[j].op, e->op) > 0) {
                at = lines[j].at;
                break;
            }
        char *txt = el_xasprintf("%sEH_KERNEL(%s, %s)\n", nl_first ? "\n" : "", e->op, e->fn);
        nl_first = false;
        el_edits_add(&c->out->edits, k->path, at, at, txt, EM_GROUP_MOVE);
        free(txt);
    }
    free(lines);
    return 0;
}

/* Insertions at one offset go in one edit (edit.h keeps one per range). */
