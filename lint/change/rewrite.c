/* lint/change/rewrite.c -- call rewrites (rewrite.h): the naming contract
 * eh_<backend>_<op> -> eh_<op>, and the configuration's call templates. */
#include "rewrite.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_lexeme.h"
#include "c_text.h"
#include "clang_util.h"
#include "config.h"
#include "macro_argument.h"
#include "mem.h"
#include "path.h"
#include "plan_ops.h"
#include "rule.h"
#include "strbuf.h"
#include "strmap.h"

#define FILE_CACHE 16
#define MAX_ARGS EL_REWRITE_MAX_ARGS

typedef struct file_info {
    CXFile file;
    bool legacy;              /* under a legacy backend directory */
} file_info;

struct el_rewriter {
    CXTranslationUnit tu;
    const el_config *cfg;
    bool indexed;             /* ops[] and fns filled */
    el_strmap ops;            /* "eh_matmul" -> index + 1 in decls */
    el_strmap fns;            /* every top-level function's name -> index + 1 in decls */
    CXCursor *decls;
    size_t n_decls, cap_decls;
    file_info files[FILE_CACHE];
    size_t n_files, next_file;
    char plans_of[128];       /* the executor plans_without answers for ("" none yet) */
    bool plans_without;       /* el_plans_without_op's answer for it */
    char file_planner[128];   /* and its planner */
    char planner[128];        /* the planner the last answer names (a call's, or the file's) */
    /* the TU's function definitions (C++: members and namespaces' too),
     * where their text is (expansion offsets), in the order of the TU:
     * which one a call is in (enclosing_function), without a cursor
     * search per call */
    struct fn_def {
        CXFile file;
        unsigned begin, end;
        size_t decl;          /* index in decls of the name's first declaration */
    } *defs;
    size_t n_defs, cap_defs, last_def;
};

el_fix_safety el_fix_safety_worst(el_fix_safety a, el_fix_safety b)
{
    return a > b ? a : b;
}

el_rewriter *el_rewriter_new(CXTranslationUnit tu, const el_config *cfg)
{
    el_rewriter *rw = calloc(1, sizeof *rw);
    if (rw) {
        rw->tu = tu;
        rw->cfg = cfg;
    }
    return rw;
}

void el_rewriter_free(el_rewriter *rw)
{
    if (!rw)
        return;
    el_strmap_free(&rw->ops);
    el_strmap_free(&rw->fns);
    free(rw->decls);
    free(rw->defs);
    free(rw);
}

void el_call_rewrite_clear(el_call_rewrite *r)
{
    free(r->text);
    r->text = NULL;
}

bool el_rewrite_drops(const el_call_rewrite *r, CXFile f, unsigned off)
{
    if (!r->file || !f || !clang_File_isEqual(r->file, f) || off < r->begin || off >= r->end)
        return false;
    for (unsigned k = 0; !r->rename && k < r->n_kept; k++)
        if (r->kept[k][0] <= off && off < r->kept[k][1])
            return false;
    return true;
}

/* ---- the TU's eh_<op> declarations (top level, once per TU) ---------------- */

/* A declaration the index goes into: extern "C" { } (<eh/eh.h>'s
 * declarations; libclang 14 shows it as an unexposed declaration,
 * LinkageSpec later), and in C++ namespaces and classes, whose function
 * definitions a call may be in. */
static bool index_recurses(enum CXCursorKind k)
{
    return k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl || k == CXCursor_Namespace ||
           k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate ||
           k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnionDecl;
}

/* Is declaration c at the global scope, extern "C" { } aside (its
 * semantic parent there is the linkage specification)? */
static bool at_global_scope(CXCursor c)
{
    CXCursor p = clang_getCursorSemanticParent(c);
    for (int guard = 0; guard < 8; guard++) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit)
            return true;
        if (k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl)
            return false;
        p = clang_getCursorSemanticParent(p);
    }
    return false;
}

static enum CXChildVisitResult index_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    el_rewriter *rw = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (index_recurses(k))
        return CXChildVisit_Recurse;
    if (!elc_is_function_kind(k))
        return CXChildVisit_Continue;
    char name[128];
    elc_spelling(c, name, sizeof name);
    if (!name[0])
        return CXChildVisit_Continue;
    /* the functions a call names: those of the global scope (a member
     * or a namespace's function is only where a call may be) */
    bool global = k == CXCursor_FunctionDecl && at_global_scope(c);
    uintptr_t known = global ? (uintptr_t)el_strmap_get(&rw->fns, name) : 0;
    if (!known) {
        el_grow(&rw->decls, &rw->cap_decls, rw->n_decls + 1, sizeof *rw->decls);
        rw->decls[rw->n_decls++] = c;
        known = rw->n_decls;
        if (global)
            el_strmap_put(&rw->fns, name, (void *)known);
        if (global && strncmp(name, "eh_", 3) == 0 && el_is_op(name))
            el_strmap_put(&rw->ops, name, (void *)known);
    }
    if (clang_isCursorDefinition(c)) {
        CXSourceRange r = clang_getCursorExtent(c);
        CXFile f1 = NULL, f2 = NULL;
        unsigned b = 0, e = 0;
        clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &b);
        clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
        if (f1 && f2 && clang_File_isEqual(f1, f2) && b <= e) {
            el_grow(&rw->defs, &rw->cap_defs, rw->n_defs + 1, sizeof *rw->defs);
            rw->defs[rw->n_defs++] = (struct fn_def){f1, b, e, known - 1};
        }
    }
    return CXChildVisit_Continue;
}

static void index_tu(el_rewriter *rw)
{
    if (!rw->indexed) {
        rw->indexed = true;
        /* (first declarations: in a partial TU they may be the prefix's) */
        if (elc_tu_whole(rw->tu))
            clang_visitChildren(clang_getTranslationUnitCursor(rw->tu), index_visit, rw);
    }
}

/* The declaration of eh_<op> the TU has, or a null cursor. */
static CXCursor op_decl(el_rewriter *rw, const char *name)
{
    index_tu(rw);
    uintptr_t k = (uintptr_t)el_strmap_get(&rw->ops, name);
    return k ? rw->decls[k - 1] : clang_getNullCursor();
}

/* The TU's first declaration of the function `name`, or a null cursor. */
static CXCursor fn_decl(el_rewriter *rw, const char *name)
{
    index_tu(rw);
    uintptr_t k = (uintptr_t)el_strmap_get(&rw->fns, name);
    return k ? rw->decls[k - 1] : clang_getNullCursor();
}

static bool file_is_legacy(el_rewriter *rw, CXFile f)
{
    for (size_t i = 0; i < rw->n_files; i++)
        if (clang_File_isEqual(rw->files[i].file, f))
            return rw->files[i].legacy;
    char name[4096], backend[64];
    elc_file_name(f, name, sizeof name);
    char *real = realpath(name, NULL);
    bool legacy = el_config_legacy_backend(rw->cfg, real ? real : name, backend, sizeof backend);
    free(real);
    size_t slot = rw->n_files < FILE_CACHE ? rw->n_files++ : rw->next_file++ % FILE_CACHE;
    rw->files[slot].file = f;
    rw->files[slot].legacy = legacy;
    return legacy;
}

/* ---- source text ------------------------------------------------------------ */

/* A location written plainly in a file: its file and offset. */
static CXFile plain(CXSourceLocation loc, unsigned *off)
{
    CXFile ef = NULL, sf = NULL, ff = NULL;
    unsigned eo = 0, so = 0, fo = 0;
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    clang_getFileLocation(loc, &ff, NULL, NULL, &fo);
    if (!ef || !sf || !ff || !clang_File_isEqual(ef, sf) || !clang_File_isEqual(ef, ff) ||
        eo != so || eo != fo)
        return NULL;
    *off = eo;
    return ef;
}

/* The argument list whose '(' is at t[open]: the ')' matching it, and the
 * ranges of the top-level arguments [b[k], e[k]) (whitespace trimmed).
 * false when it is not balanced within n or has too many arguments. */
static bool split_args(const char *t, size_t n, size_t open, size_t *close, unsigned *b,
                       unsigned *e, unsigned *nargs)
{
    int depth = 0;
    size_t start = open + 1;
    *nargs = 0;
    for (size_t i = open; i < n; i++) {
        char c = t[i];
        size_t lx_end;
        if (el_lexeme_at(t, n, i, &lx_end) != EL_LX_OTHER) { /* no bracket or comma in it */
            if (lx_end > n)
                return false;
            i = lx_end - 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) {
                if (c != ')')
                    return false;
                /* the last argument (none when only blanks) */
                size_t s = el_text_skip_blanks(t, n, start);
                if (*nargs > 0 || s < i) {
                    if (*nargs == MAX_ARGS)
                        return false;
                    size_t x = i;
                    while (x > start && strchr(" \t\r\n\f\v", t[x - 1]))
                        x--;
                    b[*nargs] = (unsigned)s;
                    e[*nargs] = (unsigned)x;
                    (*nargs)++;
                }
                *close = i;
                return true;
            }
            if (depth < 0)
                return false;
        } else if (c == ',' && depth == 1) {
            if (*nargs == MAX_ARGS)
                return false;
            size_t s = el_text_skip_blanks(t, n, start), x = i;
            while (x > start && strchr(" \t\r\n\f\v", t[x - 1]))
                x--;
            b[*nargs] = (unsigned)s;
            e[*nargs] = (unsigned)(x < s ? s : x);
            (*nargs)++;
            start = i + 1;
        }
    }
    return false;
}

