/* migrate/custom_gen.c -- the files that define, register and wrap the
 * custom ops, and the includes of their callers (custom_gen.h). */
#include "custom_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include_line.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

/* ---- naming ------------------------------------------------------------- */

/* A parameter's name: its own, or a<k> when it has none. */
static const char *param_name(const em_cparam *p, size_t k, char *buf, size_t n)
{
    if (p->name[0])
        return p->name;
    snprintf(buf, n, "a%zu", k);
    return buf;
}

static bool has_scalars(const em_cfn *s)
{
    for (size_t k = 0; k < s->n_params; k++)
        if (s->params[k].kind == EM_PARAM_SCALAR)
            return true;
    return false;
}

static size_t n_tensors(const em_cfn *s)
{
    size_t n = 0;
    for (size_t k = 0; k < s->n_params; k++)
        n += s->params[k].kind != EM_PARAM_SCALAR;
    return n;
}

/* A local variable name no parameter of s has. */
static const char *local_name(const em_cfn *s, const char *want, char *buf, size_t n)
{
    snprintf(buf, n, "%s", want);
    for (int round = 0; round < 8; round++) {
        bool clash = false;
        for (size_t k = 0; k < s->n_params && !clash; k++)
            clash = !strcmp(s->params[k].name, buf);
        if (!clash)
            return buf;
        size_t len = strlen(buf);
        if (len + 2 < n) {
            buf[len] = '_';
            buf[len + 1] = '\0';
        }
    }
    return buf;
}

/* "const eh_tensor *x" / "double limit" */
static void param_decl(el_buf *b, const em_cparam *p, size_t k)
{
    char nb[32];
    const char *sp = p->spelling;
    size_t n = strlen(sp);
    el_buf_printf(b, "%s%s%s", sp, n && sp[n - 1] == '*' ? "" : " ", param_name(p, k, nb, sizeof nb));
}

static void params_list(el_buf *b, const em_cfn *s)
{
    if (!s->n_params)
        el_buf_puts(b, "void");
    for (size_t k = 0; k < s->n_params; k++) {
        if (k)
            el_buf_puts(b, ", ");
        param_decl(b, &s->params[k], k);
    }
}

static void upper(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
}

/* "backends/blas/gemm.c" for a path under root (else the path). */
static char *rel_to_root(const char *root, const char *path)
{
    char *r = el_path_under(path, root);
    return r ? r : el_xstrdup(path);
}

/* ---- where things are after the moves ----------------------------------- */

/* Where the file at path is after the moves (a header moves whole, or
 * stays). */
static const char *after_moves(const em_moves *mv, const char *path)
{
    for (size_t i = 0; i < mv->n_creates; i++)
        if (mv->creates[i].from && !strcmp(mv->creates[i].from, path))
            return mv->creates[i].path;
    return path;
}

/* A header that declares the kernel (and is not its own file): the
 * registration unit includes it, so the compiler checks the two agree. */
static const char *declaring_header(const em_tree *t, const em_cfn *k)
{
    for (size_t i = 0; t->custom && i < t->custom->n; i++) {
        const em_cfn *d = &t->custom->v[i];
        size_t n = strlen(d->path);
        if (!d->definition && !strcmp(d->name, k->name) && strcmp(d->path, k->path) &&
            n > 2 && !strcmp(d->path + n - 2, ".h") && !strcmp(d->type, k->type))
            return d->path;
    }
    return NULL;
}

/* ---- the three files ------------------------------------------------------ */

