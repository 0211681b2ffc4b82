/* migrate/analyze.c -- `ember-migrate analyze`: the op x backend matrix
 * read from source (em_scan), in text, markdown or JSON
 * (docs/ember-migrate.md describes all three).
 *
 * A backend implements an op when
 *   table    a registration table of the backend registers a kernel for
 *            it (an eh_backend initializer, or backends/<b>/kernels.def),
 *   legacy   else, eh_<b>_<op> is defined outside backends/ (ops/<b>/...),
 *   defined  else, eh_<b>_<op> is defined in backends/<b>/ but no table
 *            registers it.
 * META ops are left out, as EH105 does: the frontend answers them.  The
 * rows are the ops some backend implements (every op with --all-ops, the
 * --op ones when given); "missing" lists, per backend, the rows it lacks:
 * an op is missing from a backend when another scanned backend implements
 * it (or it was asked for with --all-ops / --op), so a small application
 * is not told about the hundred ops none of its backends has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "custom_ops.h"
#include "mem.h"
#include "moves.h"
#include "options.h"
#include "path.h"
#include "rule.h"
#include "scan.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

/* what the text and markdown reports say instead of an empty table */
#define NO_BACKEND "no backend found (no backends/<name>/ or legacy directory, table or " \
                   "eh_<backend>_<op> definition)"

typedef enum mark { MARK_NONE, MARK_TABLE, MARK_LEGACY, MARK_DEFINED } mark;
static const char *const mark_text[] = {"-", "table", "legacy", "defined"};
static const char *const mark_json[] = {"missing", "table", "legacy", "defined"};

typedef struct matrix {
    const em_tree *t;
    const char **backends;   /* selected backends of the tree */
    size_t nb;
    size_t *ops;             /* selected non-META ops (indexes) */
    size_t n_ops;
    mark *m;                 /* [op slot * nb + backend] */
    bool *row;               /* per op slot: shown */
    size_t n_rows;
    em_moves mv;             /* what plan moves: the "to move" list */
    em_customs customs;      /* the custom ops plan makes (custom_ops.h) */
    size_t n_parse_errors;
    bool all_rows;           /* --all-ops or --op: rows not only for implemented ops */
} matrix;

static mark mark_of(const em_tree *t, const char *backend, size_t op)
{
    for (size_t i = 0; i < t->n_tables; i++)
        if (strcmp(t->tables[i].backend, backend) == 0 && t->tables[i].implemented[op])
            return MARK_TABLE;
    mark m = MARK_NONE;
    for (size_t i = 0; i < t->n_defs; i++) {
        const em_def *d = &t->defs[i];
        if (!d->is_function || strcmp(d->backend, backend) != 0 || strcmp(d->op, el_op_name(op)) != 0)
            continue;
        if (!d->in_backends)
            return MARK_LEGACY;
        m = MARK_DEFINED;
    }
    return m;
}

static void build(matrix *x, const em_tree *t, const em_opts *o)
{
    memset(x, 0, sizeof *x);
    x->t = t;
    x->backends = el_xcalloc(t->n_backends + 1, sizeof *x->backends);
    for (size_t i = 0; i < t->n_backends; i++)
        if (em_backend_selected(o, t->backends[i]))
            x->backends[x->nb++] = t->backends[i];
    x->ops = el_xcalloc(el_op_count() + 1, sizeof *x->ops);
    for (size_t k = 0; k < el_op_count(); k++)
        if (strcmp(el_op_kind(k), "META") != 0 && em_op_selected(o, el_op_name(k)))
            x->ops[x->n_ops++] = k;
    x->m = el_xcalloc(x->n_ops * x->nb + 1, sizeof *x->m);
    x->row = el_xcalloc(x->n_ops + 1, sizeof *x->row);
    x->all_rows = o->all_ops || o->n_ops > 0;
    for (size_t r = 0; r < x->n_ops; r++) {
        bool any = false;
        for (size_t b = 0; b < x->nb; b++) {
            x->m[r * x->nb + b] = mark_of(t, x->backends[b], x->ops[r]);
            any |= x->m[r * x->nb + b] != MARK_NONE;
        }
        x->row[r] = any || o->all_ops || o->n_ops > 0;
        x->n_rows += x->row[r];
    }
    for (size_t i = 0; i < t->n_files; i++)
        x->n_parse_errors += t->files[i].parse_error;
}