/* ---- precedence: which text stands as one operand ---------------------------- */

/* A template (and the arguments put into it) is text, so a substitution
 * can change what binds to what: "$1 + $2" put into "2 * f(k, k)" reads
 * 2 * k + k.  Text that is a primary or postfix expression (a name, a
 * literal, a call, a subscript, a member, something parenthesized) stands
 * as one operand wherever it is put; anything else gets parentheses.  A
 * small tokenizer is enough to tell: groups ( [ { are one token each, and
 * string and character literals and comments are skipped whole. */

typedef enum {
    TK_END, TK_IDENT, TK_NUMBER, TK_STRING, TK_PAREN, TK_BRACKET, TK_BRACE, TK_ARG, TK_PUNCT, TK_BAD
} tk_kind;

typedef struct token {
    tk_kind kind;
    size_t b, e;              /* t[b..e) */
} token;

static bool ident_char(char c, bool tpl)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80 || (c == '$' && !tpl);
}

/* Past the comment, literal (a raw string too) or number (1'000) at t[i],
 * or i when there is none; n + 1 when it does not close. */
static size_t skip_lexeme(const char *t, size_t n, size_t i)
{
    size_t end;
    el_lexeme k = el_lexeme_at(t, n, i, &end);
    return k == EL_LX_COMMENT || k == EL_LX_LITERAL || k == EL_LX_NUMBER ? end : i;
}

/* Past the group whose opener is at t[i]; n + 1 when it is not balanced. */
static size_t skip_group(const char *t, size_t n, size_t i)
{
    char stack[64];
    size_t depth = 0;
    while (i < n) {
        char c = t[i];
        size_t j;
        if (el_lexeme_at(t, n, i, &j) != EL_LX_OTHER) { /* a name, number, literal or comment: no bracket in it */
            if (j >= n)
                return n + 1;
            i = j;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (depth == sizeof stack)
                return n + 1;
            stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (c == ')' || c == ']' || c == '}') {
            if (!depth || stack[--depth] != c)
                return n + 1;
            if (!depth)
                return i + 1;
        }
        i++;
    }
    return n + 1;
}

/* The token at or after t[i].  In a template (tpl) $N (N from 1, every
 * digit of it: $12 is the twelfth argument) is TK_ARG and any other $ is
 * punctuation. */
static token next_token(const char *t, size_t n, size_t i, bool tpl)
{
    token k = {TK_END, 0, 0};
    i = el_text_skip_blanks(t, n, i);
    k.b = i;
    if (i >= n) {
        k.e = n;
        return k;
    }
    char c = t[i];
    size_t j = i + 1;
    if (tpl && c == '$') {
        k.kind = j < n && t[j] >= '1' && t[j] <= '9' ? TK_ARG : TK_PUNCT;
        j++;
        while (k.kind == TK_ARG && j < n && t[j] >= '0' && t[j] <= '9')
            j++;
    } else if ((c >= '0' && c <= '9') || (c == '.' && j < n && t[j] >= '0' && t[j] <= '9')) {
        k.kind = TK_NUMBER; /* a pp-number: 1.5e-3f, 0x1p+4, 1'000 */
        j = skip_lexeme(t, n, i);
    } else if (ident_char(c, tpl)) {
        k.kind = TK_IDENT;
        size_t lit = skip_lexeme(t, n, i);
        if (lit > i) { /* an encoding prefix: L"..", u8"..", U'.', R"(..)" */
            k.kind = TK_STRING;
            j = lit;
        }
        while (k.kind == TK_IDENT && j < n && ident_char(t[j], tpl))
            j++;
    } else if (c == '"' || c == '\'') {
        k.kind = TK_STRING;
        j = skip_lexeme(t, n, i);
    } else if (c == '(' || c == '[' || c == '{') {
        k.kind = c == '(' ? TK_PAREN : c == '[' ? TK_BRACKET : TK_BRACE;
        j = skip_group(t, n, i);
    } else {
        k.kind = TK_PUNCT;
        if (j < n && ((c == '-' && (t[j] == '>' || t[j] == '-')) || (c == '+' && t[j] == '+')))
            j++;
    }
    if (j > n) {
        k.kind = TK_BAD;
        j = n;
    }
    k.e = j;
    return k;
}

/* Past the identifier, pp-number, literal or comment at t[i] (in a
 * template, tpl, $N, $* and $$ are one too), or i + 1. */
static size_t skip_unit(const char *t, size_t n, size_t i, bool tpl)
{
    char c = t[i];
    if (c == '/' && i + 1 < n && (t[i + 1] == '*' || t[i + 1] == '/'))
        return el_text_skip_blanks(t, n, i);
    if (c != '$') { /* a literal (with its prefix), a number (1'000) */
        size_t j = skip_lexeme(t, n, i);
        if (j > i)
            return j;
    }
    if (tpl && c == '$') {
        size_t j = i + 1;
        if (j < n && (t[j] == '*' || t[j] == '$'))
            return j + 1;
        while (j < n && t[j] >= '0' && t[j] <= '9')
            j++;
        return j;
    }
    if (ident_char(c, tpl)) {
        size_t j = i + 1;
        while (j < n && ident_char(t[j], tpl))
            j++;
        return j;
    }
    return i + 1;
}

bool el_rewrite_names(const el_call_rewrite *r, const char *name, size_t len)
{
    const char *t = r->tpl_text;
    if (!t || !len)
        return false;
    size_t n = strlen(t);
    for (size_t i = 0; i < n;) {
        size_t j = skip_unit(t, n, i, true);
        if (j <= i)
            j = i + 1;
        if (ident_char(t[i], true) && !(t[i] >= '0' && t[i] <= '9') && j - i == len &&
            !memcmp(t + i, name, len))
            return true;
        i = j;
    }
    return false;
}

/* Is the name t[b..e) one of the n in list? */
static bool name_in(const char *t, size_t b, size_t e, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == e - b && strncmp(t + b, list[i], e - b) == 0)
            return true;
    return false;
}

/* Is the name t[b..e) an operator whose operand is not evaluated: C's
 * sizeof and _Alignof, C23's typeof and typeof_unqual, GNU's __alignof__,
 * __typeof__ and __builtin_types_compatible_p, C++'s alignof, decltype
 * and noexcept?  (sizeof evaluates an operand of variable length array
 * type; a call's argument that has one and a side effect is not worth
 * the analysis.) */
static bool unevaluated_operator(const char *t, size_t b, size_t e)
{
    static const char *const ops[] = {"sizeof",        "_Alignof",          "alignof",
                                      "__alignof__",   "__alignof",         "typeof",
                                      "__typeof__",    "__typeof",          "typeof_unqual",
                                      "__typeof_unqual__", "decltype",      "noexcept",
                                      "__builtin_types_compatible_p"};
    return name_in(t, b, e, ops, sizeof ops / sizeof ops[0]);
}

/* _Generic evaluates the association it selects, not its controlling
 * expression. */
static bool generic_keyword(const char *t, size_t b, size_t e)
{
    return e - b == 8 && strncmp(t + b, "_Generic", 8) == 0;
}

static bool punct_is(const char *t, token k, const char *s)
{
    return k.kind == TK_PUNCT && k.e - k.b == strlen(s) && strncmp(t + k.b, s, k.e - k.b) == 0;
}

static bool ident_is(const char *t, token k, const char *s)
{
    return k.kind == TK_IDENT && k.e - k.b == strlen(s) && strncmp(t + k.b, s, k.e - k.b) == 0;
}

static bool prefix_operator(const char *t, token k)
{
    return k.kind == TK_PUNCT && strchr("*&+-!~", t[k.b]) != NULL;
}

/* The parenthesised group k holds a type name for sure: it starts with a
 * keyword of one (int, struct, const ...) or ends with `*` (T *), which
 * no expression does.  (x) may be either. */
static bool surely_type(const char *t, token k)
{
    static const char *const kw[] = {"void",   "char",     "short",    "int",    "long",  "float",
                                     "double", "signed",   "unsigned", "_Bool",  "bool",  "_Complex",
                                     "struct", "union",    "enum",     "const",  "volatile",
                                     "restrict", "_Atomic"};
    token first = next_token(t, k.e - 1, k.b + 1, true), last = first;
    for (token x = first; x.kind != TK_END && x.kind != TK_BAD; x = next_token(t, k.e - 1, x.e, true))
        last = x;
    return (first.kind == TK_IDENT && name_in(t, first.b, first.e, kw, sizeof kw / sizeof kw[0])) ||
           punct_is(t, last, "*");
}

/* Is k a template's $* (all the call's arguments)? */
static bool all_args(const char *t, token k)
{
    return k.kind == TK_PUNCT && k.e - k.b == 2 && t[k.b] == '$' && t[k.b + 1] == '*';
}

/* Past the operand at t[i] of an unevaluated operator (sizeof ...): a unary expression (its
 * prefix operators, a primary -- a parenthesised group too -- and the
 * postfix operators after it: sizeof ($1)[0] is sizeof(($1)[0])).  A
 * prefix operator's operand may be a cast (sizeof *(const T *)$1), casts
 * one after another (sizeof -(int)(long)$1), a cast of a prefixed operand
 * (sizeof *(T **)&$1) or of a compound literal (sizeof *(T *)(T[]){$1}),
 * or another such operator's (sizeof sizeof $1): the operand goes on. */
