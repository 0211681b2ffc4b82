/* lint/analysis/custom_kernels.c -- EH105's custom-op check
 * (custom_kernels.h). */
#include "custom_kernels.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_table.h"
#include "c_lexeme.h"
#include "c_text.h"
#include "clang_util.h"

#define FACT_KERNEL "EH105.custom_kernel"
#define FACT_EXEMPT "EH105.custom_exempt"

/* ---- per TU ---------------------------------------------------------------- */

/* The value of a string literal (through casts and macros), or NULL.
 * Names of ops and backends need no escapes: a literal with one is not
 * read. */
static const char *string_value(CXCursor e, char *buf, size_t n)
{
    CXCursor s = elc_strip_casts(e);
    if (clang_getCursorKind(s) != CXCursor_StringLiteral)
        return NULL;
    char lit[512];
    elc_spelling(s, lit, sizeof lit);
    size_t len = strlen(lit);
    if (len < 2 || lit[0] != '"' || lit[len - 1] != '"' || strchr(lit, '\\') || len - 1 > n)
        return NULL;
    snprintf(buf, n, "%.*s", (int)(len - 2), lit + 1);
    return buf;
}

/* "path\tline\tcol" of a cursor (real path, for one key per place). */
static void place(el_ctx *ctx, CXCursor c, char *buf, size_t n)
{
    CXFile file = NULL;
    unsigned line = 0, col = 0;
    elc_cursor_location(c, &file, &line, &col);
    char path[PATH_MAX];
    const char *real = el_file_path(ctx, file);
    snprintf(buf, n, "%s\t%u\t%u", real ? real : elc_file_name(file, path, sizeof path), line, col);
}

static void record_kernel(el_ctx *ctx, CXCursor at, CXCursor op, CXCursor backend)
{
    char o[256], b[64], where[PATH_MAX + 32], value[PATH_MAX + 400];
    if (!string_value(op, o, sizeof o) || !string_value(backend, b, sizeof b))
        return;
    place(ctx, at, where, sizeof where);
    snprintf(value, sizeof value, "%s\t%s\t%s", o, b, where);
    el_fact(ctx, FACT_KERNEL, value);
}

/* The fields of an initializer list: designated (.name = v) or by
 * position, handed to fn with their values. */
typedef struct field_names {
    char v[64][64];
    unsigned n;
} field_names;

static enum CXVisitorResult add_field(CXCursor c, CXClientData d)
{
    field_names *f = d;
    if (f->n < 64)
        elc_spelling(c, f->v[f->n++], sizeof f->v[0]);
    return CXVisit_Continue;
}

typedef struct init_fields {
    const char *name[16];
    CXCursor value[16];
    unsigned n;
} init_fields;

typedef struct walk {
    field_names names;
    init_fields *out;
    unsigned pos;
} walk;