/* "to move" is what plan moves: the same computation (migrate/moves.h). */
static int compute_moves(matrix *x, const em_tree *t, const em_opts *o)
{
    em_select sel;
    em_opts_select(o, &sel);
    em_customs_compute(o, t, &x->customs);
    sel.customs = &x->customs;
    em_texts texts = {0};
    em_manuals manual = {0};
    char *err = NULL;
    int rc = em_moves_compute(t, &sel, &texts, &x->mv, &manual, &err);
    if (rc < 0) {
        fprintf(stderr, "ember-migrate: %s\n", err);
        free(err);
    }
    em_manuals_free(&manual);
    em_texts_free(&texts);
    return rc;
}

static void matrix_free(matrix *x)
{
    free(x->backends);
    free(x->ops);
    free(x->m);
    free(x->row);
    em_moves_free(&x->mv);
    em_customs_free(&x->customs);
}

/* Is op slot r missing from backend b?  Only shown rows count. */
static bool is_missing(const matrix *x, size_t r, size_t b)
{
    return x->row[r] && x->m[r * x->nb + b] == MARK_NONE;
}

static size_t missing_count(const matrix *x, size_t b)
{
    size_t n = 0;
    for (size_t r = 0; r < x->n_ops; r++)
        n += is_missing(x, r, b);
    return n;
}

/* How a file is shown: as the scan shows it, else (kernels.def is not a
 * source) relative to the current directory, in *own (replaced by the
 * next call, freed by the caller). */
static const char *show_path(const em_tree *t, const char *path, char **own)
{
    const em_file *f = em_tree_file(t, path);
    if (f)
        return f->display;
    free(*own);
    return *own = el_path_display(path);
}

/* Is backend one of the matrix's columns? */
static bool backend_shown(const matrix *x, const char *backend)
{
    for (size_t b = 0; b < x->nb; b++)
        if (strcmp(x->backends[b], backend) == 0)
            return true;
    return false;
}

static const char *table_kind(const em_table *tb)
{
    return tb->kind == EM_TABLE_KERNELS_DEF ? "kernels.def" : "eh_backend";
}

/* The definitions to move, a line each: text, or a markdown table's rows. */
/* What a moved definition is: its op, or a helper (static), copied or not. */
static const char *role_of(const matrix *x, const em_moved_def *m)
{
    const em_custom_op *c = em_customs_kernel_op(&x->customs, m->def);
    if (c)
        return c->full;
    const em_custom_reject *r = em_customs_reject_of(&x->customs, m->def);
    if (r && r->deferred)
        return "custom op, made once every backend is migrated";
    return m->def->op[0] ? m->def->op : m->copied ? "helper, copied" : "helper";
}

/* The custom ops plan makes, and the names that cannot become one. */
static void print_customs(FILE *out, const matrix *x, bool markdown)
{
    const em_customs *c = &x->customs;
    for (size_t i = 0; i < c->n_ops; i++) {
        const em_custom_op *op = &c->ops[i];
        fprintf(out, markdown ? "- `%s`, called through `%s`: kernels for " : "  %s (called through %s): kernels for ",
                op->full, op->wrapper);
        for (size_t k = 0; k < op->n_kernels; k++)
            fprintf(out, "%s%s", k ? ", " : "", op->kernels[k].fn->backend);
        fprintf(out, "; fallback %s\n", op->fallback);
    }
    for (size_t i = 0; i < c->n_rejects; i++)
        fprintf(out, markdown ? "- `%s` does not become a custom op: %s\n" : "  %s: not a custom op: %s\n",
                c->rejects[i].name, c->rejects[i].why);
    if (!c->n_ops && !c->n_rejects)
        fputs(markdown ? "None.\n" : "  none\n", out);
}