static size_t skip_operand(const char *t, size_t n, size_t i)
{
    token k = next_token(t, n, i, true);
    for (bool prefixed = false;;) {
        if (prefix_operator(t, k)) {
            prefixed = true;
            k = next_token(t, n, k.e, true);
            continue;
        }
        if (k.kind == TK_IDENT && unevaluated_operator(t, k.b, k.e))
            return skip_operand(t, n, k.e);
        if (!prefixed || k.kind != TK_PAREN)
            break;
        /* (T *) then its operand: a cast; (x) - y may be a difference:
         * a prefix operator that may be a binary one continues the
         * operand only after a group that surely holds a type */
        token a = next_token(t, n, k.e, true);
        bool operand = a.kind == TK_IDENT || a.kind == TK_ARG || all_args(t, a) || a.kind == TK_NUMBER ||
                       a.kind == TK_STRING || a.kind == TK_PAREN || punct_is(t, a, "!") ||
                       punct_is(t, a, "~") || (prefix_operator(t, a) && surely_type(t, k));
        if (!operand)
            break;
        k = a;
    }
    /* $* (all the arguments): the operand is the first of them, the others
     * follow after commas; every one counts as not evaluated (cautious:
     * a call in any of them keeps the rewrite from being applied as safe) */
    if (k.kind == TK_END || k.kind == TK_BAD || (k.kind == TK_PUNCT && !all_args(t, k)))
        return k.b;
    size_t end = k.e;
    token brace = k.kind == TK_PAREN ? next_token(t, n, end, true) : k;
    if (brace.kind == TK_BRACE) /* a compound literal: sizeof (struct s){$1} */
        end = brace.e;
    for (;;) {
        token p = next_token(t, n, end, true);
        if (p.kind == TK_BRACKET || p.kind == TK_PAREN || punct_is(t, p, "++") || punct_is(t, p, "--")) {
            end = p.e;
        } else if (punct_is(t, p, ".") || punct_is(t, p, "->")) {
            token id = next_token(t, n, p.e, true);
            if (id.kind != TK_IDENT)
                break;
            end = id.e;
        } else {
            break;
        }
    }
    return end;
}

/* What in t[b..e), an argument a template drops, may have a side effect
 * (a call, ++ or --, an assignment, compound ones included): a short
 * phrase, or NULL for none.  Conservative: an operator whose operand is
 * not evaluated (sizeof(x), __typeof__(x)) and _Generic( aside, any `(`
 * after a name, `)` or `]` is a call, and the operands of those are
 * looked into all the same. */
static const char *side_effect(const char *t, size_t b, size_t e)
{
    for (size_t i = b; i < e;) {
        char c = t[i];
        size_t j = skip_unit(t, e, i, false);
        if (j <= i)
            j = i + 1;
        if (c == '(') {
            size_t q = i;
            while (q > b && strchr(" \t\r\n\f\v", t[q - 1]))
                q--;
            char p = q > b ? t[q - 1] : 0;
            bool named = p == ')' || p == ']';
            if (p && ident_char(p, false)) {
                size_t w = q;
                while (w > b && ident_char(t[w - 1], false))
                    w--;
                named = !unevaluated_operator(t, w, q) && !generic_keyword(t, w, q);
            }
            if (named)
                return "a call";
        } else if ((c == '+' || c == '-') && i + 1 < e && t[i + 1] == c) {
            return c == '+' ? "++" : "--";
        } else if (c == '=') {
            char p = i > b ? t[i - 1] : 0, pp = i > b + 1 ? t[i - 2] : 0;
            bool compare = (i + 1 < e && t[i + 1] == '=') || p == '=' || p == '!' ||
                           ((p == '<' || p == '>') && pp != p);
            if (!compare)
                return "an assignment";
        }
        i = j;
    }
    return NULL;
}

/* Past _Generic's controlling expression when t[i] opens its parentheses
 * (at the top-level comma), else i. */
static size_t controlling_end(const char *tpl, size_t n, size_t i)
{
    token open = next_token(tpl, n, i, true);
    if (open.kind != TK_PAREN || open.e < open.b + 2)
        return i;
    for (token k = next_token(tpl, open.e - 1, open.b + 1, true); k.kind != TK_END && k.kind != TK_BAD;
         k = next_token(tpl, open.e - 1, k.e, true))
        if (punct_is(tpl, k, ","))
            return k.b;
    return i;
}

/* Where the template tpl writes argument k (0-based): its $N (N = k + 1)
 * and its $* outside the template's comments and literals. */
typedef struct arg_uses {
    unsigned evaluated;  /* on every path, outside every operand that is not
                            evaluated: written twice, it is evaluated twice */
    unsigned maybe;      /* on some paths only: after ?, && or || in its
                            group, in one of _Generic's associations, or
                            in a statement after if, while ... */
    const char *unseen;  /* the first operand not evaluated that holds it:
                            its operator's spelling, unseen_len long */
    size_t unseen_len;
} arg_uses;

/* Whether the code being read at a group's level runs on some paths
 * only; a comma starts a new operand (not in _Generic's associations). */
typedef struct cond_level {
    bool inherited, now, generic;
} cond_level;
enum { COND_DEPTH = 64 };

/* A keyword after which code may not run: a conditional statement's
 * body, a jump's aftermath. */
static bool branch_keyword(const char *t, size_t b, size_t e)
{
    static const char *const kw[] = {"if",   "else",  "while",  "for",   "do",
                                     "switch", "case", "default", "return", "break",
                                     "continue", "goto"};
    return name_in(t, b, e, kw, sizeof kw / sizeof kw[0]);
}

/* tpl[b..e): operands of sizeof and its kind, and _Generic's controlling
 * expression, are counted in uses->unseen, not in evaluated; what runs
 * on some paths only in uses->maybe.  (in_unseen: inside such an
 * operand, every use counts in evaluated, for the caller to see.) */
static void count_uses(const char *tpl, size_t b, size_t e, unsigned k, arg_uses *uses, bool in_unseen)
{
    cond_level lv[COND_DEPTH] = {{false, false, false}};
    size_t depth = 0;
    for (size_t i = b; i < e;) {
        size_t end = i + 1;
        el_lexeme lx = el_lexeme_at(tpl, e, i, &end);
        if (lx == EL_LX_COMMENT || lx == EL_LX_LITERAL) {
            i = end > i ? end : i + 1;
            continue;
        }
        bool cond = lv[depth].now;
        if (lx == EL_LX_IDENT && end > i) {
            size_t op_end = end;
            bool generic = false;
            if (unevaluated_operator(tpl, i, end)) {
                op_end = skip_operand(tpl, e, end);
            } else if (generic_keyword(tpl, i, end)) {
                op_end = controlling_end(tpl, e, end);
                generic = op_end > end;
            } else if (branch_keyword(tpl, i, end)) {
                lv[depth].now = true;
            }
            if (op_end > end && !in_unseen) {
                arg_uses inner = {0};
                count_uses(tpl, end, op_end, k, &inner, true);
                if (inner.evaluated && !uses->unseen) {
                    uses->unseen = tpl + i;
                    uses->unseen_len = end - i;
                }
            } else if (op_end > end) {
                count_uses(tpl, end, op_end, k, uses, true);
            }
            if (generic) { /* its parenthesis lay in the controlling expression */
                if (depth + 1 < COND_DEPTH)
                    depth++;
                lv[depth] = (cond_level){cond, true, true};
            }
            i = op_end;
            continue;
        }
        char c = tpl[i];
        if (c == '(' || c == '[' || c == '{') {
            if (depth + 1 < COND_DEPTH)
                depth++;
            else
                cond = true; /* too deep to follow: some paths */
            lv[depth] = (cond_level){cond, cond, false};
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ',' && !lv[depth].generic) {
            lv[depth].now = lv[depth].inherited;
        } else if (c == '?' || ((c == '&' || c == '|') && i + 1 < e && tpl[i + 1] == c)) {
            lv[depth].now = true;
        }
        if (c != '$' || i + 1 >= e) {
            i += (c == '&' || c == '|') && i + 1 < e && tpl[i + 1] == c ? 2 : 1;
            continue;
        }
        if (tpl[i + 1] == '$') {
            i += 2;
            continue;
        }
        unsigned *count = cond && !in_unseen ? &uses->maybe : &uses->evaluated;
        if (tpl[i + 1] == '*') {
            (*count)++;
            i += 2;
            continue;
        }
        size_t j = i + 1;
        unsigned long num = 0;
        while (j < e && tpl[j] >= '0' && tpl[j] <= '9' && num <= 1000000)
            num = num * 10 + (unsigned long)(tpl[j++] - '0');
        if (j > i + 1 && num == (unsigned long)k + 1)
            (*count)++;
        i = j > i + 1 ? j : i + 1;
    }
}

/* ", only under sizeof, which does not evaluate it": where a template
 * writes an argument it does not evaluate. */
static void unseen_phrase(const arg_uses *uses, char *out, size_t size)
{
    if (uses->maybe)
        snprintf(out, size, ", only where it may not run (after ?, && or ||, in a _Generic "
                            "association, or after if ...)");
    else if (!uses->unseen)
        snprintf(out, size, ", only where it is not evaluated");
    else if (generic_keyword(uses->unseen, 0, uses->unseen_len))
        snprintf(out, size, ", only as _Generic's controlling expression, which is not evaluated");
    else
        snprintf(out, size, ", only under %.*s, which does not evaluate it", (int)uses->unseen_len,
                 uses->unseen);
}

