/* migrate/scan_rule.c -- ember-migrate's scanner rule (scan_rule.h).
 *
 * It lives here, not in lint/rules/, so emberlint's registry never runs
 * it; em_scan hands it to the engine as an extra rule.  Per TU it records:
 *   - each top-level definition (function, file-scope variable, a
 *     tentative `static int n;` included; for a variable, whether it is
 *     const, so a copy of it cannot split state) of a linted file: its byte range with the comment lines right above it
 *     and the rest of its last line, the file-scope statics of its own
 *     file it references (what must move with it), the files declaring
 *     everything else it references, macros included (what its new file
 *     must include);
 *   - each #include directive: as spelled, angled or not, what it
 *     resolves to, its line;
 *   - each backend table (lint/engine/backend_table.h) in backend code: the ops
 *     it implements and the function registered for each.
 * Definitions are emitted at end(), once the macro expansions (walked at
 * top level, after the function that contains them) are known. */
#include "scan_rule.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "backend_table.h"
#include "c_text.h"
#include "clang_util.h"
#include "config.h"
#include "mem.h"
#include "rewrite.h"

static const enum CXCursorKind kinds[] = {CXCursor_FunctionDecl, CXCursor_VarDecl,
                                          CXCursor_InclusionDirective, CXCursor_MacroExpansion,
                                          CXCursor_DeclRefExpr, CXCursor_CallExpr,
                                          CXCursor_TypeRef, EL_KINDS_END};

typedef struct def {
    CXFile file;
    size_t begin, end;
    json_object *obj;         /* without "needs", "uses", "local_deps" */
    char **uses, **needs;     /* needs point into the path cache */
    size_t n_uses, cap_uses, n_needs, cap_needs;
    char **locals;            /* the file's own types, constants and macros it uses */
    size_t n_locals, cap_locals;
    char **calls;             /* the functions it refers to, by name */
    size_t n_calls, cap_calls;
    bool local_deps;
} def;

typedef struct macro_use {
    CXFile file, def_file;
    size_t offset;
    char name[128];
} macro_use;

typedef struct scan_state {
    def *defs;
    size_t n_defs, cap_defs;
    macro_use *macros;
    size_t n_macros, cap_macros;
    el_rewriter *rw;
} scan_state;

/* ---- small helpers ------------------------------------------------------- */

/* Add s to the set v unless it is there; copy: store a copy (the set owns
 * it), else s itself (borrowed, it outlives the set). */
static void add_name(char ***v, size_t *n, size_t *cap, const char *s, bool copy)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], s) == 0)
            return;
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = copy ? el_xstrdup(s) : (char *)s;
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static json_object *str_array(char **v, size_t n)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_string(v[i]));
    return a;
}

static void emit(el_ctx *ctx, const char *key, json_object *o)
{
    el_fact(ctx, key, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(o);
}

static size_t line_start(const char *text, size_t at)
{
    while (at > 0 && text[at - 1] != '\n')
        at--;
    return at;
}

/* Just past the newline ending the line `at` is on (or the end). */
static size_t line_after(const char *text, size_t size, size_t at)
{
    while (at < size && text[at] != '\n')
        at++;
    return at < size ? at + 1 : size;
}

static bool blank(const char *text, size_t b, size_t e)
{
    for (size_t i = b; i < e; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\f' && text[i] != '\v')
            return false;
    return true;
}

/* Where a definition starting at `begin` starts once the comment lines
 * right above it are included: `//` lines and `/ * ... * /` blocks that
 * begin their line, up to a blank line or code. */
static size_t with_leading_comment(const char *text, size_t begin)
{
    size_t ls = line_start(text, begin);
    if (!blank(text, ls, begin))
        return begin;
    begin = ls;
    while (begin > 0) {
        size_t pe = begin - 1; /* the newline ending the previous line */
        size_t pls = line_start(text, pe);
        size_t a = pls, z = pe;
        while (a < z && blank(text, a, a + 1))
            a++;
        while (z > a && blank(text, z - 1, z))
            z--;
        if (a == z)
            break;
        if (z - a >= 2 && text[a] == '/' && text[a + 1] == '/') {
            begin = pls;
            continue;
        }
        if (z - a >= 2 && text[z - 2] == '*' && text[z - 1] == '/') {
            size_t q = z - 2;
            bool found = false;
            while (q > 0) {
                q--;
                if (text[q] == '/' && text[q + 1] == '*') {
                    found = true;
                    break;
                }
            }
            size_t qls = found ? line_start(text, q) : 0;
            if (found && blank(text, qls, q)) {
                begin = qls;
                continue;
            }
        }
        break;
    }
    return begin;
}

static unsigned offset_of(CXSourceLocation loc, CXFile *file, unsigned *line)
{
    unsigned off = 0;
    clang_getExpansionLocation(loc, file, line, NULL, &off);
    return off;
}

/* ---- definitions ---------------------------------------------------------- */

/* eh_status f(const eh_op_call *): the signature of a kernel. */
static bool is_kernel(CXCursor fn)
{
    CXType t = clang_getCursorType(fn);
    if (clang_getNumArgTypes(t) != 1)
        return false;
    char buf[256];
    CXCursor rd = clang_getTypeDeclaration(clang_getCanonicalType(clang_getResultType(t)));
    if (strcmp(elc_spelling(rd, buf, sizeof buf), "eh_status") != 0)
        return false;
    CXType a = clang_getCanonicalType(clang_getArgType(t, 0));
    if (a.kind != CXType_Pointer)
        return false;
    CXType p = clang_getPointeeType(a);
    if (!clang_isConstQualifiedType(p))
        return false;
    return strcmp(elc_spelling(clang_getTypeDeclaration(p), buf, sizeof buf), "eh_op_call") == 0;
}

/* A variable nothing can write: const itself, or an array of const. */
static bool is_const(CXCursor var)
{
    /* libclang keeps an array's qualifier on the array type, or on its
     * element type, depending on how it was spelled: look at each level */
    CXType t = clang_getCursorType(var);
    for (int depth = 0; depth < 16; depth++) {
        CXType ct = clang_getCanonicalType(t);
        if (clang_isConstQualifiedType(t) || clang_isConstQualifiedType(ct))
            return true;
        if (ct.kind != CXType_ConstantArray && ct.kind != CXType_IncompleteArray &&
            ct.kind != CXType_VariableArray && ct.kind != CXType_DependentSizedArray)
            return false;
        t = clang_getArrayElementType(ct);
    }
    return false;
}

typedef struct refs {
    el_ctx *ctx;
    def *d;
    const char *self;
} refs;

static bool file_scope(CXCursor c)
{
    return clang_getCursorKind(clang_getCursorSemanticParent(c)) == CXCursor_TranslationUnit;
}

static enum CXChildVisitResult refs_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    refs *r = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr && k != CXCursor_TypeRef)
        return CXChildVisit_Recurse;
    CXCursor ref = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(ref))
        return CXChildVisit_Recurse;
    CXFile rf = NULL;
    offset_of(clang_getCursorLocation(ref), &rf, NULL);
    if (!rf)
        return CXChildVisit_Recurse;
    if (rf != r->d->file) {
        const char *p = el_file_path(r->ctx, rf);
        if (p)
            add_name(&r->d->needs, &r->d->n_needs, &r->d->cap_needs, p, false);
        if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
            char fn[256];
            elc_spelling(ref, fn, sizeof fn);
            add_name(&r->d->calls, &r->d->n_calls, &r->d->cap_calls, fn, true);
        }
        return CXChildVisit_Recurse;
    }
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_FunctionDecl) {
        char fn[256];
        elc_spelling(ref, fn, sizeof fn);
        if (strcmp(fn, r->self) != 0)
            add_name(&r->d->calls, &r->d->n_calls, &r->d->cap_calls, fn, true);
    }
    if ((rk == CXCursor_FunctionDecl || rk == CXCursor_VarDecl) && file_scope(ref)) {
        char name[256];
        elc_spelling(ref, name, sizeof name);
        if (clang_getCursorLinkage(ref) == CXLinkage_Internal && strcmp(name, r->self) != 0)
            add_name(&r->d->uses, &r->d->n_uses, &r->d->cap_uses, name, true);
    } else if (rk != CXCursor_ParmDecl && rk != CXCursor_VarDecl && rk != CXCursor_FunctionDecl &&
               rk != CXCursor_FieldDecl) {
        /* a type, an enum constant... written in this file: moving the
         * definition alone would leave it behind */
        CXCursor sp = clang_getCursorSemanticParent(ref);
        if (rk != CXCursor_EnumConstantDecl || !clang_equalCursors(sp, ref)) {
            char nm[256];
            elc_spelling(ref, nm, sizeof nm);
            r->d->local_deps = true;
            if (nm[0])
                add_name(&r->d->locals, &r->d->n_locals, &r->d->cap_locals, nm, true);
        }
    }
    return CXChildVisit_Recurse;
}