static void print_moves(FILE *out, const matrix *x, bool markdown, char **own)
{
    for (size_t i = 0; i < x->mv.n_defs_moved; i++) {
        const em_moved_def *m = &x->mv.defs_moved[i];
        const em_def *d = m->def;
        const char *where = show_path(x->t, d->path, own), *op = role_of(x, m);
        char *dest = el_path_display(m->dest);
        if (markdown)
            fprintf(out, "| `%s` | %s:%u | %s | %s | %s |\n", d->name, where, d->line, d->backend,
                    op, dest);
        else
            fprintf(out, "  %s:%u: %s (%s, %s) -> %s\n", where, d->line, d->name, d->backend, op,
                    dest);
        free(dest);
    }
}

/* The parse errors (EH000 findings), a line each after `bullet`. */
static void print_parse_errors(FILE *out, const matrix *x, const char *bullet, char **own)
{
    for (size_t i = 0; i < x->t->findings.n; i++) {
        const el_finding *f = &x->t->findings.v[i];
        if (strcmp(f->rule, "EH000") == 0)
            fprintf(out, "%s%s:%u:%u: %s\n", bullet, show_path(x->t, f->file, own), f->line, f->col,
                    f->message);
    }
}

/* ---- text ---------------------------------------------------------------- */

static void print_wrapped_ops(FILE *out, const matrix *x, size_t b)
{
    size_t col = 4;
    fputs("   ", out);
    for (size_t r = 0; r < x->n_ops; r++) {
        if (!is_missing(x, r, b))
            continue;
        const char *name = el_op_name(x->ops[r]);
        size_t len = strlen(name);
        if (col + len + 1 > 78) {
            fputs("\n   ", out);
            col = 4;
        }
        fprintf(out, " %s", name);
        col += len + 1;
    }
    fputc('\n', out);
}

static void print_text(FILE *out, const matrix *x)
{
    char *own = NULL;
    const em_tree *t = x->t;
    size_t opw = 2, w = 7; /* "defined" */
    for (size_t r = 0; r < x->n_ops; r++)
        if (x->row[r] && strlen(el_op_name(x->ops[r])) > opw)
            opw = strlen(el_op_name(x->ops[r]));
    for (size_t b = 0; b < x->nb; b++)
        if (strlen(x->backends[b]) > w)
            w = strlen(x->backends[b]);

    fprintf(out, "op x backend (%zu of %zu ops shown%s)\n\n", x->n_rows, x->n_ops,
            x->n_rows < x->n_ops ? ": those some backend implements; --all-ops for all" : "");
    if (x->nb == 0) {
        fputs(NO_BACKEND "\n", out);
    } else {
        fprintf(out, "%-*s", (int)opw, "op");
        for (size_t b = 0; b < x->nb; b++)
            fprintf(out, "  %-*s", b + 1 < x->nb ? (int)w : 0, x->backends[b]);
        fputc('\n', out);
        for (size_t i = 0; i < opw; i++)
            fputc('-', out);
        for (size_t b = 0; b < x->nb; b++) {
            fputs("  ", out);
            for (size_t i = 0; i < w; i++)
                fputc('-', out);
        }
        fputc('\n', out);
        for (size_t r = 0; r < x->n_ops; r++) { /* the last column is not padded */
            if (!x->row[r])
                continue;
            fprintf(out, "%-*s", (int)opw, el_op_name(x->ops[r]));
            for (size_t b = 0; b < x->nb; b++) {
                const char *m = mark_text[x->m[r * x->nb + b]];
                if (b + 1 < x->nb)
                    fprintf(out, "  %-*s", (int)w, m);
                else
                    fprintf(out, "  %s", m);
            }
            fputc('\n', out);
        }
    }

    fputs("\ntables:\n", out);
    size_t shown = 0;
    for (size_t i = 0; i < t->n_tables; i++) {
        const em_table *tb = &t->tables[i];
        if (!backend_shown(x, tb->backend))
            continue;
        fprintf(out, "  %s: %s:%u (%s%s%s)\n", tb->backend, show_path(t, tb->path, &own), tb->line,
                table_kind(tb), tb->var ? " " : "", tb->var ? tb->var : "");
        shown++;
    }
    if (!shown)
        fputs("  none\n", out);

    fputs(x->all_rows ? "\nmissing (ops of libeh/ops.def a backend does not implement):\n"
                      : "\nmissing (ops another backend implements and this one does not):\n",
          out);
    shown = 0;
    for (size_t b = 0; b < x->nb; b++) {
        size_t n = missing_count(x, b);
        if (!n)
            continue;
        fprintf(out, "  %s: %zu op%s:\n", x->backends[b], n, n == 1 ? "" : "s");
        print_wrapped_ops(out, x, b);
        shown++;
    }
    if (!shown)
        fputs("  none\n", out);

    fputs("\nto move (backend code outside backends/):\n", out);
    print_moves(out, x, false, &own);
    if (!x->mv.n_defs_moved)
        fputs("  none\n", out);

    fputs("\ncustom ops (backend functions with no libeh op, made ops of the application):\n", out);
    print_customs(out, x, false);

    if (x->n_parse_errors) {
        fputs("\nparse errors (these files were read only as far as libclang could):\n", out);
        print_parse_errors(out, x, "  ", &own);
    }
    free(own);
}