/* How the template tpl uses argument k: how many times it evaluates it,
 * and where it writes it without evaluating it. */
static arg_uses template_uses(const char *tpl, unsigned k)
{
    arg_uses uses = {0};
    count_uses(tpl, 0, strlen(tpl), k, &uses, false);
    return uses;
}

/* t[0..n) is a primary expression followed by postfix operators only.
 * "(a)(b)" is not: it may be a cast, which binds looser than a postfix
 * operator put after it. */
static bool is_postfix_expr(const char *t, size_t n, bool tpl)
{
    token k = next_token(t, n, 0, tpl);
    if (ident_is(t, k, "sizeof") || ident_is(t, k, "_Alignof") || ident_is(t, k, "alignof"))
        return false;
    if (k.kind == TK_STRING) { /* "a" "b" is one literal */
        token s;
        while ((s = next_token(t, n, k.e, tpl)).kind == TK_STRING)
            k = s;
    } else if (k.kind != TK_IDENT && k.kind != TK_NUMBER && k.kind != TK_PAREN && k.kind != TK_ARG) {
        return false;
    }
    bool cast_like = k.kind == TK_PAREN;
    for (;;) {
        k = next_token(t, n, k.e, tpl);
        if (k.kind == TK_END)
            return true;
        if (k.kind == TK_PAREN) {
            if (cast_like)
                return false;
        } else if (punct_is(t, k, ".") || punct_is(t, k, "->")) {
            k = next_token(t, n, k.e, tpl);
            if (k.kind != TK_IDENT)
                return false;
        } else if (k.kind != TK_BRACKET && !punct_is(t, k, "++") && !punct_is(t, k, "--")) {
            return false;
        }
        cast_like = false;
    }
}

/* Where the code of t[b..e) ends: a trailing comment is left out (a
 * trailing // comment would swallow what the template puts after it). */
static size_t code_end(const char *t, size_t b, size_t e)
{
    size_t end = b;
    for (token k = next_token(t, e, b, false); k.kind != TK_END; k = next_token(t, e, k.e, false)) {
        if (k.kind == TK_BAD)
            return e;
        end = k.e;
    }
    return end;
}

/* The $N at tpl[at..end) is a whole operand of a list: a call's argument,
 * a subscript, an initializer's element ("f($1, x)", "a[$1]"), where any
 * expression but a comma one -- which an argument never is -- stands as
 * it is. */
static bool whole_slot(const char *tpl, size_t n, size_t at, size_t end)
{
    size_t l = at, r = end;
    while (l > 0 && strchr(" \t\r\n\f\v", tpl[l - 1]))
        l--;
    while (r < n && strchr(" \t\r\n\f\v", tpl[r]))
        r++;
    return l > 0 && r < n && strchr("([{,", tpl[l - 1]) && strchr(")]},", tpl[r]);
}

/* Note that the template puts t[b..e) into its text (r->kept). */
static void keep_range(el_call_rewrite *r, unsigned b, unsigned e)
{
    for (unsigned k = 0; k < r->n_kept; k++)
        if (r->kept[k][0] == b && r->kept[k][1] == e)
            return;
    if (r->n_kept < sizeof r->kept / sizeof r->kept[0]) {
        r->kept[r->n_kept][0] = b;
        r->kept[r->n_kept][1] = e;
        r->n_kept++;
    }
}

/* The quote of the template's literal at tpl[b] (past its prefix: u8,
 * L, R...), and whether it is a raw string. */
static size_t literal_quote(const char *tpl, size_t b, bool *raw)
{
    size_t q = b;
    while (tpl[q] != '"' && tpl[q] != '\'')
        q++;
    *raw = q > b && tpl[q - 1] == 'R';
    return q;
}

/* Would s, put into the template's comment or literal that starts at
 * tpl[text_b] (of kind text), end it or be read otherwise there -- a
 * block comment's "*" "/", a newline in a line comment; in a quoted
 * literal its quote, a backslash (an escape) or a newline; in a raw
 * string its closing delimiter?  Then r->why says so (what: "$2", "$*"). */
static bool breaks_text(const char *tpl, el_lexeme text, size_t text_b, const char *s,
                        const char *what, el_call_rewrite *r)
{
    const char *held = NULL, *ends = "would end the comment";
    char close[24] = "";
    if (text == EL_LX_COMMENT) {
        bool block = tpl[text_b + 1] == '*';
        if (block ? strstr(s, "*/") != NULL : strchr(s, '\n') != NULL)
            held = block ? "'*/'" : "a newline";
    } else if (text == EL_LX_LITERAL) {
        bool raw = false;
        size_t q = literal_quote(tpl, text_b, &raw);
        ends = "would end the literal";
        if (raw) {
            size_t d = strcspn(tpl + q + 1, "(");
            char delim[20];
            snprintf(delim, sizeof delim, ")%.*s\"", (int)(d < 16 ? d : 16), tpl + q + 1);
            if (strstr(s, delim)) {
                snprintf(close, sizeof close, "'%s'", delim);
                held = close;
            }
        } else if (strchr(s, tpl[q])) {
            held = tpl[q] == '"' ? "'\"'" : "\"'\"";
        } else if (strchr(s, '\n')) {
            held = "a newline";
        } else if (strchr(s, '\\')) {
            held = "a backslash";
            ends = "which the literal would read as an escape";
        }
    }
    if (!held)
        return false;
    snprintf(r->why, sizeof r->why,
             "the call template writes %s inside a %s, and the call's text for it holds %s, "
             "%s%s: rewrite this use by hand",
             what, text == EL_LX_COMMENT ? "comment" : "string or character literal", held,
             strncmp(ends, "which", 5) ? "which " : "", ends);
    return true;
}

/* Expand a template with the arguments' text, the rewrites of the calls
 * in them (inner) applied, *safety made the worse of itself and those
 * used; NULL when it names an argument the call does not have.
 * Parentheses go around the whole when the template is not one operand,
 * and around an argument that is not one operand unless its $N is a whole
 * operand of a list (whole_slot); $* (an argument list) and anything
 * inside a string literal or comment of the template go in as written.
 * The template is read as C (c_lexeme.h): a quote in a comment ("it's"),
 * a digit separator (1'000) or a raw string opens no literal.  The ranges
 * of the call's text it puts in as code are noted in r (keep_range): an
 * argument the template writes only inside a string literal ("\"$1\"")
 * or a comment is text there, not code -- it is dropped (its names are no
 * longer used, its side effects are lost) like one the template leaves
 * out; one whose text would end the comment or literal it is put in, or
 * be read otherwise there (breaks_text), gets no rewrite. */
static char *expand(const char *tpl, const char *t, const unsigned *b, const unsigned *e,
                    unsigned nargs, unsigned all_b, unsigned all_e, const el_rewrite_list *inner,
                    el_fix_safety *safety, el_call_rewrite *r)
{
    el_buf out = {0};
    size_t n = strlen(tpl);
    bool wrap = next_token(tpl, n, 0, true).kind != TK_END && !is_postfix_expr(tpl, n, true);
    if (wrap)
        el_buf_putc(&out, '(');
    /* tpl[text_b..text_e): the comment or literal i is in, if any */
    size_t text_b = 0, text_e = 0;
    el_lexeme text = EL_LX_OTHER;
    bool raw_text = false; /* it is a raw string: a backslash escapes nothing */
    for (size_t i = 0; i < n; i++) {
        char c = tpl[i];
        bool quote = i < text_e;
        if (c != '$') {
            if (quote && text == EL_LX_LITERAL && !raw_text && c == '\\' && i + 1 < n) {
                el_buf_putn(&out, tpl + i, 2);
                i++;
                continue;
            }
            size_t end;
            el_lexeme k = quote ? EL_LX_OTHER : el_lexeme_at(tpl, n, i, &end);
            if (k == EL_LX_COMMENT || k == EL_LX_LITERAL) {
                text = k;
                text_b = i;
                text_e = end < n ? end : n;
                if (k == EL_LX_LITERAL)
                    literal_quote(tpl, i, &raw_text);
            } else if (k == EL_LX_IDENT || k == EL_LX_NUMBER) { /* 1'000 opens no literal */
                el_buf_putn(&out, tpl + i, end - i);
                i = end - 1;
                continue;
            }
            el_buf_putc(&out, c);
            continue;
        }
        char d = i + 1 < n ? tpl[i + 1] : 0;
        if (d == '$') {
            el_buf_putc(&out, '$');
        } else if (d == '*') {
            char *all = el_rewrite_apply(t, all_b, (unsigned)code_end(t, all_b, all_e), inner, safety);
            if (!all || (quote && breaks_text(tpl, text, text_b, all, "$*", r))) {
                free(all);
                el_buf_free(&out);
                return NULL;
            }
            el_buf_puts(&out, all);
            free(all);
            if (!quote)
                keep_range(r, all_b, all_e);
        } else if (d >= '1' && d <= '9') {
            /* $N, every digit of N: $10 is the tenth argument, never $1 and a 0 */
            size_t end = i + 1;
            unsigned long num = 0;
            while (end < n && tpl[end] >= '0' && tpl[end] <= '9' && num <= nargs)
                num = num * 10 + (unsigned long)(tpl[end++] - '0');
            if (num > nargs) { /* an argument the call does not have: no fix */
                size_t de = skip_unit(tpl, n, i, true); /* past $N's digits */
                snprintf(r->why, sizeof r->why,
                         "the call template names $%.*s and this call has %u argument%s: "
                         "fix the template or rewrite this use by hand",
                         (int)(de - i - 1 > 20 ? 20 : de - i - 1), tpl + i + 1, nargs,
                         nargs == 1 ? "" : "s");
                el_buf_free(&out);
                return NULL;
            }
            unsigned k = (unsigned)(num - 1);
            char *arg = el_rewrite_apply(t, b[k], (unsigned)code_end(t, b[k], e[k]), inner, safety);
            if (!arg) {
                el_buf_free(&out);
                return NULL;
            }
            char what[32];
            snprintf(what, sizeof what, "$%lu", num);
            if (quote && breaks_text(tpl, text, text_b, arg, what, r)) {
                free(arg);
                el_buf_free(&out);
                return NULL;
            }
            bool paren = !quote && !is_postfix_expr(arg, strlen(arg), false) &&
                         !whole_slot(tpl, n, i, end);
            if (paren)
                el_buf_putc(&out, '(');
            el_buf_puts(&out, arg);
            if (paren)
                el_buf_putc(&out, ')');
            free(arg);
            if (!quote)
                keep_range(r, b[k], e[k]);
            i = end - 1; /* the loop steps past the last digit */
            continue;
        } else {
            el_buf_free(&out);
            return NULL;
        }
        i++;
    }
    if (wrap)
        el_buf_putc(&out, ')');
    return el_buf_take(&out);
}