static void on_definition(el_ctx *ctx, scan_state *s, CXCursor c)
{
    CXTranslationUnit tu = el_tu(ctx);
    CXFile file = NULL, bf = NULL, ef = NULL;
    unsigned line = 0;
    offset_of(clang_getCursorLocation(c), &file, &line);
    CXSourceRange ext = clang_getCursorExtent(c);
    size_t b = offset_of(clang_getRangeStart(ext), &bf, NULL);
    size_t e = offset_of(clang_getRangeEnd(ext), &ef, NULL);
    if (!file || bf != file || ef != file)
        return;
    const char *path = el_file_path(ctx, file);
    size_t size = 0;
    const char *text = clang_getFileContents(tu, file, &size);
    if (!path || !text || b > size || e > size)
        return;
    if (e < b)
        e = b;
    size_t begin = with_leading_comment(text, b);
    size_t end = line_after(text, size, e > b ? e - 1 : e);
    /* a variable's extent stops before its ';' */
    if (e < size && end <= e)
        end = line_after(text, size, e);

    char name[256];
    elc_spelling(c, name, sizeof name);
    bool is_fn = clang_getCursorKind(c) == CXCursor_FunctionDecl;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "path", json_object_new_string(path));
    json_object_object_add(o, "name", json_object_new_string(name));
    json_object_object_add(o, "function", json_object_new_boolean(is_fn));
    json_object_object_add(o, "static", json_object_new_boolean(clang_getCursorLinkage(c) == CXLinkage_Internal));
    json_object_object_add(o, "const", json_object_new_boolean(!is_fn && is_const(c)));
    json_object_object_add(o, "kernel", json_object_new_boolean(is_fn && is_kernel(c)));
    if (is_fn) {
        /* does it have its op's signature (so that it can be registered)? */
        char target[160], why[512];
        el_fix_safety safety = EL_FIX_NONE;
        if (!s->rw)
            s->rw = el_rewriter_new(tu, el_ctx_config(ctx));
        if (!el_rewrite_name(s->rw, name, target, sizeof target, &safety, why, sizeof why) &&
            strstr(why, "signature"))
            json_object_object_add(o, "signature", json_object_new_string(why));
    }
    json_object_object_add(o, "in_macro", json_object_new_boolean(elc_in_macro(c)));
    json_object_object_add(o, "line", json_object_new_int64(line));
    json_object_object_add(o, "begin", json_object_new_int64((int64_t)begin));
    json_object_object_add(o, "end", json_object_new_int64((int64_t)end));

    el_grow(&s->defs, &s->cap_defs, s->n_defs + 1, sizeof *s->defs);
    def *d = &s->defs[s->n_defs++];
    memset(d, 0, sizeof *d);
    d->file = file;
    d->begin = b;
    d->end = e;
    d->obj = o;
    refs r = {ctx, d, name};
    clang_visitChildren(c, refs_visit, &r);
}