/* ---- markdown ------------------------------------------------------------ */

static void print_markdown_table(FILE *out, const matrix *x)
{
    fputs("| op |", out);
    for (size_t b = 0; b < x->nb; b++)
        fprintf(out, " %s |", x->backends[b]);
    fputs("\n|---|", out);
    for (size_t b = 0; b < x->nb; b++)
        fputs("---|", out);
    fputc('\n', out);
    for (size_t r = 0; r < x->n_ops; r++) {
        if (!x->row[r])
            continue;
        fprintf(out, "| `%s` |", el_op_name(x->ops[r]));
        for (size_t b = 0; b < x->nb; b++)
            fprintf(out, " %s |", mark_text[x->m[r * x->nb + b]]);
        fputc('\n', out);
    }
}

static void print_markdown(FILE *out, const matrix *x)
{
    char *own = NULL;
    fprintf(out, "## Op x backend\n\n%zu of %zu ops%s.\n\n", x->n_rows, x->n_ops,
            x->n_rows < x->n_ops ? " (those some backend implements)" : "");
    if (x->nb == 0) /* (not a table of one column and no row) */
        fputs(NO_BACKEND ".\n", out);
    else
        print_markdown_table(out, x);
    fputs("\n## Missing\n\n", out);
    size_t shown = 0;
    for (size_t b = 0; b < x->nb; b++) {
        size_t n = missing_count(x, b);
        if (!n)
            continue;
        fprintf(out, "- **%s** (%zu):", x->backends[b], n);
        const char *sep = " ";
        for (size_t r = 0; r < x->n_ops; r++) {
            if (!is_missing(x, r, b))
                continue;
            fprintf(out, "%s`%s`", sep, el_op_name(x->ops[r]));
            sep = ", ";
        }
        fputc('\n', out);
        shown++;
    }
    if (!shown)
        fputs("None.\n", out);
    fputs("\n## To move\n\n", out);
    if (!x->mv.n_defs_moved) {
        fputs("None.\n", out);
    } else {
        fputs("| definition | where | backend | op | destination |\n|---|---|---|---|---|\n", out);
        print_moves(out, x, true, &own);
    }
    fputs("\n## Custom ops\n\n", out);
    print_customs(out, x, true);
    if (x->n_parse_errors) {
        fputs("\n## Parse errors\n\n", out);
        print_parse_errors(out, x, "- ", &own);
    }
    free(own);
}

/* ---- JSON ---------------------------------------------------------------- */