/* ---- the rewrite of one call -------------------------------------------------- */

/* The op eh_<backend>_<op> names ("matmul"), or NULL. */
static const char *contract_op(const el_config *cfg, const char *name, char *backend, size_t n)
{
    if (!el_backend_of_symbol(cfg, name, backend, n))
        return NULL;
    size_t np = 0;
    const char *const *pats = el_config_strings(cfg, "backend_prefixes", &np);
    for (size_t i = 0; i < np; i++) {
        const char *at = strstr(pats[i], "<backend>");
        if (!at)
            continue;
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%.*s%s%s", (int)(at - pats[i]), pats[i], backend,
                 at + strlen("<backend>"));
        size_t l = strlen(prefix);
        if (strncmp(name, prefix, l) == 0 && name[l] && el_is_op(name + l))
            return name + l;
    }
    return NULL;
}

/* ember-migrate's custom ops (config.h, custom_ns): eh_<backend>_<name>
 * with no op <name> becomes <ns>_<name>, the op's wrapper.  Which of
 * them really become custom ops ember-migrate decides once it has seen
 * the whole tree (migrate/custom_ops.h), and drops the other rewrites. */
bool el_rewrite_custom_wrapper(const el_config *cfg, const char *name, char *target, size_t tn)
{
    char backend[64];
    if (!cfg->custom_ns[0] || !el_backend_of_symbol(cfg, name, backend, sizeof backend))
        return false;
    const char *rest = strstr(name, backend);
    if (!rest)
        return false;
    rest += strlen(backend);
    while (*rest == '_')
        rest++;
    if (!*rest || el_is_op(rest))
        return false;
    snprintf(target, tn, "%s_%s", cfg->custom_ns, rest);
    return true;
}

/* The name of the function whose body holds call into buf ("" at file
 * scope): the function a template must not call, or the rewrite makes
 * it call itself. */
static const char *enclosing_function(el_rewriter *rw, CXCursor call, char *buf, size_t n)
{
    buf[0] = '\0';
    /* the TU's function definitions (C++: members and namespaces' too),
     * where their text is: a cursor the engine's walk hands on may not
     * know its declaration (its semantic parent is null), and a cursor
     * search per call would make a file's calls quadratic
     * (tests/lint/test_linear.c) */
    index_tu(rw);
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &f, NULL, NULL, &off);
    for (size_t i = 0; f && i < rw->n_defs; i++) {
        size_t k = (rw->last_def + i) % rw->n_defs; /* calls come in the text's order */
        const struct fn_def *d = &rw->defs[k];
        if (d->begin <= off && off < d->end && clang_File_isEqual(d->file, f)) {
            rw->last_def = k;
            elc_spelling(rw->decls[d->decl], buf, n);
            return buf;
        }
    }
    return buf;
}

/* Backend code not moved yet: its calls are left alone. */
static bool in_backend_code(el_rewriter *rw, CXCursor call, CXFile f)
{
    if (file_is_legacy(rw, f))
        return true;
    char name[128], be[64];
    return enclosing_function(rw, call, name, sizeof name)[0] &&
           el_backend_of_symbol(rw->cfg, name, be, sizeof be) != NULL;
}

/* The function type of a declaration, spelled ("eh_tensor *(const eh_tensor *)"). */
static void type_spelling(CXCursor d, char *buf, size_t n)
{
    CXString s = clang_getTypeSpelling(clang_getCursorType(d));
    snprintf(buf, n, "%s", clang_getCString(s) ? clang_getCString(s) : "?");
    clang_disposeString(s);
}

/* The plans the executor `name` runs have no op though it has a
 * replacement (plan_ops.c): those of the call's argument when it tells
 * (a null call does not), else the file's, asked once per executor and
 * TU; the planner into rw->planner. */
static bool plans_without_op(el_rewriter *rw, const char *name, CXCursor call, bool *of_call)
{
    *of_call = false;
    if (!clang_Cursor_isNull(call)) {
        char planner[sizeof rw->planner];
        int r = el_call_plans_without_op(rw->tu, rw->cfg, name, call, planner, sizeof planner);
        if (r >= 0) {
            snprintf(rw->planner, sizeof rw->planner, "%s", planner);
            *of_call = true;
            return r == 1;
        }
    }
    if (strcmp(rw->plans_of, name) != 0) {
        snprintf(rw->plans_of, sizeof rw->plans_of, "%s", name);
        rw->plans_without = el_plans_without_op(rw->tu, rw->cfg, name, rw->file_planner,
                                                sizeof rw->file_planner);
    }
    snprintf(rw->planner, sizeof rw->planner, "%s", rw->file_planner);
    return rw->plans_without;
}

/* The naming contract for function fn (named name), called by call (a
 * null cursor for a use that is no call): its target eh_<op> and the
 * safety of the rename; false with why[] when there is none. */
static bool contract_rewrite(el_rewriter *rw, CXCursor fn, CXCursor call, const char *name,
                             char *target, size_t tn, el_fix_safety *safety, char *why,
                             size_t wn)
{
    char backend[64];
    const char *op = contract_op(rw->cfg, name, backend, sizeof backend);
    if (!op && el_rewrite_custom_wrapper(rw->cfg, name, target, tn)) {
        *safety = EL_FIX_UNSAFE; /* the wrapper is declared by a header ember-migrate writes */
        return true;
    }
    char use[256], own[256];
    bool of_call = false;
    if (!op) {
        size_t bl = 0;
        if (el_backend_of_symbol(rw->cfg, name, backend, sizeof backend) &&
            strncmp(name, "eh_", 3) == 0 && strncmp(name + 3, backend, bl = strlen(backend)) == 0 &&
            name[3 + bl] == '_') /* (a project's pattern may name it otherwise: gpu_*_kernel) */
            snprintf(why, wn, "no frontend op eh_%s in libeh/ops.def", name + 3 + bl + 1);
        else if (el_config_rewrite_for(rw->cfg, name))
            /* a template rewrites a call the parser read, its arguments
             * split by the AST: not a name in skipped text, nor a
             * reference (&f, a table's entry) */
            snprintf(why, wn, "the call template (\"rewrites\") for %s rewrites calls the "
                              "compiler reads, and this use is not one: rewrite it by hand", name);
        else if (el_symbol_replacement(rw->cfg, name, use, sizeof use) &&
                 plans_without_op(rw, name, call, &of_call))
            /* fftwf_execute running a complex DFT's plan: its replacement
             * (eh_rfft or eh_irfft) is for other plans */
            snprintf(why, wn, "no libeh op does what %s does with the %s (%s: no op does what "
                              "it does; %s are for other plans): rewrite this use by hand",
                     name, of_call ? "plan it runs here" : "plans this file makes", rw->planner,
                     use);
        else if (el_symbol_replacement(rw->cfg, name, use, sizeof use) &&
                 el_project_symbol_replacement(rw->cfg, name, own, sizeof own) &&
                 strncmp(use, "eh_", 3) != 0)
            /* the project's own function (PySCF's "dgemm_": "NPdgemm"),
             * which may well take host arrays: no tensors to wrap */
            snprintf(why, wn, "no call template (\"rewrites\") maps its arguments onto %s (the "
                              "configuration's \"replacements\" names what to use, not how the "
                              "arguments map): rewrite this use by hand, or give %s a call "
                              "template in \"rewrites\"", use, name);
        else if (el_symbol_replacement(rw->cfg, name, use, sizeof use))
            /* "replacements" name the op to use, not how the arguments map */
            snprintf(why, wn, "no call template (\"rewrites\") maps its arguments onto %s (ops "
                              "take tensors, not host arrays, sizes and flags): rewrite this use "
                              "by hand: eh_convert_to_tensor around the input arrays, %s, then "
                              "eh_to_buffer for the result", use, use);
        else
            snprintf(why, wn, "no libeh op does what %s does", name);
        return false;
    }
    snprintf(target, tn, "eh_%s", op);
    CXCursor d = op_decl(rw, target);
    if (clang_Cursor_isNull(d)) {
        *safety = EL_FIX_UNSAFE; /* eh_<op> must come from <eh/eh.h> */
        return true;
    }
    if (clang_Cursor_isNull(fn)) {
        snprintf(why, wn, "%s is not declared here, so its signature cannot be compared with "
                          "%s's", name, target);
        return false;
    }
    CXType a = clang_getCanonicalType(clang_getCursorType(fn));
    CXType b = clang_getCanonicalType(clang_getCursorType(d));
    if (!clang_equalTypes(a, b)) {
        /* a kernel, or another signature: for a person */
        char ta[256], tb[256];
        type_spelling(fn, ta, sizeof ta);
        type_spelling(d, tb, sizeof tb);
        snprintf(why, wn, "%s's signature '%s' differs from %s's '%s'", name, ta, target, tb);
        return false;
    }
    *safety = EL_FIX_SAFE;
    return true;
}