/* ---- #include ------------------------------------------------------------- */

static void on_include(el_ctx *ctx, CXCursor c)
{
    CXFile file = NULL;
    unsigned line = 0;
    size_t off = offset_of(clang_getCursorLocation(c), &file, &line);
    const char *path = el_file_path(ctx, file);
    size_t size = 0;
    const char *text = file ? clang_getFileContents(el_tu(ctx), file, &size) : NULL;
    if (!path || !text || off > size)
        return;
    size_t b = line_start(text, off), e = line_after(text, size, off);
    /* # include <x> / "x": the delimiter after the directive's name */
    size_t i = b;
    while (i < e && (text[i] == ' ' || text[i] == '\t' || text[i] == '#'))
        i++;
    while (i < e && ((text[i] >= 'a' && text[i] <= 'z') || text[i] == '_'))
        i++;
    while (i < e && (text[i] == ' ' || text[i] == '\t'))
        i++;
    char spelled[PATH_MAX];
    elc_spelling(c, spelled, sizeof spelled);
    const char *resolved = el_file_path(ctx, clang_getIncludedFile(c));

    json_object *o = json_object_new_object();
    json_object_object_add(o, "path", json_object_new_string(path));
    json_object_object_add(o, "spelled", json_object_new_string(spelled));
    json_object_object_add(o, "angled", json_object_new_boolean(i < e && text[i] == '<'));
    json_object_object_add(o, "resolved", resolved ? json_object_new_string(resolved) : NULL);
    json_object_object_add(o, "line", json_object_new_int64(line));
    json_object_object_add(o, "begin", json_object_new_int64((int64_t)b));
    json_object_object_add(o, "end", json_object_new_int64((int64_t)e));
    emit(ctx, EM_FACT_INCLUDE, o);
}

/* ---- tables ---------------------------------------------------------------- */

static void on_table(el_ctx *ctx, CXCursor c)
{
    const char *backend = NULL;
    el_backend_table t;
    if (!el_backend_table_at(ctx, c, &backend, &t))
        return;
    CXFile file = NULL;
    unsigned line = 0;
    offset_of(clang_getCursorLocation(c), &file, &line);
    const char *path = el_file_path(ctx, file);
    if (path) {
        char var[256];
        elc_spelling(c, var, sizeof var);
        json_object *o = json_object_new_object(), *ops = json_object_new_object();
        json_object_object_add(o, "path", json_object_new_string(path));
        json_object_object_add(o, "line", json_object_new_int64(line));
        json_object_object_add(o, "backend", json_object_new_string(backend ? backend : ""));
        json_object_object_add(o, "var", json_object_new_string(var));
        for (size_t i = 0; i < el_op_count(); i++)
            if (t.implemented[i])
                json_object_object_add(ops, el_op_name(i),
                                       json_object_new_string(t.functions[i] ? t.functions[i] : ""));
        json_object_object_add(o, "ops", ops);
        emit(ctx, EM_FACT_TABLE, o);
    }
    el_backend_table_free(&t);
}

/* ---- why a use of a backend function is not rewritten -------------------- */

/* Is the name at c written by a macro's body, not in the file (where
 * the text is the name, a macro argument's too)?  *macro: the macro
 * whose use the name comes from, as written there.  (libclang 14's
 * spelling location is where the file has the text: a macro argument's
 * own, or the use of the macro whose body has it.) */
static bool written_by_macro(el_ctx *ctx, CXCursor c, const char *name, char *macro, size_t mn)
{
    CXFile f = NULL;
    unsigned off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
    size_t size = 0, n = strlen(name), e = off;
    const char *t = f ? clang_getFileContents(el_tu(ctx), f, &size) : NULL;
    while (t && e < size && el_text_ident_char(t[e]))
        e++;
    snprintf(macro, mn, "%.*s", t ? (int)(e - off) : 0, t ? t + off : "");
    if (t && el_text_spells_split(t, size, off, name))
        return false; /* the name, over two lines */
    return !t || e - off != n || strncmp(t + off, name, n) != 0;
}

/* Is the use c (a routine's name, dgemm: el_routine_alias_target, or
 * dgemm__, _dgemm_: el_routine_mangled_stem) written as an argument of a
 * macro's use (autoconf's FC_FUNC(dgemm, DGEMM))?  The macro's name into
 * macro[mn]. */
static bool routine_argument_of(el_ctx *ctx, CXCursor c, char *macro, size_t mn)
{
    const el_config *cfg = el_ctx_config(ctx);
    char name[256], stem[256];
    elc_spelling(c, name, sizeof name);
    if (!el_routine_alias_target(cfg, name) && !el_routine_mangled_stem(cfg, name, stem, sizeof stem))
        return false;
    CXFile sf = NULL, ef = NULL;
    unsigned soff = 0, eoff = 0;
    CXSourceLocation loc = clang_getCursorLocation(c);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
    if (!sf || !ef || !clang_File_isEqual(sf, ef) || eoff >= soff)
        return false;
    size_t size = 0, e = eoff;
    const char *t = clang_getFileContents(el_tu(ctx), ef, &size);
    while (t && e < size && el_text_ident_char(t[e]))
        e++;
    if (!t || e == eoff || e > soff)
        return false;
    size_t i = el_text_skip_blanks(t, size, e);
    if (i >= soff || t[i] != '(')
        return false;
    snprintf(macro, mn, "%.*s", (int)(e - eoff), t + eoff);
    return true;
}

/* Does the macro use at t[off..] (`F77_CALL(dgemm)`, the macro's name is
 * macro[]) paste the name together from the identifier it is given: the
 * name is the argument with a short prefix of letters (a precision: s, d,
 * c, z, and id/is of idamax_) or a library's prefix ending in '_' (fftw_,
 * fftwf_: nfft's FFTW(execute)), and a short suffix of '_' and digits,
 * one of them at least (dgemm_ of dgemm, dgemm_64; daxpy_ of axpy,
 * idamax_ of amax, fftw_execute of execute)?  The argument into arg[].  (R's F77_CALL and F77_NAME,
 * `x ## _`; a solver's precision macro, `d ## x ## _` or through a
 * second macro for a suffix that is a macro.) */