static void print_json(FILE *out, const matrix *x, json_object *shard)
{
    char *own = NULL;
    const em_tree *t = x->t;
    json_object *root = json_object_new_object();
    json_object_object_add(root, "tool", json_object_new_string("ember-migrate"));
    json_object_object_add(root, "version", json_object_new_string(EL_VERSION));
    json_object *backends = json_object_new_array();
    for (size_t b = 0; b < x->nb; b++)
        json_object_array_add(backends, json_object_new_string(x->backends[b]));
    json_object_object_add(root, "backends", backends);

    json_object *tables = json_object_new_array();
    for (size_t i = 0; i < t->n_tables; i++) {
        const em_table *tb = &t->tables[i];
        if (!backend_shown(x, tb->backend))
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "backend", json_object_new_string(tb->backend));
        json_object_object_add(o, "kind", json_object_new_string(table_kind(tb)));
        json_object_object_add(o, "file", json_object_new_string(show_path(t, tb->path, &own)));
        json_object_object_add(o, "line", json_object_new_int64(tb->line));
        json_object_object_add(o, "var", tb->var ? json_object_new_string(tb->var) : NULL);
        json_object_array_add(tables, o);
    }
    json_object_object_add(root, "tables", tables);

    json_object *ops = json_object_new_array();
    for (size_t r = 0; r < x->n_ops; r++) {
        if (!x->row[r])
            continue;
        json_object *o = json_object_new_object(), *per = json_object_new_object();
        json_object_object_add(o, "op", json_object_new_string(el_op_name(x->ops[r])));
        for (size_t b = 0; b < x->nb; b++)
            json_object_object_add(per, x->backends[b], json_object_new_string(mark_json[x->m[r * x->nb + b]]));
        json_object_object_add(o, "backends", per);
        json_object_array_add(ops, o);
    }
    json_object_object_add(root, "ops", ops);

    json_object *missing = json_object_new_object();
    for (size_t b = 0; b < x->nb; b++) {
        json_object *list = json_object_new_array();
        for (size_t r = 0; r < x->n_ops; r++)
            if (is_missing(x, r, b))
                json_object_array_add(list, json_object_new_string(el_op_name(x->ops[r])));
        json_object_object_add(missing, x->backends[b], list);
    }
    json_object_object_add(root, "missing", missing);

    json_object *moves = json_object_new_array();
    for (size_t i = 0; i < x->mv.n_defs_moved; i++) {
        const em_moved_def *m = &x->mv.defs_moved[i];
        const em_def *d = m->def;
        json_object *o = json_object_new_object();
        char *dest = el_path_display(m->dest);
        json_object_object_add(o, "file", json_object_new_string(show_path(t, d->path, &own)));
        json_object_object_add(o, "line", json_object_new_int64(d->line));
        json_object_object_add(o, "name", json_object_new_string(d->name));
        json_object_object_add(o, "backend", json_object_new_string(d->backend));
        const em_custom_op *cop = em_customs_kernel_op(&x->customs, d);
        json_object_object_add(o, "op", json_object_new_string(cop ? cop->full : d->op[0] ? d->op : "helper"));
        if (m->copied)
            json_object_object_add(o, "copied", json_object_new_boolean(true));
        json_object_object_add(o, "destination", json_object_new_string(dest));
        json_object_array_add(moves, o);
        free(dest);
    }
    json_object_object_add(root, "to_move", moves);

    json_object *customs = json_object_new_array();
    for (size_t i = 0; i < x->customs.n_ops; i++) {
        const em_custom_op *op = &x->customs.ops[i];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "op", json_object_new_string(op->full));
        json_object_object_add(o, "wrapper", json_object_new_string(op->wrapper));
        json_object *kernels = json_object_new_object();
        for (size_t k = 0; k < op->n_kernels; k++) {
            const em_cfn *f = op->kernels[k].fn;
            char *where = el_xasprintf("%s:%u", show_path(t, f->path, &own), f->line);
            json_object_object_add(kernels, f->backend, json_object_new_string(where));
            free(where);
        }
        json_object_object_add(o, "kernels", kernels);
        json_object_object_add(o, "fallback", json_object_new_string(op->fallback));
        json_object_array_add(customs, o);
    }
    json_object_object_add(root, "custom_ops", customs);
    json_object *rejects = json_object_new_array();
    for (size_t i = 0; i < x->customs.n_rejects; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(x->customs.rejects[i].name));
        json_object_object_add(o, "why", json_object_new_string(x->customs.rejects[i].why));
        json_object_array_add(rejects, o);
    }
    json_object_object_add(root, "not_custom_ops", rejects);

    json_object *errors = json_object_new_array();
    for (size_t i = 0; i < t->findings.n; i++) {
        const el_finding *f = &t->findings.v[i];
        if (strcmp(f->rule, "EH000") != 0)
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "file", json_object_new_string(show_path(t, f->file, &own)));
        json_object_object_add(o, "line", json_object_new_int64(f->line));
        json_object_object_add(o, "column", json_object_new_int64(f->col));
        json_object_object_add(o, "message", json_object_new_string(f->message));
        json_object_array_add(errors, o);
    }
    json_object_object_add(root, "parse_errors", errors);
    if (shard) /* analyze --shard: what ember-migrate merge joins */
        json_object_object_add(root, "shard", json_object_get(shard));

    fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE),
          out);
    fputc('\n', out);
    json_object_put(root);
    free(own);
}