bool el_rewrite_name(el_rewriter *rw, const char *name, char *target, size_t tn,
                     el_fix_safety *safety, char *why, size_t wn)
{
    return el_rewrite_name_at(rw, name, clang_getNullCursor(), target, tn, safety, why, wn);
}

bool el_rewrite_name_at(el_rewriter *rw, const char *name, CXCursor call, char *target,
                        size_t tn, el_fix_safety *safety, char *why, size_t wn)
{
    why[0] = '\0';
    if (!rw)
        return false;
    return contract_rewrite(rw, fn_decl(rw, name), call, name, target, tn, safety, why, wn);
}

void el_rewrite_routine_advice(el_rewriter *rw, const char *name, char *advice, size_t n)
{
    advice[0] = '\0';
    if (!rw)
        return;
    char routine[256], use[512], target[160], why[1024], lower[240], stem[240];
    snprintf(routine, sizeof routine, "%s", name);
    /* the routine in lower case: the data and a project's templates name
     * dgemm_, not DGEMM_ */
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof lower; k++)
        lower[k] = (char)tolower((unsigned char)name[k]);
    lower[k] = '\0';
    const char *how = NULL;
    /* dgemv or DGEMV (a mangling without the underscore), dgemv__ or
     * _dgemv_ (hypre's manglings 3 and 5, el_routine_mangled_stem): the
     * data knows the Fortran routine dgemv_ (cblas_dgemv's entry) */
    if (!el_symbol_replacement(rw->cfg, name, use, sizeof use) &&
        !el_config_rewrite_for(rw->cfg, name)) {
        if (el_routine_alias_target(rw->cfg, lower)) {
            snprintf(routine, sizeof routine, "%s_", lower);
            how = "without its underscore";
        } else if (el_routine_mangled_stem(rw->cfg, lower, stem, sizeof stem)) {
            snprintf(routine, sizeof routine, "%s_", stem);
            how = "under another Fortran mangling";
        }
    }
    char what[320] = "";
    if (how)
        snprintf(what, sizeof what, "%s is routine %s %s, and ", name, routine, how);
    /* (el_rewrite_name's text for a template is for a use that is no
     * call: a plain call is one the template rewrites) */
    const el_rewrite_rule *tpl = el_config_rewrite_for(rw->cfg, routine);
    if (tpl) {
        snprintf(advice, n, "; %sa plain call of %s is rewritten by its call template "
                            "(\"rewrites\") into %s",
                 what, routine, tpl->replacement);
        return;
    }
    el_fix_safety safety = EL_FIX_NONE;
    bool ok = el_rewrite_name(rw, routine, target, sizeof target, &safety, why, sizeof why);
    if (ok)
        snprintf(advice, n, "; %sa plain call of %s becomes %s", what, routine, target);
    else
        snprintf(advice, n, "; %sa plain call of %s gets: %s", what, routine,
                 why[0] ? why : "no rewrite");
}

/* The refusal of a call whose text is not `name(arguments)` as the AST
 * has it (a macro supplies its parentheses, or stands for arguments):
 * an edit of the text could not be checked against the call. */
static bool not_written_out(el_call_rewrite *out, const char *name, const char *because)
{
    snprintf(out->why, sizeof out->why,
             "this call of %s is not written out as %s(arguments) (%s): rewrite it by hand", name,
             name, because);
    return false;
}

#define BY_MACRO "a macro supplies its parentheses or arguments"

/* Does macro `id` expand to nothing: its body empty (`#define FCONE`
 * where FC_LEN_T is not defined), or only names of such macros (`#define
 * LEN1 FCONE`, a few levels)? */
static bool expands_to_nothing(el_rewriter *rw, const char *id, int depth)
{
    CXCursor def = elc_macro_definition(rw->tu, id);
    if (clang_Cursor_isNull(def) || depth > 4)
        return false;
    unsigned nt = 0, first = 0;
    CXToken *toks = elc_macro_tokens(rw->tu, def, &nt, &first);
    bool empty = nt > 0;
    for (unsigned i = first; i < nt && empty; i++) {
        char name[128];
        elc_string(clang_getTokenSpelling(rw->tu, toks[i]), name, sizeof name);
        empty = clang_getTokenKind(toks[i]) == CXToken_Identifier && strcmp(name, id) != 0 &&
                !clang_Cursor_isMacroFunctionLike(elc_macro_definition(rw->tu, name)) &&
                expands_to_nothing(rw, name, depth + 1);
    }
    if (toks)
        clang_disposeTokens(rw->tu, toks, nt);
    return empty;
}

/* The first name in t[b..e) -- outside brackets, literals and comments --
 * of a macro that expands to nothing (expands_to_nothing): its place into
 * *at and length into *len. */
static bool empty_macro_in(el_rewriter *rw, const char *t, size_t b, size_t e, size_t *at,
                           size_t *len)
{
    for (token k = next_token(t, e, b, false); k.kind != TK_END && k.kind != TK_BAD;
         k = next_token(t, e, k.e, false)) {
        if (k.kind != TK_IDENT || k.e - k.b >= 128)
            continue;
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)(k.e - k.b), t + k.b);
        if (expands_to_nothing(rw, id, 0)) {
            *at = k.b;
            *len = k.e - k.b;
            return true;
        }
    }
    return false;
}

/* Does macro def's body name a library identifier (a backend prefix,
 * el_backend_prefix_of), itself or through the macros it names (depth
 * levels down)?  The first such name into lib; into *calls whether it is
 * called there (followed by '('), not a constant or type it names (which
 * still needs the library's header). */
static bool body_names_library(el_rewriter *rw, CXCursor def, unsigned depth, char *lib,
                               size_t ln, bool *calls)
{
    unsigned nt = 0, i = 0;
    CXToken *toks = elc_macro_tokens(rw->tu, def, &nt, &i);
    bool hit = false;
    for (; i < nt && !hit; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        CXString sp = clang_getTokenSpelling(rw->tu, toks[i]);
        const char *t = clang_getCString(sp);
        bool call = false; /* followed by '(': a call, not a constant or type */
        if (i + 1 < nt && clang_getTokenKind(toks[i + 1]) == CXToken_Punctuation) {
            CXString np = clang_getTokenSpelling(rw->tu, toks[i + 1]);
            const char *ns = clang_getCString(np);
            call = ns && !strcmp(ns, "(");
            clang_disposeString(np);
        }
        if (t && el_backend_prefix_of(rw->cfg, t, true)) {
            snprintf(lib, ln, "%s", t);
            *calls = call;
            hit = true;
        } else if (t && depth > 0) {
            CXCursor inner = elc_macro_definition(rw->tu, t);
            hit = !clang_Cursor_isNull(inner) && !clang_equalCursors(inner, def) &&
                  body_names_library(rw, inner, depth - 1, lib, ln, calls);
        }
        clang_disposeString(sp);
    }
    if (toks)
        clang_disposeTokens(rw->tu, toks, nt);
    return hit;
}

/* Does the call template's own text (not the arguments it puts in) call
 * the library, "CHECKED(cblas_sscal($1, $2, $3, 1))" (where is then ""),
 * or name a macro of the TU that calls the library itself: "CHECKED_SCAL($1, $2,
 * $3)" with `#define CHECKED_SCAL(n, a, x) ... cblas_sscal(n, a, x, 1)`?
 * The rewrite would still need the library's header the include's removal
 * takes away: the macro's name into macro, the library name into lib, the
 * definition's place into where ("src/rows.h:6"). */
static bool template_macro_calls_library(el_rewriter *rw, const char *tpl, char *macro,
                                         size_t mn, char *lib, size_t ln, char *where,
                                         size_t wn, bool *calls)
{
    size_t n = strlen(tpl);
    for (size_t i = 0; i < n;) {
        size_t e = i;
        if (tpl[i] == '"' || tpl[i] == '\'') {
            /* a string or character literal calls nothing */
            size_t q = i + 1;
            while (q < n && tpl[q] != tpl[i])
                q += tpl[q] == '\\' && q + 1 < n ? 2 : 1;
            i = q + 1;
            continue;
        }
        if (tpl[i] == '$' || !el_text_ident_at(tpl, n, i, &e)) {
            i = tpl[i] == '$' ? i + 1 + strspn(tpl + i + 1, "0123456789") : i + 1;
            continue;
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(e - i), tpl + i);
        i = e;
        if (el_backend_prefix_of(rw->cfg, name, true)) {
            size_t after = e;
            while (after < n && strchr(" \t\r\n", tpl[after]))
                after++;
            if (after < n && tpl[after] == '(') {
                /* a call of the library the template writes itself */
                snprintf(macro, mn, "%.*s", (int)(mn ? mn - 1 : 0), name);
                snprintf(lib, ln, "%.*s", (int)(ln ? ln - 1 : 0), name);
                where[0] = '\0';
                *calls = true;
                return true;
            }
            continue; /* a constant or type it names: plan lists it, the include stays */
        }
        CXCursor def = elc_macro_definition(rw->tu, name);
        if (clang_Cursor_isNull(def) || !body_names_library(rw, def, 4, lib, ln, calls))
            continue;
        snprintf(macro, mn, "%.*s", (int)(mn ? mn - 1 : 0), name);
        CXFile df = NULL;
        unsigned line = 0;
        clang_getSpellingLocation(clang_getCursorLocation(def), &df, &line, NULL, NULL);
        CXString fn = clang_getFileName(df);
        const char *fs = clang_getCString(fn);
        snprintf(where, wn, "%s:%u", fs ? el_path_base(fs) : "?", line);
        clang_disposeString(fn);
        return true;
    }
    return false;
}