static bool pasted_from_argument(const char *t, size_t size, size_t off, const char *macro,
                                 const char *name, char *arg, size_t an)
{
    size_t i = el_text_skip_blanks(t, size, off + strlen(macro));
    if (i >= size || t[i] != '(')
        return false;
    size_t b = el_text_skip_blanks(t, size, i + 1), e = b;
    while (e < size && el_text_ident_char(t[e]))
        e++;
    size_t after = el_text_skip_blanks(t, size, e);
    if (e == b || after >= size || t[after] != ')' || e - b >= an)
        return false;
    snprintf(arg, an, "%.*s", (int)(e - b), t + b);
    /* a short prefix of letters, the argument, a short suffix: dgemm_,
     * dgemm_64, daxpy_, idamax_ */
    size_t an_ = e - b, nn = strlen(name);
    if (nn <= an_)
        return false;
    for (size_t p = 0; p <= 8 && p + an_ <= nn; p++) {
        if (p > 0 && !el_text_ident_char(name[p - 1]))
            break;
        /* a longer prefix is a library's, ending in '_' (fftw_, fftwf_) */
        bool letters = true;
        for (size_t q = 0; q < p; q++)
            letters = letters && ((name[q] >= 'a' && name[q] <= 'z') ||
                                  (name[q] >= 'A' && name[q] <= 'Z'));
        if (!(p <= 2 && letters) && name[p - 1] != '_')
            continue;
        if (strncmp(name + p, arg, an_) != 0 || nn - an_ - p > 4)
            continue;
        size_t q = p + an_;
        while (q < nn && (name[q] == '_' || (name[q] >= '0' && name[q] <= '9')))
            q++;
        if (q == nn)
            return true;
    }
    return false;
}

/* ---- what a macro's body does with a name ---- */

/* Is token k of a macro's tokens one of its parameters (__VA_ARGS__ of
 * a variadic one)? */
static bool macro_param(CXTranslationUnit tu, CXToken *toks, unsigned body, unsigned k)
{
    if (clang_getTokenKind(toks[k]) != CXToken_Identifier || body < 3)
        return false;
    char t[256], p[256];
    elc_string(clang_getTokenSpelling(tu, toks[k]), t, sizeof t);
    for (unsigned i = 2; i + 1 < body; i++) {
        elc_string(clang_getTokenSpelling(tu, toks[i]), p, sizeof p);
        if (!strcmp(p, t) || (!strcmp(p, "...") && !strcmp(t, "__VA_ARGS__")))
            return true;
    }
    return false;
}

typedef struct body_facts {
    bool spells;         /* a token of the body is the name */
    bool pastes;         /* the body pastes (##) */
    bool pastes_param;   /* ... a parameter, next to ## */
    bool param_to_macro; /* a parameter beside a macro of the body (given to it) */
} body_facts;

/* What the body of macro mdef does with name. */
static body_facts macro_body(CXTranslationUnit tu, CXCursor mdef, const char *name)
{
    body_facts f = {0};
    unsigned nt = 0, body = 0;
    CXToken *toks = elc_macro_tokens(tu, mdef, &nt, &body);
    bool param = false, macro = false;
    for (unsigned i = body; i < nt; i++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        if (!strcmp(t, name))
            f.spells = true;
        else if (!strcmp(t, "##")) {
            f.pastes = true;
            f.pastes_param = f.pastes_param || (i > body && macro_param(tu, toks, body, i - 1)) ||
                             (i + 1 < nt && macro_param(tu, toks, body, i + 1));
        } else if (macro_param(tu, toks, body, i))
            param = true;
        else if (clang_getTokenKind(toks[i]) == CXToken_Identifier && elc_macro_named(tu, t) > 0)
            macro = true;
    }
    f.param_to_macro = param && macro;
    clang_disposeTokens(tu, toks, nt);
    return f;
}

/* Parameter k's index among macro mdef's parameters (tokens 2..body-2),
 * -1 for __VA_ARGS__ or none. */
static int macro_param_index(CXTranslationUnit tu, CXToken *toks, unsigned body, unsigned k)
{
    char t[256], p[256];
    elc_string(clang_getTokenSpelling(tu, toks[k]), t, sizeof t);
    int n = 0;
    for (unsigned i = 2; i + 1 < body; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        elc_string(clang_getTokenSpelling(tu, toks[i]), p, sizeof p);
        if (!strcmp(p, t))
            return n;
        n++;
    }
    return -1;
}

/* Argument idx of the written arguments args ("d, axpy_"), trimmed, into
 * out; false when there is none such. */
static bool macro_arg_nth(const char *args, int idx, char *out, size_t on)
{
    int depth = 0, n = 0;
    const char *b = args;
    for (const char *q = args;; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        if (*q == '\0' || (*q == ',' && depth == 0)) {
            if (n == idx) {
                while (b < q && (*b == ' ' || *b == '\t'))
                    b++;
                const char *e = q;
                while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
                    e--;
                if ((size_t)(e - b) >= on)
                    return false;
                snprintf(out, on, "%.*s", (int)(e - b), b);
                return true;
            }
            n++;
            b = q + 1;
        }
        if (*q == '\0')
            return false;
    }
}

/* Can a paste (##) of macro mdef's body form name?  Each run of tokens
 * joined by ## is put together -- a parameter as its argument of args
 * (the use's written arguments, "d, axpy_"), when args is given -- and
 * the result must be part of name or a macro (which may make it); a
 * parameter whose argument is not known stands for anything, and then
 * each literal piece of the run must be part of name.  `log_##f` with f
 * foo cannot form dscal_; `d##f##_` with f axpy forms daxpy_. */