static void gen_header(el_buf *b, const em_customs *c, const em_custom_op *const *ops, size_t n)
{
    char guard[96];
    snprintf(guard, sizeof guard, "%s_OPS_H", c->ns);
    upper(guard);
    el_buf_printf(b,
                  "/* %s_ops.h -- the application's own ops, as its code calls them.\n"
                  " *\n"
                  " * Custom ops of libeh (docs/extending.md) that ember-migrate made of the\n"
                  " * backend functions that had no libeh op: each wrapper takes what the\n"
                  " * legacy function took, and libeh runs the current backend's version\n"
                  " * (%s_ops_register.c binds them).  Generated once; edit it freely. */\n"
                  "#ifndef %s\n#define %s\n\n#include <eh/eh.h>\n",
                  c->ns, c->ns, guard, guard);
    for (size_t i = 0; i < n; i++) {
        const em_custom_op *op = ops[i];
        const em_cfn *s = op->sig;
        el_buf_printf(b, "\n/* %s:", op->full);
        for (size_t k = 0; k < op->n_kernels; k++)
            el_buf_printf(b, "%s %s", k ? "," : "", op->kernels[k].fn->name);
        el_buf_puts(b, " */\n");
        if (has_scalars(s)) {
            el_buf_printf(b, "typedef struct %s_params {\n", op->wrapper);
            char nb[32];
            for (size_t k = 0; k < s->n_params; k++)
                if (s->params[k].kind == EM_PARAM_SCALAR)
                    el_buf_printf(b, "    %s %s;\n", s->params[k].spelling,
                                  param_name(&s->params[k], k, nb, sizeof nb));
            el_buf_printf(b, "} %s_params;\n", op->wrapper);
        }
        el_buf_printf(b, "eh_tensor *%s(", op->wrapper);
        params_list(b, s);
        el_buf_puts(b, ");\n");
    }
    el_buf_printf(b,
                  "\n/* Define the ops and register their kernels: from any thread, as often as\n"
                  " * wanted (the wrappers call it); EH_OK or the error of the step that failed. */\n"
                  "eh_status %s_ops_register(void);\n\n#endif\n",
                  c->ns);
}

static void gen_wrappers(el_buf *b, const em_customs *c, const em_custom_op *const *ops, size_t n)
{
    el_buf_printf(b,
                  "/* %s_ops.c -- the wrappers of the application's own ops: each calls its op\n"
                  " * through libeh, which runs the kernel of the backend in use.  Generated\n"
                  " * by ember-migrate; edit it freely. */\n"
                  "#include \"%s_ops.h\"\n",
                  c->ns, c->ns);
    char nb[32], lb[32];
    for (size_t i = 0; i < n; i++) {
        const em_custom_op *op = ops[i];
        const em_cfn *s = op->sig;
        el_buf_printf(b, "\neh_tensor *%s(", op->wrapper);
        params_list(b, s);
        el_buf_printf(b, ")\n{\n    if (%s_ops_register() != EH_OK)\n        return NULL;\n", c->ns);
        const char *pv = NULL;
        if (has_scalars(s)) {
            pv = local_name(s, "params", lb, sizeof lb);
            el_buf_printf(b, "    %s_params %s = {", op->wrapper, pv);
            bool first = true;
            for (size_t k = 0; k < s->n_params; k++)
                if (s->params[k].kind == EM_PARAM_SCALAR) {
                    const char *pn = param_name(&s->params[k], k, nb, sizeof nb);
                    el_buf_printf(b, "%s.%s = %s", first ? "" : ", ", pn, pn);
                    first = false;
                }
            el_buf_puts(b, "};\n");
        }
        el_buf_printf(b, "    return eh_custom_call(\"%s\", ", op->full);
        if (n_tensors(s)) {
            el_buf_puts(b, "EH_INPUTS(");
            bool first = true;
            for (size_t k = 0; k < s->n_params; k++)
                if (s->params[k].kind != EM_PARAM_SCALAR) {
                    el_buf_printf(b, "%s%s", first ? "" : ", ",
                                  param_name(&s->params[k], k, nb, sizeof nb));
                    first = false;
                }
            el_buf_puts(b, ")");
        } else {
            el_buf_puts(b, "NULL, 0");
        }
        if (pv)
            el_buf_printf(b, ",\n                          &(eh_custom_args){.params = &%s, "
                             ".params_size = sizeof %s});\n}\n",
                          pv, pv);
        else
            el_buf_puts(b, ", NULL);\n}\n");
    }
}

/* The adapter of one kernel: the call's tensors and params, in the legacy
 * function's order; its result is the op's. */