bool el_rewrite_call(el_rewriter *rw, CXCursor call, el_call_rewrite *out)
{
    memset(out, 0, sizeof *out);
    if (!rw || clang_getCursorKind(call) != CXCursor_CallExpr)
        return false;
    /* the callee names a function directly: f(...) */
    CXCursor ref = elc_strip(elc_child(call, 0));
    if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr) {
        snprintf(out->why, sizeof out->why, "the call's callee is not a function's plain name "
                                            "(it goes through `*`, `&` or a cast): rewrite it by "
                                            "hand");
        return false;
    }
    CXCursor fn = clang_getCursorReferenced(ref);
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
        return false;
    char name[128];
    elc_spelling(fn, name, sizeof name);
    size_t len = strlen(name);
    if (!len || len + 1 >= sizeof out->callee)
        return false;

    /* what it becomes, before looking at the text */
    const el_rewrite_rule *tpl = el_config_rewrite_for(rw->cfg, name);
    char target[160], why[512];
    el_fix_safety safety = EL_FIX_NONE;
    if (tpl)
        safety = tpl->safety;
    else if (!contract_rewrite(rw, fn, call, name, target, sizeof target, &safety, why,
                               sizeof why))
        return false;

    /* the call as written: name ( args ) plainly in one file, or whole in
     * one argument of a macro's use that puts it in its body as it is */
    unsigned nb = 0, cb = 0, ce = 0, arg_b = 0, arg_e = 0;
    CXFile f = plain(clang_getCursorLocation(ref), &nb);
    CXSourceRange ext = clang_getCursorExtent(call);
    CXFile f1 = plain(clang_getRangeStart(ext), &cb);
    CXFile f2 = plain(clang_getRangeEnd(ext), &ce);
    bool in_arg = false;
    if (elc_in_macro(ref)) {
        char mwhy[320];
        in_arg = el_macro_argument_of(ref, &f, &nb, &arg_b, &arg_e, mwhy, sizeof mwhy);
        if (!in_arg && mwhy[0]) {
            snprintf(out->why, sizeof out->why, "%s: rewrite this use by hand", mwhy);
            return false;
        }
        if (in_arg) { /* its start and end: checked in the text below */
            f1 = f2 = f;
            cb = nb;
        }
    }
    if (f && (in_arg || !elc_in_macro(ref)) && in_backend_code(rw, call, f)) {
        snprintf(out->why, sizeof out->why, "%s is used in backend code that has not moved yet",
                 name);
        return false;
    }
    if (!f || !f1 || !f2 || !clang_File_isEqual(f, f1) || !clang_File_isEqual(f, f2) ||
        (elc_in_macro(ref) && !in_arg))
        return not_written_out(out, name, BY_MACRO);
    size_t size = 0;
    const char *t = clang_getFileContents(rw->tu, f, &size);
    if (t && nb < size && el_text_spells_split(t, size, nb, name))
        return not_written_out(out, name, "a line continuation splits its name");
    if (!t || (!in_arg && ce > size) || nb + len > size || strncmp(t + nb, name, len) != 0)
        return not_written_out(out, name, BY_MACRO);
    /* text before the name is a qualifier (C++'s ::f, ns::f) unless it
     * opens parentheses around the callee: (f)(x) */
    if (cb > nb)
        return not_written_out(out, name, BY_MACRO);
    if (memchr(t + cb, '(', nb - cb))
        return not_written_out(out, name, "its callee is in parentheses");
    size_t open = el_text_skip_blanks(t, size, nb + len), close = 0;
    unsigned b[MAX_ARGS], e[MAX_ARGS], nargs = 0;
    if (in_arg)
        ce = arg_e; /* the call ends in its argument: checked below */
    if (open >= size || t[open] != '(' || !split_args(t, size, open, &close, b, e, &nargs) ||
        (in_arg ? close >= arg_e : close + 1 != ce))
        return not_written_out(out, name, BY_MACRO);
    /* every argument of the AST where the text has it (a macro expanding
     * to several arguments does not fit) */
    int n_ast = clang_Cursor_getNumArguments(call);
    if (n_ast < 0 || (unsigned)n_ast != nargs)
        return not_written_out(out, name, BY_MACRO);
    for (unsigned k = 0; k < nargs; k++) {
        CXFile af = NULL;
        unsigned ao = 0, as = 0;
        CXSourceRange ar = clang_getCursorExtent(clang_Cursor_getArgument(call, k));
        CXSourceLocation al = clang_getCursorLocation(clang_Cursor_getArgument(call, k));
        if (in_arg) { /* where the argument's text is (libclang 14: the file's) */
            clang_getSpellingLocation(al, &af, NULL, NULL, &ao);
            clang_getSpellingLocation(clang_getRangeStart(ar), NULL, NULL, NULL, &as);
        } else {
            clang_getExpansionLocation(al, &af, NULL, NULL, &ao);
            clang_getExpansionLocation(clang_getRangeStart(ar), NULL, NULL, NULL, &as);
        }
        if (!af || !clang_File_isEqual(af, f) || as < b[k] || as > e[k] || ao > e[k])
            return not_written_out(out, name, BY_MACRO);
    }

    snprintf(out->callee, sizeof out->callee, "%s", name);
    out->file = f;
    out->safety = safety;
    if (tpl) {
        char macro[64], lib[64], where[96], uses[128];
        bool calls = false;
        if (template_macro_calls_library(rw, tpl->replacement, macro, sizeof macro, lib,
                                         sizeof lib, where, sizeof where, &calls)) {
            snprintf(uses, sizeof uses, calls ? "calls the library itself (%s)"
                                              : "names the library's %s", lib);
            /* the rewrite would call the library through the macro, and
             * the include it needs would go: the whole tree would fail to
             * compile before writing.  This call is left, with why. */
            if (!where[0])
                snprintf(out->why, sizeof out->why,
                         "the call template (\"rewrites\") for %.64s writes a call of %s "
                         "itself: the rewrite would still need the library and its header: "
                         "rewrite this use by hand, or map the template onto a function",
                         name, lib);
            else
                snprintf(out->why, sizeof out->why,
                         "the call template (\"rewrites\") for %.64s writes %s, a macro (%s) "
                         "that %s: the rewrite would still need the library and its header: "
                         "rewrite this use by hand, or map the template onto a function",
                         name, macro, where, uses);
            return false;
        }
        /* a wrapper's own call of the routine (PySCF's dgemm_wrapper
         * calling dgemm_, with the template "dgemm_wrapper(*$1, ...)"):
         * the rewrite would make the wrapper call itself, forever */
        char encl[128];
        out->tpl_text = tpl->replacement;
        if (enclosing_function(rw, call, encl, sizeof encl)[0] &&
            el_rewrite_names(out, encl, strlen(encl))) {
            snprintf(out->why, sizeof out->why,
                     "the call template (\"rewrites\") for %.64s writes %.64s, the function this "
                     "call is in: the rewrite would make %.64s call itself without end: rewrite "
                     "this use by hand (or leave it: it is the wrapper the template calls)",
                     name, encl, encl);
            out->tpl_text = NULL;
            return false;
        }
        unsigned all_b = (unsigned)el_text_skip_blanks(t, size, open + 1), all_e = (unsigned)close;
        while (all_e > all_b && strchr(" \t\r\n\f\v", t[all_e - 1]))
            all_e--;
        /* the calls in the arguments are rewritten in the text put in:
         * their own fixes lie inside this one, so they would be left for
         * a second run */
        el_rewrite_list inner = {0};
        bool ok = true;
        for (unsigned k = 0; k < nargs && ok; k++)
            ok = el_rewrite_calls_in(rw, clang_Cursor_getArgument(call, k), f, &inner);
        out->text = ok ? expand(tpl->replacement, t, b, e, nargs, all_b, all_e, &inner,
                                &out->safety, out) : NULL;
        el_rewrite_list_free(&inner);
        if (!out->text)
            return false;
        /* an argument the template writes that also holds a macro
         * expanding to nothing here may hold more arguments in another
         * configuration (R's `&ldc FCONE FCONE`: FCONE is `,(FC_LEN_T)1`
         * where FC_LEN_T is defined, a Fortran string length), which the
         * rewrite would carry into another argument or call; dropped
         * whole, the argument takes them along */
        for (unsigned k = 0; k < nargs; k++) {
            size_t at = 0, alen = 0;
            if (!empty_macro_in(rw, t, b[k], e[k], &at, &alen))
                continue;
            bool kept = false;
            for (unsigned j = 0; j < out->n_kept && !kept; j++)
                kept = out->kept[j][0] <= at && at < out->kept[j][1];
            if (!kept)
                continue;
            free(out->text);
            out->text = NULL;
            out->n_kept = 0;
            out->tpl_text = NULL;
            snprintf(out->why, sizeof out->why,
                     "the call template (\"rewrites\") for %.64s writes argument %u, "
                     "'%.*s%s', whose %.*s is a macro that expands to nothing here and may "
                     "stand for more arguments in another configuration (R's FCONE: a Fortran "
                     "string length where FC_LEN_T is defined): the rewrite would carry them "
                     "into %.64s: rewrite this call by hand",
                     name, k + 1, (int)(e[k] - b[k] > 64 ? 64 : e[k] - b[k]), t + b[k],
                     e[k] - b[k] > 64 ? "..." : "", (int)(alen > 64 ? 64 : alen), t + at,
                     tpl->replacement);
            return false;
        }
        out->rename = false;
        out->in_argument = in_arg;
        out->begin = cb;
        out->end = in_arg ? close + 1 : ce; /* the argument may go on: f(x) - 1 */
        out->tpl_text = tpl->replacement;
        /* an argument the template drops whose evaluation may do something
         * (calls++, f(x), n = 3): the rewrite loses it, whatever the
         * template's own safety */
        unsigned lost = 0;
        arg_uses lost_uses = {0};
        bool unevaluated = false; /* lost: written, but only where it is not evaluated */
        const char *what = NULL;
        for (unsigned k = 0; k < nargs && !what; k++) {
            bool kept = false;
            for (unsigned j = 0; j < out->n_kept && !kept; j++)
                kept = out->kept[j][0] <= b[k] && e[k] <= out->kept[j][1];
            arg_uses arg_use = template_uses(tpl->replacement, k);
            bool evaluated = kept && arg_use.evaluated > 0;
            if (!evaluated && (what = side_effect(t, b[k], code_end(t, b[k], e[k])))) {
                lost = k + 1;
                lost_uses = arg_use;
                unevaluated = kept;
            }
        }
        /* one the template writes twice or more (a GEMM of a by a's
         * transpose, "my_gemm($2, $2, ...)"): its side effect would
         * happen as many times */
        unsigned twice = 0, times = 0;
        bool up_to = false; /* some of them on some paths only */
        const char *twice_what = NULL;
        for (unsigned k = 0; k < nargs && !what && !twice_what; k++) {
            arg_uses u = template_uses(tpl->replacement, k);
            unsigned w = u.evaluated + u.maybe; /* at most */
            if (w >= 2 && (twice_what = side_effect(t, b[k], code_end(t, b[k], e[k])))) {
                twice = k + 1;
                times = w;
                up_to = u.maybe > 0;
            }
        }
        if (what) {
            char unseen[128] = "";
            if (unevaluated)
                unseen_phrase(&lost_uses, unseen, sizeof unseen);
            out->safety = EL_FIX_UNSAFE;
            snprintf(out->description, sizeof out->description,
                     "replace the call of %s with %.80s%s (unsafe: the template %s argument "
                     "%u, which holds %s%s: a side effect the rewrite would lose)",
                     name, out->text, strlen(out->text) > 80 ? "..." : "",
                     unevaluated ? "writes" : "drops", lost, what, unseen);
        } else if (twice_what) {
            out->safety = EL_FIX_UNSAFE;
            snprintf(out->description, sizeof out->description,
                     "replace the call of %s with %.80s%s (unsafe: the template writes argument "
                     "%u %u times, which holds %s: its side effect would happen %s%u times)",
                     name, out->text, strlen(out->text) > 80 ? "..." : "", twice, times,
                     twice_what, up_to ? "up to " : "", times);
        } else {
            snprintf(out->description, sizeof out->description,
                     "replace the call of %s with %.160s%s", name, out->text,
                     strlen(out->text) > 160 ? "..." : "");
        }
    } else {
        out->text = el_xstrdup(target);
        out->rename = true;
        out->in_argument = in_arg;
        out->begin = nb;
        out->end = nb + (unsigned)len;
        snprintf(out->description, sizeof out->description, "replace %s with %s", name, target);
    }
    return true;
}