static bool body_paste_forms(CXTranslationUnit tu, CXCursor mdef, const char *name,
                             const char *args)
{
    unsigned nt = 0, body = 0;
    CXToken *toks = elc_macro_tokens(tu, mdef, &nt, &body);
    bool yes = false;
    for (unsigned i = body; i < nt && !yes; i++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        if (strcmp(t, "##") != 0 || i == body)
            continue;
        /* the run holding this ##: from i-1 while tokens are joined */
        unsigned b = i - 1, e = i + 1;
        while (b >= body + 2) {
            char u[8];
            elc_string(clang_getTokenSpelling(tu, toks[b - 1]), u, sizeof u);
            if (strcmp(u, "##") != 0)
                break;
            b -= 2;
        }
        while (e + 2 < nt) {
            char u[8];
            elc_string(clang_getTokenSpelling(tu, toks[e + 1]), u, sizeof u);
            if (strcmp(u, "##") != 0)
                break;
            e += 2;
        }
        char whole[512] = "";
        bool known = true, pieces = true;
        for (unsigned k = b; k <= e && k < nt; k += 2) {
            char piece[256];
            elc_string(clang_getTokenSpelling(tu, toks[k]), piece, sizeof piece);
            if (macro_param(tu, toks, body, k)) {
                int idx = macro_param_index(tu, toks, body, k);
                if (!args || idx < 0 || !macro_arg_nth(args, idx, piece, sizeof piece)) {
                    known = false;
                    continue;
                }
            } else if (piece[0] && !strstr(name, piece)) {
                pieces = false;
            }
            if (strlen(whole) + strlen(piece) < sizeof whole)
                strcat(whole, piece);
        }
        if (known)
            yes = (whole[0] && strstr(name, whole)) || elc_macro_named(tu, whole) > 0;
        else
            yes = pieces;
        i = e;
    }
    clang_disposeTokens(tu, toks, nt);
    return yes;
}

/* The definition of the macro used at sf:soff (the innermost use holding
 * that place), when it is macro[]; else a null cursor. */
static CXCursor macro_def_at(CXTranslationUnit tu, CXFile sf, unsigned soff, const char *macro)
{
    CXCursor exp = sf ? elc_macro_expansion_at(tu, sf, soff) : clang_getNullCursor();
    CXCursor mdef = clang_getCursorReferenced(exp);
    char mname[128];
    if (clang_Cursor_isNull(exp) || clang_getCursorKind(mdef) != CXCursor_MacroDefinition ||
        strcmp(elc_spelling(mdef, mname, sizeof mname), macro) != 0)
        return clang_getNullCursor();
    return mdef;
}

/* Macros already followed (a chain that names itself ends). */
typedef struct macro_seen {
    char v[16][128];
    unsigned n;
} macro_seen;

static bool seen_add(macro_seen *s, const char *m)
{
    for (unsigned i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], m))
            return false;
    if (s->n == 16 || strlen(m) >= sizeof s->v[0])
        return false;
    memcpy(s->v[s->n++], m, strlen(m) + 1);
    return true;
}

/* Does macro mdef make name: its body spells it or pastes (##), or a
 * macro of its body does (depth macros deep at most)?  With via, the
 * macro of mdef's body that does into via[] (mdef's own spelling or
 * pasting is then not asked: the caller knows it does neither). */
static bool macro_makes(CXTranslationUnit tu, CXCursor mdef, const char *name, unsigned depth,
                        macro_seen *seen, char *via, size_t vn, bool paste_ok)
{
    unsigned nt = 0, body = 0;
    CXToken *toks = elc_macro_tokens(tu, mdef, &nt, &body);
    bool yes = false;
    for (unsigned i = body; i < nt && !yes && !via; i++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        yes = !strcmp(t, name);
    }
    if (!yes && !via && paste_ok)
        yes = body_paste_forms(tu, mdef, name, NULL);
    for (unsigned i = body; i < nt && !yes && depth > 0; i++) {
        char t[256];
        elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t);
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier || macro_param(tu, toks, body, i))
            continue;
        /* only macros take a place in seen: a body's locals and types
         * (SuiteSparse's M_blas_int, N_blas_int, ...) would fill it before
         * the macro that names the routine */
        CXCursor d = elc_macro_definition(tu, t);
        if (clang_Cursor_isNull(d) || !seen_add(seen, t) ||
            !macro_makes(tu, d, name, depth - 1, seen, NULL, 0, paste_ok))
            continue;
        yes = !via || strlen(t) < vn;
        if (via && yes)
            memcpy(via, t, strlen(t) + 1);
    }
    clang_disposeTokens(tu, toks, nt);
    return yes;
}

/* The name a use spells at sf:soff comes from macro[], used there, but
 * does that macro's body spell it?  When it does not -- a macro of its
 * body makes it (sundials' `#define xgetrs_f77 dgetrs_f77`, and
 * dgetrs_f77 pastes dgetrs_ together; `SCALE` calling `TRACE` first,
 * then `DSCAL`, which spells dscal_) -- that macro into via[] and true:
 * the one whose own body spells the name or pastes, followed a few
 * macros deep.  False when the body spells or pastes the name itself, no
 * macro of it makes it, or it cannot be read. */
static bool macro_makes_through(CXTranslationUnit tu, CXFile sf, unsigned soff, const char *macro,
                                const char *name, char *via, size_t vn)
{
    CXCursor mdef = macro_def_at(tu, sf, soff, macro);
    if (clang_Cursor_isNull(mdef))
        return false;
    body_facts f = macro_body(tu, mdef, name);
    if (f.spells || (f.pastes && body_paste_forms(tu, mdef, name, NULL)))
        return false;
    /* a macro that spells the name before one that pastes (a TRACE that
     * pastes log_##s ahead of the DSCAL that names dscal_) */
    for (int paste_ok = 0; paste_ok < 2; paste_ok++) {
        macro_seen seen = {.n = 0};
        seen_add(&seen, macro);
        via[0] = '\0';
        if (macro_makes(tu, mdef, name, 8, &seen, via, vn, paste_ok) && via[0])
            return true;
    }
    return false;
}