static void gen_adapter(el_buf *b, const em_custom_op *op, const em_custom_kernel *k,
                        const char *root)
{
    const em_cfn *s = op->sig, *f = k->fn;
    char *where = rel_to_root(root, k->def && k->def->dest ? k->def->dest : f->path);
    el_buf_printf(b, "\n/* %s on %s: %s (%s) */\nstatic eh_status kernel_%s_%s(const eh_op_call *call)\n{\n",
                  op->full, f->backend, f->name, where, f->backend, op->name);
    free(where);
    const char *pv = "p";
    if (has_scalars(s))
        el_buf_printf(b, "    const %s_params *%s = EH_CUSTOM_PARAMS(call, %s_params);\n",
                      op->wrapper, pv, op->wrapper);
    el_buf_printf(b, "    eh_tensor *result = %s(", f->name);
    size_t in = 0;
    char nb[32];
    for (size_t j = 0; j < s->n_params; j++) {
        const em_cparam *p = &s->params[j];
        if (j)
            el_buf_puts(b, ", ");
        if (p->kind == EM_PARAM_SCALAR)
            el_buf_printf(b, "%s->%s", pv, param_name(p, j, nb, sizeof nb));
        else if (p->kind == EM_PARAM_TENSOR)
            el_buf_printf(b, "(eh_tensor *)call->in[%zu]", in++);
        else
            el_buf_printf(b, "call->in[%zu]", in++);
    }
    el_buf_puts(b, ");\n    return eh_custom_output_set(call, 0, result);\n}\n");
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void gen_registration(el_buf *b, const em_customs *c, const em_tree *t, const em_moves *mv,
                             const em_custom_op *const *ops, size_t n, const char *root)
{
    el_buf_printf(
        b,
        "/* %s_ops_register.c -- binds the application's own ops to their kernels\n"
        " * (docs/extending.md): the op definitions, one adapter per backend's\n"
        " * version -- libeh's kernel signature around the legacy function, whose\n"
        " * result is the op's (EH_CUSTOM_DYNAMIC) -- and the table of kernels.\n"
        " * Like libeh's own dispatch layer it knows both sides, so the frontend\n"
        " * rules below do not apply to it.  Generated by ember-migrate; to give an\n"
        " * op a kernel of libeh's own form, register it here instead. */\n"
        "// emberlint-ignore-file EH101, EH102 -- the registration unit binds ops to "
        "backend kernels\n"
        "#include <stdatomic.h>\n#include <eh/backend_api.h>\n#include \"%s_ops.h\"\n",
        c->ns, c->ns);
    /* the headers declaring the kernels, where they are after the moves */
    char **incs = NULL;
    size_t n_incs = 0, cap_incs = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ops[i]->n_kernels; k++) {
            const char *h = declaring_header(t, ops[i]->kernels[k].fn);
            if (!h)
                continue;
            char *r = rel_to_root(root, after_moves(mv, h));
            bool dup = false;
            for (size_t j = 0; j < n_incs && !dup; j++)
                dup = !strcmp(incs[j], r);
            if (dup) {
                free(r);
            } else {
                el_grow(&incs, &cap_incs, n_incs + 1, sizeof *incs);
                incs[n_incs++] = r;
            }
        }
    if (n_incs)
        qsort(incs, n_incs, sizeof *incs, cmp_str);
    for (size_t j = 0; j < n_incs; j++) {
        el_buf_printf(b, "#include \"%s\"\n", incs[j]);
        free(incs[j]);
    }
    free(incs);
    /* kernels no header declares: their prototypes */
    bool any = false;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ops[i]->n_kernels; k++) {
            const em_cfn *f = ops[i]->kernels[k].fn;
            if (declaring_header(t, f))
                continue;
            if (!any)
                el_buf_puts(b, "\n/* the kernels' own declarations (no header declares them) */\n");
            any = true;
            el_buf_printf(b, "eh_tensor *%s(", f->name);
            params_list(b, f);
            el_buf_puts(b, ");\n");
        }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ops[i]->n_kernels; k++)
            gen_adapter(b, ops[i], &ops[i]->kernels[k], root);

    char nb[32];
    el_buf_puts(b, "\n/* ---- the ops and their kernels */\n");
    for (size_t i = 0; i < n; i++) {
        const em_cfn *s = ops[i]->sig;
        if (!n_tensors(s))
            continue;
        el_buf_printf(b, "\nstatic const char *const %s_inputs[] = {", ops[i]->name);
        bool first = true;
        for (size_t k = 0; k < s->n_params; k++)
            if (s->params[k].kind != EM_PARAM_SCALAR) {
                el_buf_printf(b, "%s\"%s\"", first ? "" : ", ",
                              param_name(&s->params[k], k, nb, sizeof nb));
                first = false;
            }
        el_buf_puts(b, "};\n");
    }
    el_buf_printf(b, "\nstatic const eh_custom_op_def %s_op_defs[] = {\n", c->ns);
    for (size_t i = 0; i < n; i++) {
        const em_custom_op *op = ops[i];
        const em_cfn *s = op->sig;
        el_buf_printf(b, "    {.name = \"%s\", .n_in = %zu, .n_out = 1,", op->full, n_tensors(s));
        if (n_tensors(s))
            el_buf_printf(b, " .input_names = %s_inputs,", op->name);
        el_buf_puts(b, "\n     .rule = EH_CUSTOM_DYNAMIC,");
        if (has_scalars(s))
            el_buf_printf(b, " .params_size = sizeof(%s_params),", op->wrapper);
        el_buf_printf(b, " .fallback = \"%s\"},\n", op->fallback);
    }
    el_buf_printf(b, "};\n\nstatic const eh_custom_kernel %s_kernels[] = {\n", c->ns);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ops[i]->n_kernels; k++)
            el_buf_printf(b, "    {\"%s\", \"%s\", kernel_%s_%s},\n", ops[i]->full,
                          ops[i]->kernels[k].fn->backend, ops[i]->kernels[k].fn->backend,
                          ops[i]->name);
    el_buf_printf(
        b,
        "};\n\nstatic atomic_int %s_ops_ready;\n\n"
        "eh_status %s_ops_register(void)\n{\n"
        "    if (atomic_load_explicit(&%s_ops_ready, memory_order_acquire))\n"
        "        return EH_OK;\n"
        "    /* defining an op or registering a kernel again is a no-op: threads\n"
        "     * that race here agree, and each one that fails gets the error */\n"
        "    eh_status st = EH_OK;\n"
        "    for (size_t k = 0; k < sizeof %s_op_defs / sizeof %s_op_defs[0] && st == EH_OK; k++)\n"
        "        st = eh_custom_op_define(&%s_op_defs[k]);\n"
        "    if (st == EH_OK)\n"
        "        st = eh_custom_op_kernels(%s_kernels,\n"
        "                                  (int)(sizeof %s_kernels / sizeof %s_kernels[0]));\n"
        "    if (st == EH_OK)\n"
        "        atomic_store_explicit(&%s_ops_ready, 1, memory_order_release);\n"
        "    return st;\n}\n",
        c->ns, c->ns, c->ns, c->ns, c->ns, c->ns, c->ns, c->ns, c->ns, c->ns);
}