static enum CXChildVisitResult first_two(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    CXCursor *kids = d;
    if (clang_Cursor_isNull(kids[0]))
        kids[0] = c;
    else
        kids[1] = c; /* the last child: the value */
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult one_entry(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    walk *w = d;
    CXCursor kids[2] = {clang_getNullCursor(), clang_getNullCursor()};
    if (clang_getCursorKind(c) == CXCursor_UnexposedExpr)
        clang_visitChildren(c, first_two, kids);
    const char *name = NULL;
    CXCursor value = c;
    if (!clang_Cursor_isNull(kids[1]) && clang_getCursorKind(kids[0]) == CXCursor_MemberRef) {
        char n[64];
        elc_spelling(kids[0], n, sizeof n);
        for (w->pos = 0; w->pos < w->names.n && strcmp(w->names.v[w->pos], n) != 0; w->pos++)
            ;
        value = kids[1];
    }
    if (w->pos < w->names.n)
        name = w->names.v[w->pos];
    w->pos++;
    if (name && w->out->n < 16) {
        w->out->name[w->out->n] = name;
        w->out->value[w->out->n++] = value;
    }
    return CXChildVisit_Continue;
}

static bool field(const init_fields *f, const char *name, CXCursor *value)
{
    for (unsigned k = 0; k < f->n; k++)
        if (strcmp(f->name[k], name) == 0) {
            *value = f->value[k];
            return true;
        }
    return false;
}

static void on_init_list(el_ctx *ctx, CXCursor init)
{
    const el_config *cfg = el_ctx_config(ctx);
    CXType type = clang_getCursorType(init);
    bool kernel = el_eh105_option_type(cfg, "custom_kernel_types", type);
    if (!kernel && !el_eh105_option_type(cfg, "custom_op_def_types", type))
        return;
    walk *w = calloc(1, sizeof *w);
    init_fields *f = calloc(1, sizeof *f);
    if (w && f) {
        w->out = f;
        clang_Type_visitFields(clang_getCanonicalType(type), add_field, &w->names);
        clang_visitChildren(init, one_entry, w);
        CXCursor op, backend, name;
        char buf[256];
        if (kernel && field(f, "op", &op) && field(f, "backend", &backend)) {
            record_kernel(ctx, init, op, backend);
        } else if (!kernel && field(f, "name", &name) && string_value(name, buf, sizeof buf)) {
            for (unsigned k = 0; k < f->n; k++)
                if (el_eh105_option_has(cfg, "custom_op_exempt_fields", f->name[k]) &&
                    !el_is_null_value(f->value[k])) {
                    el_fact(ctx, FACT_EXEMPT, buf);
                    break;
                }
        }
    }
    free(w);
    free(f);
}

/* ---- bodies not parsed ----------------------------------------------------- */

enum { WORD_NONE = 1, WORD_REGISTERS, WORD_FUNCTION, WORD_TYPE, WORD_BUSY };

/* WORD_FUNCTION for a listed function, WORD_TYPE for a listed type,
 * else 0. */
static int listed_name(const el_config *cfg, const char *name)
{
    if (el_eh105_option_has(cfg, "custom_kernel_functions", name))
        return WORD_FUNCTION;
    if (el_eh105_option_has(cfg, "custom_kernel_types", name) ||
        el_eh105_option_has(cfg, "custom_op_def_types", name))
        return WORD_TYPE;
    return 0;
}

static void set_verdict(el_custom_kernels_tu *tu, const char *name, int v)
{
    el_strmap_put(&tu->verdicts, name, (void *)(intptr_t)v);
}

static int word_kind(el_ctx *ctx, el_custom_kernels_tu *tu, const char *name, int depth);

/* A piece of a name a macro pastes (next to `##`) that a listed name
 * holds: the macro may paste a registration together. */
static bool pastes_listed(const el_config *cfg, const char *piece)
{
    return el_eh105_option_part(cfg, "custom_kernel_functions", piece) ||
           el_eh105_option_part(cfg, "custom_kernel_types", piece) ||
           el_eh105_option_part(cfg, "custom_op_def_types", piece);
}

/* Does the body of macro definition def name a registration (or paste
 * one together)? */
static bool macro_registers(el_ctx *ctx, el_custom_kernels_tu *tu, CXCursor def, int depth)
{
    unsigned nt = 0, first = 0;
    CXToken *toks = elc_macro_tokens(el_tu(ctx), def, &nt, &first);
    bool found = false;
    for (unsigned i = first; i < nt && !found; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        char w[256], prev[4] = "", next[4] = "";
        elc_string(clang_getTokenSpelling(el_tu(ctx), toks[i]), w, sizeof w);
        if (i > first)
            elc_string(clang_getTokenSpelling(el_tu(ctx), toks[i - 1]), prev, sizeof prev);
        if (i + 1 < nt)
            elc_string(clang_getTokenSpelling(el_tu(ctx), toks[i + 1]), next, sizeof next);
        bool pasted = strcmp(prev, "##") == 0 || strcmp(next, "##") == 0;
        found = (pasted && pastes_listed(el_ctx_config(ctx), w)) ||
                word_kind(ctx, tu, w, depth + 1) != WORD_NONE;
    }
    if (toks)
        clang_disposeTokens(el_tu(ctx), toks, nt);
    return found;
}

/* What identifier `name` is to a registration: a listed function or a
 * macro that expands to a registration (WORD_FUNCTION, WORD_REGISTERS), a listed type or
 * a typedef of one met before (WORD_TYPE), or nothing (WORD_NONE). */
static int word_kind(el_ctx *ctx, el_custom_kernels_tu *tu, const char *name, int depth)
{
    int v = (int)(intptr_t)el_strmap_get(&tu->verdicts, name);
    if (v == WORD_BUSY)
        tu->cycle = true;
    if (v)
        return v == WORD_BUSY ? WORD_NONE : v;
    int listed = listed_name(el_ctx_config(ctx), name);
    if (listed) {
        set_verdict(tu, name, listed);
        return listed;
    }
    CXCursor def = depth < 16 ? elc_macro_definition_here(el_tu(ctx), name) : clang_getNullCursor();
    if (clang_Cursor_isNull(def)) {
        set_verdict(tu, name, WORD_NONE);
        return WORD_NONE;
    }
    set_verdict(tu, name, WORD_BUSY); /* a macro naming itself on the way */
    bool cycle_before = tu->cycle;
    tu->cycle = false;
    v = macro_registers(ctx, tu, def, depth) ? WORD_REGISTERS : WORD_NONE;
    /* an answer reached while a macro being read was met may be partial:
     * not kept (0: asked again, read again) */
    set_verdict(tu, name, v == WORD_NONE && tu->cycle ? 0 : v);
    tu->cycle |= cycle_before;
    return v;
}

/* A call of a listed function at t[i..] (past its name) whose first
 * argument may be a string literal (one, a cast, a macro): a variable or
 * an expression (`kernels[k].op`) never is one, so no kernel is recorded
 * (record_kernel). */
static bool may_register(el_ctx *ctx, const char *t, size_t n, size_t i)
{
    i = el_text_skip_blanks(t, n, i);
    if (i >= n || t[i] != '(')
        return true; /* its address taken, or a macro around it: read it */
    i = el_text_skip_blanks(t, n, i + 1);
    size_t end = i + 1;
    if (i >= n || el_lexeme_at(t, n, i, &end) != EL_LX_IDENT || end - i >= 256)
        return true;
    char w[256];
    memcpy(w, t + i, end - i);
    w[end - i] = '\0';
    return !clang_Cursor_isNull(elc_macro_definition_here(el_tu(ctx), w));
}

/* Is the type named at t[i..] only pointed to there (`const T *d`: no
 * initializer of it)? */
static bool pointed_to(const char *t, size_t n, size_t i)
{
    static const char *const qualifiers[] = {"const", "volatile", "restrict"};
    for (size_t q = 0; (i = el_text_skip_blanks(t, n, i)) < n && q < 3;) {
        size_t len = strlen(qualifiers[q]);
        if (n - i > len && !strncmp(t + i, qualifiers[q], len) && !el_text_ident_char(t[i + len])) {
            i += len;
            q = 0; /* `const volatile`: any order */
        } else {
            q++;
        }
    }
    return i < n && t[i] == '*';
}

/* A skipped body (text[0..n)) that names a registration (a type only
 * pointed to is none) has the TU parsed again with its bodies. */
static void check_skipped_body(el_ctx *ctx, el_custom_kernels_tu *tu, const char *text, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t end = i + 1;
        el_lexeme k = el_lexeme_at(text, n, i, &end);
        if (k == EL_LX_IDENT && end - i < 256) {
            char w[256];
            memcpy(w, text + i, end - i);
            w[end - i] = '\0';
            int kind = word_kind(ctx, tu, w, 0);
            if (kind == WORD_REGISTERS || (kind == WORD_FUNCTION && may_register(ctx, text, n, end)) ||
                (kind == WORD_TYPE && !pointed_to(text, n, end))) {
                (void)elc_tu_has_bodies(el_tu(ctx));
                return;
            }
        }
        i = end > i ? end : i + 1;
    }
}