/* The arguments of the macro use at t[off..] (macro[] its name), as
 * written: "d, axpy_" of CAT(d, axpy_); "" when they cannot be read. */
static void macro_use_args(const char *t, size_t size, size_t off, const char *macro, char *out,
                           size_t on)
{
    out[0] = '\0';
    size_t i = el_text_skip_blanks(t, size, off + strlen(macro));
    if (i >= size || t[i] != '(')
        return;
    int depth = 0;
    for (size_t e = i; e < size && t[e] != '\n'; e++) {
        depth += t[e] == '(' ? 1 : t[e] == ')' ? -1 : 0;
        if (depth == 0) {
            if (e - i - 1 < on)
                snprintf(out, on, "%.*s", (int)(e - i - 1), t + i + 1);
            return;
        }
    }
}

/* At the use `at` of backend function fn: why it has no rewrite ("" when
 * it has one) and the file declaring fn (which include brings it); with
 * rw, a call template's rewrite of the call (the edit, its safety and
 * description), for the call EH102 reports without a fix (scan.c). */
static void emit_why_rw(el_ctx *ctx, CXCursor at, CXCursor fn, const char *why,
                        const el_call_rewrite *rw)
{
    CXFile f = NULL, df = NULL;
    unsigned line = 0, col = 0;
    /* EH102's place of the finding, which the reason is matched to */
    elc_written_location(clang_getCursorLocation(at), &f, &line, &col, NULL);
    const char *path = el_file_path(ctx, f);
    if (!path)
        return;
    clang_getSpellingLocation(clang_getCursorLocation(clang_getCanonicalCursor(fn)), &df, NULL, NULL,
                              NULL);
    const char *decl = el_file_path(ctx, df);
    json_object *o = json_object_new_object();
    if (decl)
        json_object_object_add(o, "decl", json_object_new_string(decl));
    json_object_object_add(o, "path", json_object_new_string(path));
    json_object_object_add(o, "line", json_object_new_int64(line));
    json_object_object_add(o, "col", json_object_new_int64(col));
    json_object_object_add(o, "why", json_object_new_string(why));
    char name[256];
    /* the symbol: two at one place are two reasons (scan.c) */
    if (elc_spelling(fn, name, sizeof name)[0])
        json_object_object_add(o, "name", json_object_new_string(name));
    const char *rw_path = rw && rw->text && !rw->rename ? el_file_path(ctx, rw->file) : NULL;
    if (rw_path) {
        json_object_object_add(o, "rw_path", json_object_new_string(rw_path));
        json_object_object_add(o, "rw_begin", json_object_new_int64(rw->begin));
        json_object_object_add(o, "rw_end", json_object_new_int64(rw->end));
        json_object_object_add(o, "rw_text", json_object_new_string(rw->text));
        json_object_object_add(o, "rw_unsafe", json_object_new_boolean(rw->safety == EL_FIX_UNSAFE));
        json_object_object_add(o, "rw_desc", json_object_new_string(rw->description));
    }
    emit(ctx, EM_FACT_WHY, o);
}

static void emit_why(el_ctx *ctx, CXCursor at, CXCursor fn, const char *why)
{
    emit_why_rw(ctx, at, fn, why, NULL);
}

/* Might EH102 report a use of the function `name`: an eh_<backend>_
 * name, a library's (cblas_, fftw, ...), a routine without its Fortran
 * underscore that a macro of the line stands for (dgemv of SCS's
 * BLAS(gemv) under NOBLASSUFFIX: el_routine_alias_target), one under
 * hypre's manglings 3 and 5 (dgemv__, _dgemv_: el_routine_mangled_stem), or one the
 * configuration gives a call template for?  (Only the sites EH102
 * reports read the reason.) */
static bool maybe_backend_function(const el_config *cfg, const char *name)
{
    char be[64], stem[256];
    return el_backend_of_symbol(cfg, name, be, sizeof be) ||
           el_backend_prefix_of(cfg, name, false) || el_routine_alias_target(cfg, name) ||
           el_routine_mangled_stem(cfg, name, stem, sizeof stem) ||
           el_config_rewrite_for(cfg, name);
}

/* A use of a backend function EH102 reports: when it gets no rewrite,
 * record the specific reason for the manual-work list.  Whether it
 * recorded one (with the file declaring the function). */