CXCursor el_call_of_callee(el_ctx *ctx, CXCursor e)
{
    CXCursor child = e;
    for (unsigned i = 0; i < el_depth(ctx); i++) {
        CXCursor a = el_ancestor(ctx, i);
        enum CXCursorKind k = clang_getCursorKind(a);
        if (k == CXCursor_CallExpr)
            return clang_equalCursors(child, elc_child(a, 0)) ? a : clang_getNullCursor();
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
            k != CXCursor_CStyleCastExpr && k != CXCursor_UnaryOperator)
            break;
        child = a;
    }
    return clang_getNullCursor();
}

bool el_rewrite_ref(el_rewriter *rw, CXCursor ref, el_call_rewrite *out)
{
    memset(out, 0, sizeof *out);
    if (!rw || clang_getCursorKind(ref) != CXCursor_DeclRefExpr)
        return false;
    CXCursor fn = clang_getCursorReferenced(ref);
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
        return false;
    char name[128], target[160], why[512];
    elc_spelling(fn, name, sizeof name);
    size_t len = strlen(name);
    el_fix_safety safety = EL_FIX_NONE;
    if (!len || len + 1 >= sizeof out->callee || el_config_rewrite_for(rw->cfg, name) ||
        !contract_rewrite(rw, fn, clang_getNullCursor(), name, target, sizeof target, &safety,
                          why, sizeof why))
        return false;
    unsigned nb = 0;
    CXFile f = plain(clang_getCursorLocation(ref), &nb);
    size_t size = 0;
    const char *t = f ? clang_getFileContents(rw->tu, f, &size) : NULL;
    if (f && !elc_in_macro(ref) && in_backend_code(rw, ref, f)) {
        snprintf(out->why, sizeof out->why, "%s is used in backend code that has not moved yet",
                 name);
        return false;
    }
    if (!f || elc_in_macro(ref) || !t || nb + len > size || strncmp(t + nb, name, len) != 0)
        return false;
    snprintf(out->callee, sizeof out->callee, "%s", name);
    out->file = f;
    out->safety = safety;
    out->rename = true;
    out->begin = nb;
    out->end = nb + (unsigned)len;
    out->text = el_xstrdup(target);
    snprintf(out->description, sizeof out->description, "replace %s with %s", name, target);
    return true;
}

/* ---- the calls in an expression ------------------------------------------------ */

typedef struct calls_walk {
    el_rewriter *rw;
    CXFile file;
    el_rewrite_list *out;
    bool failed;
} calls_walk;

static enum CXChildVisitResult calls_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    calls_walk *w = d;
    el_call_rewrite r;
    if (clang_getCursorKind(c) != CXCursor_CallExpr || !el_rewrite_call(w->rw, c, &r))
        return CXChildVisit_Recurse;
    if (!clang_File_isEqual(r.file, w->file)) {
        el_call_rewrite_clear(&r);
        w->failed = true;
        return CXChildVisit_Break;
    }
    el_grow(&w->out->v, &w->out->cap, w->out->n + 1, sizeof *w->out->v);
    w->out->v[w->out->n++] = r;
    /* a template's text has the calls in its arguments rewritten already */
    return r.rename ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static int cmp_rewrite(const void *pa, const void *pb)
{
    const el_call_rewrite *a = pa, *b = pb;
    return (a->begin > b->begin) - (a->begin < b->begin);
}

bool el_rewrite_calls_in(el_rewriter *rw, CXCursor c, CXFile f, el_rewrite_list *out)
{
    calls_walk w = {rw, f, out, false};
    size_t first = out->n;
    if (calls_visit(c, clang_getNullCursor(), &w) == CXChildVisit_Recurse)
        clang_visitChildren(c, calls_visit, &w);
    if (out->n > first)
        qsort(out->v + first, out->n - first, sizeof *out->v, cmp_rewrite);
    return !w.failed;
}

void el_rewrite_list_free(el_rewrite_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        el_call_rewrite_clear(&l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

char *el_rewrite_apply(const char *t, unsigned b, unsigned e, const el_rewrite_list *l,
                       el_fix_safety *safety)
{
    el_buf out = {0};
    el_fix_safety used = EL_FIX_NONE;
    unsigned at = b;
    for (size_t i = 0; i < l->n; i++) {
        const el_call_rewrite *r = &l->v[i];
        if (r->end <= b || r->begin >= e)
            continue; /* outside (a rewrite is never empty) */
        if (r->begin < at || r->end > e) {
            el_buf_free(&out);
            return NULL;
        }
        el_buf_putn(&out, t + at, r->begin - at);
        el_buf_puts(&out, r->text);
        at = r->end;
        used = el_fix_safety_worst(used, r->safety);
    }
    el_buf_putn(&out, t + at, e - at);
    *safety = el_fix_safety_worst(*safety, used);
    return el_buf_take(&out);
}

bool el_rewrite_attach(el_ctx *ctx, CXTranslationUnit tu, const el_call_rewrite *r)
{
    if (!el_fix_begin(ctx, r->safety, r->description))
        return false;
    if (r->in_argument)
        return el_fix_replace_in_argument(ctx, r->file, r->begin, r->end, r->text);
    CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu, r->file, r->begin),
                                         clang_getLocationForOffset(tu, r->file, r->end));
    return el_fix_replace(ctx, range, r->text);
}