/* Does `type` hold a listed type: be one, an array of one, a struct or
 * union with a member that holds one, or a type noted before
 * (note_record)? */
typedef struct holds_walk {
    el_ctx *ctx;
    el_custom_kernels_tu *tu;
    int depth;
    bool found;
} holds_walk;

static bool type_holds_listed(el_ctx *ctx, el_custom_kernels_tu *tu, CXType t, int depth);

static enum CXVisitorResult field_holds(CXCursor field, CXClientData d)
{
    holds_walk *w = d;
    w->found = type_holds_listed(w->ctx, w->tu, clang_getCursorType(field), w->depth + 1);
    return w->found ? CXVisit_Break : CXVisit_Continue;
}

static bool type_holds_listed(el_ctx *ctx, el_custom_kernels_tu *tu, CXType t, int depth)
{
    const el_config *cfg = el_ctx_config(ctx);
    if (depth > 8)
        return false;
    if (el_eh105_option_type(cfg, "custom_kernel_types", t) ||
        el_eh105_option_type(cfg, "custom_op_def_types", t))
        return true;
    CXType c = clang_getCanonicalType(t);
    if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
        return type_holds_listed(ctx, tu, clang_getArrayElementType(c), depth + 1);
    if (c.kind != CXType_Record)
        return false;
    holds_walk w = {ctx, tu, depth, false};
    clang_Type_visitFields(c, field_holds, &w);
    return w.found;
}

/* A typedef, struct or union that holds a listed type (typedef struct
 * eh_custom_kernel my_k; struct entry { eh_custom_kernel k; }): its name
 * is a type a registration may be written with. */
static void note_record(el_ctx *ctx, el_custom_kernels_tu *tu, CXCursor d)
{
    CXType t = clang_getCursorKind(d) == CXCursor_TypedefDecl ? clang_getTypedefDeclUnderlyingType(d)
                                                              : clang_getCursorType(d);
    char name[256];
    if (elc_spelling(d, name, sizeof name)[0] && type_holds_listed(ctx, tu, t, 0))
        set_verdict(tu, name, WORD_TYPE);
}