static bool on_use(el_ctx *ctx, scan_state *s, CXCursor c)
{
    if (!el_is_linted(ctx, clang_getCursorLocation(c)))
        return false;
    const el_config *cfg = el_ctx_config(ctx);
    if (!s->rw)
        s->rw = el_rewriter_new(el_tu(ctx), cfg);
    char name[256], be[64], why[2048], tmp[512], target[160], advice[1024];
    el_call_rewrite rw;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        /* through a pointer: EH102 reports the call */
        CXCursor callee = elc_strip(elc_child(c, 0));
        if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr &&
            clang_getCursorKind(clang_getCursorReferenced(callee)) == CXCursor_FunctionDecl)
            return false;
        CXCursor fn = elc_callee(c);
        if (clang_Cursor_isNull(fn) ||
            !maybe_backend_function(cfg, elc_spelling(fn, name, sizeof name)))
            return false;
        snprintf(why, sizeof why, "the call goes through a function pointer that holds %s: "
                                  "make the pointer hold the op (or call the op) by hand", name);
        emit_why(ctx, c, fn, why);
        return true;
    }
    CXCursor fn = clang_getCursorReferenced(c);
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl ||
        !maybe_backend_function(cfg, elc_spelling(fn, name, sizeof name)))
        return false;
    CXCursor call = el_call_of_callee(ctx, c);
    bool ok = clang_Cursor_isNull(call) ? el_rewrite_ref(s->rw, c, &rw)
                                        : el_rewrite_call(s->rw, call, &rw);
    if (ok) {
        /* (a template's rewrite: EH102 attaches none to a call of a library
         * name the project declares itself, which it decides across
         * translation units -- R's and igraph's BLAS prototypes) */
        emit_why_rw(ctx, c, fn, "", clang_Cursor_isNull(call) ? NULL : &rw);
        el_call_rewrite_clear(&rw);
        return true;
    }
    el_fix_safety safety = EL_FIX_NONE;
    bool eh_name = el_backend_of_symbol(cfg, name, be, sizeof be) != NULL;
    const char *use = clang_Cursor_isNull(call) ? "use" : "call"; /* (an address is no call) */
    char macro[128], arg[128], use_args[96];
    CXFile sf = NULL;
    unsigned soff = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL, &soff);
    size_t ssize = 0;
    const char *st = sf ? clang_getFileContents(el_tu(ctx), sf, &ssize) : NULL;
    CXCursor mdef = clang_getNullCursor();
    body_facts body = {0};
    if (written_by_macro(ctx, c, name, macro, sizeof macro) && macro[0]) {
        mdef = macro_def_at(el_tu(ctx), sf, soff, macro);
        if (!clang_Cursor_isNull(mdef))
            body = macro_body(el_tu(ctx), mdef, name);
    }
    /* a macro that pastes (##), or gives its argument to one that may:
     * not one that spells the name and ignores its argument (MY(axpy)
     * of `#define MY(x) daxpy_`) */
    bool argument_pasted = clang_Cursor_isNull(mdef) ||
                           (!body.spells && (body.pastes || body.param_to_macro));
    if (written_by_macro(ctx, c, name, macro, sizeof macro) && macro[0] && st &&
        argument_pasted && pasted_from_argument(st, ssize, soff, macro, name, arg, sizeof arg)) {
        /* the macro is the platform's (R's F77_CALL): no edit of it helps */
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why, sizeof why, "macro %s pastes the name %s together from its argument "
                                  "(%s(%s)), so the name is not written out here and no rewrite "
                                  "can reach the %s: rewrite this %s by hand%s",
                 macro, name, macro, arg, use, use, advice);
    } else if (written_by_macro(ctx, c, name, macro, sizeof macro) && macro[0] && st &&
               !body.spells && body.pastes_param &&
               (macro_use_args(st, ssize, soff, macro, use_args, sizeof use_args),
                body_paste_forms(el_tu(ctx), mdef, name, use_args[0] ? use_args : NULL))) {
        /* CAT(d, axpy_), VCALL(axpy, ...): pasted from several arguments
         * (not CALL(foo, ...) pasting log_##f and naming dscal_ through
         * a macro) */
        const char *args = use_args;
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        if (args[0])
            snprintf(why, sizeof why, "macro %s pastes the name %s together from its arguments "
                                      "(%s(%s)), so the name is not written out here and no "
                                      "rewrite can reach the %s: rewrite this %s by hand%s",
                     macro, name, macro, args, use, use, advice);
        else
            snprintf(why, sizeof why, "macro %s pastes the name %s together from its arguments, "
                                      "so the name is not written out here and no rewrite can "
                                      "reach the %s: rewrite this %s by hand%s",
                     macro, name, use, use, advice);
    } else if (written_by_macro(ctx, c, name, macro, sizeof macro) && macro[0] &&
               macro_makes_through(el_tu(ctx), sf, soff, macro, name, arg, sizeof arg)) {
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why, sizeof why, "%s comes from macro %s, through macro %s of its body (an edit "
                                  "of either would change every use of it): rewrite the macros "
                                  "or this use by hand%s",
                 name, macro, arg, advice);
    } else if (written_by_macro(ctx, c, name, macro, sizeof macro)) {
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why, sizeof why, "%s is named inside macro %s (an edit there would change every "
                                  "use of the macro): rewrite the macro or this use by hand%s",
                 name, macro[0] ? macro : "?", advice);
    } else if (!eh_name && !el_config_rewrite_for(cfg, name) &&
               !el_symbol_replacement(cfg, name, tmp, sizeof tmp) &&
               routine_argument_of(ctx, c, macro, sizeof macro)) {
        /* FC_FUNC(dgemm, DGEMM)(...): the routine's name handed to a
         * mangling macro at the call (EH102's Fortran twins) */
        el_rewrite_routine_advice(s->rw, name, advice, sizeof advice);
        snprintf(why, sizeof why, "%s is handed to macro %s, which makes the name called here "
                                  "(an edit of the macro would change every use of it): rewrite "
                                  "this use by hand%s",
                 name, macro, advice);
    } else if (rw.why[0]) {
        snprintf(why, sizeof why, "%s", rw.why); /* the call's place or text */
    } else if (!eh_name && el_config_rewrite_for(cfg, name)) {
        snprintf(why, sizeof why, "the call template for %s does not fit this use", name);
    } else if (!eh_name && !el_symbol_replacement(cfg, name, tmp, sizeof tmp)) {
        return false; /* no op is known to replace it (the plan says so) */
    } else if (!el_rewrite_name_at(s->rw, name, call, target, sizeof target, &safety, tmp,
                                   sizeof tmp)) {
        snprintf(why, sizeof why, "%s: %s", name, tmp);
    } else if (el_config_rewrite_for(cfg, name)) {
        snprintf(why, sizeof why, "the call template for %s does not fit this use", name);
    } else {
        snprintf(why, sizeof why, "%s cannot be rewritten here automatically: rewrite this use "
                                  "by hand", name);
    }
    emit_why(ctx, c, fn, why);
    return true;
}

/* ---- hooks ---------------------------------------------------------------- */