int em_run_analyze(const em_opts *o)
{
    em_tree t;
    char *err = NULL;
    json_object *shard = NULL;
    em_scan_opts so = o->scan;
    so.shard_payload = &shard;
    if (em_scan(&so, &t, &err) < 0) {
        fprintf(stderr, "ember-migrate: %s\n", err);
        free(err);
        return 2;
    }
    for (size_t i = 0; i < o->n_backends; i++) {
        bool found = false;
        for (size_t b = 0; b < t.n_backends && !found; b++)
            found = strcmp(t.backends[b], o->backends[i]) == 0;
        if (!found && !o->quiet)
            fprintf(stderr, "ember-migrate: warning: --backend %s: no such backend in the scanned tree\n",
                    o->backends[i]);
    }
    matrix x;
    build(&x, &t, o);
    if (compute_moves(&x, &t, o) < 0) {
        matrix_free(&x);
        em_tree_free(&t);
        return 2;
    }
    switch (o->format) {
    case EM_FORMAT_JSON:
        print_json(stdout, &x, shard);
        break;
    case EM_FORMAT_MARKDOWN:
        print_markdown(stdout, &x);
        break;
    default:
        print_text(stdout, &x);
        break;
    }
    int rc = x.n_parse_errors ? 1 : 0;
    if (!o->quiet) {
        size_t nmoves = x.mv.n_defs_moved, nops = 0;
        for (size_t i = 0; i < nmoves; i++)
            nops += x.mv.defs_moved[i].def->op[0] != '\0' ||
                    em_customs_kernel_op(&x.customs, x.mv.defs_moved[i].def);
        fprintf(stderr, "ember-migrate: %zu backend%s, %zu op%s shown; %zu definition%s to move "
                        "into backends/ (%zu op%s, %zu helper%s)", x.nb, x.nb == 1 ? "" : "s",
                x.n_rows, x.n_rows == 1 ? "" : "s", nmoves, nmoves == 1 ? "" : "s", nops,
                nops == 1 ? "" : "s", nmoves - nops, nmoves - nops == 1 ? "" : "s");
        if (x.n_parse_errors)
            fprintf(stderr, "; %zu file%s did not parse, the matrix may be incomplete",
                    x.n_parse_errors, x.n_parse_errors == 1 ? "" : "s");
        fputc('\n', stderr);
    }
    matrix_free(&x);
    em_tree_free(&t);
    if (shard)
        json_object_put(shard);
    return rc;
}