void el_custom_kernels_tu_free(el_custom_kernels_tu *tu)
{
    el_strmap_free(&tu->verdicts);
}

void el_custom_kernels_on_cursor(el_ctx *ctx, el_custom_kernels_tu *tu, CXCursor c)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_FunctionDecl || kind == CXCursor_TypedefDecl ||
        kind == CXCursor_StructDecl || kind == CXCursor_UnionDecl) {
        if (!elc_tu_is_bodiless(el_tu(ctx)))
            return;
        const char *text = NULL;
        size_t n = 0;
        if (kind != CXCursor_FunctionDecl)
            note_record(ctx, tu, c);
        else if (el_skipped_body(ctx, c, &text, &n))
            check_skipped_body(ctx, tu, text, n);
        return;
    }
    if (kind == CXCursor_InitListExpr) {
        on_init_list(ctx, c);
        return;
    }
    char callee[256];
    if (clang_getCursorKind(c) != CXCursor_CallExpr || clang_Cursor_getNumArguments(c) < 2 ||
        !elc_callee_name(c, callee, sizeof callee) ||
        !el_eh105_option_has(el_ctx_config(ctx), "custom_kernel_functions", callee))
        return;
    record_kernel(ctx, c, clang_Cursor_getArgument(c, 0), clang_Cursor_getArgument(c, 1));
}

/* ---- the project ----------------------------------------------------------- */

typedef struct reg {
    char *op, *backend, *path;
    unsigned line, col;
} reg;

static bool listed(char **v, size_t n, const char *s)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(v[k], s) == 0)
            return true;
    return false;
}

static bool has_kernel(const reg *r, size_t n, const char *op, const char *backend)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(r[k].op, op) == 0 && strcmp(r[k].backend, backend) == 0)
            return true;
    return false;
}

static void report_op(el_project *p, const reg *regs, size_t n, size_t first, char **backends,
                      size_t n_backends)
{
    const reg *r = &regs[first];
    char have[256] = "", lack[256] = "";
    size_t lh = 0, ll = 0, n_lack = 0;
    for (size_t b = 0; b < n_backends; b++) {
        bool yes = has_kernel(regs, n, r->op, backends[b]);
        char *buf = yes ? have : lack;
        size_t *len = yes ? &lh : &ll;
        n_lack += !yes;
        if (*len < sizeof have)
            *len += (size_t)snprintf(buf + *len, sizeof have - *len, "%s%s", *len ? ", " : "",
                                     backends[b]);
    }
    if (n_lack)
        el_project_report(p, r->path, r->line, r->col,
                          "custom op '%s' has kernels for %s but not for %s, which other custom "
                          "ops have kernels for; register %s, or give the op a fallback backend "
                          "or a per-element function",
                          r->op, have, lack, n_lack == 1 ? "one" : "them");
}

void el_custom_kernels_project(el_project *p)
{
    size_t n_facts = el_project_fact_count(p), n = 0, n_exempt = 0, n_backends = 0;
    reg *regs = calloc(n_facts + 1, sizeof *regs);
    char **exempt = calloc(n_facts + 1, sizeof *exempt);
    char **backends = calloc(n_facts + 1, sizeof *backends);
    for (size_t i = 0; regs && exempt && backends && i < n_facts; i++) {
        const char *key = NULL, *value = NULL;
        el_project_fact(p, i, NULL, &key, &value);
        if (!key || !value)
            continue;
        if (strcmp(key, FACT_EXEMPT) == 0 && !listed(exempt, n_exempt, value)) {
            exempt[n_exempt++] = strdup(value);
            continue;
        }
        char op[256], backend[64], path[PATH_MAX];
        unsigned line, col;
        if (strcmp(key, FACT_KERNEL) != 0 ||
            sscanf(value, "%255[^\t]\t%63[^\t]\t%4095[^\t]\t%u\t%u", op, backend, path, &line,
                   &col) != 5 ||
            has_kernel(regs, n, op, backend))
            continue;
        regs[n] = (reg){strdup(op), strdup(backend), strdup(path), line, col};
        if (!listed(backends, n_backends, backend))
            backends[n_backends++] = regs[n].backend;
        n++;
    }
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(regs[k].op, regs[i].op) != 0;
        if (first && !listed(exempt, n_exempt, regs[i].op))
            report_op(p, regs, n, i, backends, n_backends);
    }
    for (size_t i = 0; i < n; i++) {
        free(regs[i].op);
        free(regs[i].backend);
        free(regs[i].path);
    }
    for (size_t i = 0; i < n_exempt; i++)
        free(exempt[i]);
    free(regs);
    free(exempt);
    free(backends);
}