/* `static int n;` with no definition anywhere in the TU: a tentative
 * definition, which C makes a definition (libclang does not count it).
 * Only the first declaration, so a repeated one gives one definition. */
static bool tentative(CXCursor c)
{
    if (clang_Cursor_getStorageClass(c) == CX_SC_Extern || !file_scope(c))
        return false;
    return clang_Cursor_isNull(clang_getCursorDefinition(c)) &&
           clang_equalCursors(clang_getCanonicalCursor(c), c);
}

/* Is the declaration d one EH102 may report a use of (a backend's, or a
 * library's by its prefix), or a typedef of one? */
static bool backend_decl(el_ctx *ctx, CXCursor d, int depth)
{
    char name[256];
    const char *be = NULL;
    el_file_class k = el_cursor_class(ctx, d, &be);
    if (k == EL_FILE_BACKEND ||
        (k == EL_FILE_EXTERNAL &&
         el_backend_prefix_of(el_ctx_config(ctx), elc_spelling(d, name, sizeof name), true)))
        return true;
    if (clang_getCursorKind(d) != CXCursor_TypedefDecl || depth > 8)
        return false;
    CXCursor u = clang_getTypeDeclaration(clang_getTypedefDeclUnderlyingType(d));
    return !clang_Cursor_isNull(u) && backend_decl(ctx, u, depth + 1);
}

/* A use of a backend's type, constant, variable or function (one on_use
 * recorded no reason for), in a linted file: record the file declaring
 * what it names, so that the plan knows which include brings it (an
 * include that another include of the file brings the same declaration
 * through can go, as emberlint --fix decides: GSL's CBLAS names, which
 * its gsl_blas.h brings too).  No reason: the plan says why such a use
 * is left to a person. */
static void on_name(el_ctx *ctx, CXCursor c)
{
    /* (a backend's own uses include what they like: no EH101 there) */
    CXSourceLocation at = clang_getCursorLocation(c);
    if (!el_is_linted(ctx, at) || el_location_class(ctx, at, NULL) == EL_FILE_BACKEND)
        return;
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_Cursor_isNull(d) || clang_getCursorKind(d) == CXCursor_ParmDecl)
        return;
    CXFile uf = NULL, df = NULL;
    clang_getSpellingLocation(at, &uf, NULL, NULL, NULL);
    clang_getSpellingLocation(clang_getCursorLocation(d), &df, NULL, NULL, NULL);
    if (!df || clang_File_isEqual(uf, df) || !backend_decl(ctx, d, 0))
        return; /* (a name of its own file: no include brings it) */
    emit_why(ctx, c, d, "");
}

static void on_cursor(el_ctx *ctx, void *state, CXCursor c)
{
    scan_state *s = state;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_CallExpr) {
        if (!on_use(ctx, s, c) && k == CXCursor_DeclRefExpr)
            on_name(ctx, c);
        return;
    }
    if (k == CXCursor_TypeRef) {
        on_name(ctx, c);
        return;
    }
    if (el_depth(ctx) != 0)
        return;
    switch (clang_getCursorKind(c)) {
    case CXCursor_InclusionDirective:
        on_include(ctx, c);
        break;
    case CXCursor_MacroExpansion: {
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(d))
            break;
        macro_use m = {NULL, NULL, 0, ""};
        elc_spelling(c, m.name, sizeof m.name);
        m.offset = offset_of(clang_getCursorLocation(c), &m.file, NULL);
        offset_of(clang_getCursorLocation(d), &m.def_file, NULL);
        if (m.file && m.def_file) {
            el_grow(&s->macros, &s->cap_macros, s->n_macros + 1, sizeof *s->macros);
            s->macros[s->n_macros++] = m;
        }
        break;
    }
    case CXCursor_VarDecl:
        if (clang_isCursorDefinition(c) || tentative(c)) {
            on_definition(ctx, s, c);
            on_table(ctx, c);
        }
        break;
    case CXCursor_FunctionDecl:
        if (clang_isCursorDefinition(c))
            on_definition(ctx, s, c);
        break;
    default:
        break;
    }
}

static void end(el_ctx *ctx, void *state)
{
    scan_state *s = state;
    for (size_t m = 0; m < s->n_macros; m++) {
        const macro_use *u = &s->macros[m];
        for (size_t i = 0; i < s->n_defs; i++) {
            def *d = &s->defs[i];
            if (d->file != u->file || u->offset < d->begin || u->offset >= d->end)
                continue;
            if (u->def_file == d->file) {
                d->local_deps = true;
                if (u->name[0])
                    add_name(&d->locals, &d->n_locals, &d->cap_locals, u->name, true);
            } else {
                const char *p = el_file_path(ctx, u->def_file);
                if (p)
                    add_name(&d->needs, &d->n_needs, &d->cap_needs, p, false);
            }
        }
    }
    for (size_t i = 0; i < s->n_defs; i++) {
        def *d = &s->defs[i];
        json_object_object_add(d->obj, "uses", str_array(d->uses, d->n_uses));
        json_object_object_add(d->obj, "needs", str_array(d->needs, d->n_needs));
        json_object_object_add(d->obj, "local_deps", json_object_new_boolean(d->local_deps));
        json_object_object_add(d->obj, "locals", str_array(d->locals, d->n_locals));
        json_object_object_add(d->obj, "calls", str_array(d->calls, d->n_calls));
        emit(ctx, EM_FACT_DEF, d->obj);
        free_names(d->uses, d->n_uses);
        free(d->needs); /* borrowed from the engine's path cache (el_file_path) */
        free_names(d->locals, d->n_locals);
        free_names(d->calls, d->n_calls);
    }
    el_rewriter_free(s->rw);
    free(s->defs);
    free(s->macros);
}

const el_rule em_scan_rule = {
    .id = "ember-migrate-scan",
    .kinds = kinds,
    .state_size = sizeof(scan_state),
    .on_cursor = on_cursor,
    .end = end,
};