static void add_create(em_moves *mv, char *path, el_buf *text)
{
    el_grow(&mv->creates, &mv->cap_creates, mv->n_creates + 1, sizeof *mv->creates);
    em_create *cr = &mv->creates[mv->n_creates++];
    memset(cr, 0, sizeof *cr);
    cr->path = path;
    cr->len = text->n;
    cr->text = el_buf_take(text);
    cr->mode = 0644;
}

/* ---- the callers' includes ---------------------------------------------- */

/* The directive a line starts with ("if", "ifdef", "endif", ...): its
 * name into name[] (empty when the line is no directive). */
static void directive(const char *s, size_t n, char *name, size_t cap)
{
    size_t i = 0, k = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    name[0] = '\0';
    if (i >= n || s[i] != '#')
        return;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    while (i < n && k + 1 < cap && s[i] >= 'a' && s[i] <= 'z')
        name[k++] = s[i++];
    name[k] = '\0';
}

/* Where a file gets one more #include (include_spot), with the file's
 * first #ifndef/#define pair taken for a header guard when guarded; *closed
 * tells whether that conditional ended before the last directive of the
 * file (then it was no guard). */
static size_t spot_scan(const char *s, size_t n, bool guarded, bool *closed)
{
    size_t spot = 0, line = 0, depth = 0, base = 0;
    bool held[64] = {false}; /* per open conditional: it holds an include */
    int seen = 0;            /* directives so far (a guard is the first two) */
    char guard[128] = "";
    *closed = false;
    while (line < n) {
        const char *e = memchr(s + line, '\n', n - line);
        size_t end = e ? (size_t)(e - s) + 1 : n, len = end - line;
        char d[16];
        directive(s + line, len, d, sizeof d);
        bool angled;
        const char *nm;
        size_t nl;
        if (d[0] && base && depth == 0)
            *closed = true; /* a directive after the "guard" ended */
        if (d[0])
            seen++;
        if (!strcmp(d, "if") || !strcmp(d, "ifdef") || !strcmp(d, "ifndef")) {
            if (guarded && seen == 1 && !strcmp(d, "ifndef"))
                sscanf(s + line, " # ifndef %127s", guard);
            if (depth < 64)
                held[depth] = false;
            depth++;
        } else if (!strcmp(d, "endif") && depth > 0) {
            depth--;
            if (depth == base && depth < 64 && held[depth])
                spot = end;
        } else if (!strcmp(d, "define") && seen == 2 && guard[0] && depth == 1) {
            char name[128] = "";
            sscanf(s + line, " # define %127s", name);
            if (!strcmp(name, guard)) {
                base = 1;
                spot = end;
            }
        } else if (el_include_line(s + line, len, &angled, &nm, &nl)) {
            if (depth == base)
                spot = end;
            else if (base < 64)
                held[base] = true;
        }
        line = end;
    }
    return spot;
}

/* Where a file gets one more #include: after its last include that no
 * conditional but a header guard encloses, or after the #endif of the
 * last conditional (at that level) that holds includes -- never inside an
 * #if arm, which only some builds would see.  Without includes: after a
 * header guard's #define, else at the top. */
size_t em_include_spot(const char *s, size_t n)
{
    bool closed;
    size_t spot = spot_scan(s, n, true, &closed);
    return closed ? spot_scan(s, n, false, &closed) : spot;
}

/* The op whose wrapper the edit's text calls, or NULL. */
static const em_custom_op *called_op(const em_customs *c, const char *s)
{
    for (size_t i = 0; s[i];) {
        if (!em_is_ident(s[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (s[i] && em_is_ident(s[i]))
            i++;
        const em_custom_op *op = em_customs_by_wrapper(c, s + b, i - b);
        if (op)
            return op;
    }
    return NULL;
}

static int add_includes(const em_customs *c, const em_tree *t, em_texts *texts,
                        const el_edits *taken, el_edits *includes, char **err)
{
    for (size_t i = 0; i < taken->n; i++) {
        const el_edit *e = &taken->v[i];
        const em_custom_op *op = e->group >= 0 && e->text ? called_op(c, e->text) : NULL;
        if (!op)
            continue;
        bool done = false;
        for (size_t k = 0; k < includes->n && !done; k++)
            done = !strcmp(includes->v[k].path, e->path);
        if (done)
            continue;
        const em_file *f = em_tree_file(t, e->path);
        const em_text *tx = em_texts_get(texts, e->path, f ? &f->hash : NULL, err);
        if (!tx)
            return -1;
        char *header = em_customs_file(op->root, c->ns, EM_CUSTOM_HEADER);
        char *dir = el_path_dirname(e->path);
        char *rel = em_relpath(dir, header);
        size_t at = em_include_spot(tx->data, tx->len);
        bool crlf = at >= 2 && tx->data[at - 2] == '\r';
        char *line = el_xasprintf("%s#include \"%s\"%s", at && tx->data[at - 1] != '\n' ? "\n" : "",
                                  rel, crlf ? "\r\n" : "\n");
        el_edits_add(includes, e->path, at, at, line, EM_GROUP_MOVE);
        free(line);
        free(rel);
        free(dir);
        free(header);
    }
    return 0;
}

int em_custom_gen(const em_customs *c, const em_tree *t, em_texts *texts, const el_edits *taken,
                  em_moves *mv, el_edits *includes, char **err)
{
    *err = NULL;
    if (!c || !c->n_ops)
        return 0;
    const em_custom_op **ops = el_xcalloc(c->n_ops + 1, sizeof *ops);
    bool *done = el_xcalloc(c->n_ops + 1, sizeof *done);
    for (size_t i = 0; i < c->n_ops; i++) {
        if (done[i])
            continue;
        /* the ops of one application, by name (c->ops is sorted) */
        size_t n = 0;
        for (size_t k = i; k < c->n_ops; k++)
            if (!done[k] && !strcmp(c->ops[k].root, c->ops[i].root)) {
                ops[n++] = &c->ops[k];
                done[k] = true;
            }
        const char *root = c->ops[i].root;
        el_buf b = {0};
        gen_header(&b, c, ops, n);
        add_create(mv, em_customs_file(root, c->ns, EM_CUSTOM_HEADER), &b);
        gen_wrappers(&b, c, ops, n);
        add_create(mv, em_customs_file(root, c->ns, EM_CUSTOM_WRAPPERS), &b);
        gen_registration(&b, c, t, mv, ops, n, root);
        add_create(mv, em_customs_file(root, c->ns, EM_CUSTOM_REGISTRATION), &b);
    }
    free(done);
    free(ops);
    return add_includes(c, t, texts, taken, includes, err);
}
