/* lint/analysis/storage_flow.c -- where tensor data flows inside one function
 * (storage_flow.h).  Uses function_lists.c and expr_util.c; candidates.c
 * builds on it. */
#include "storage_flow.h"

#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "mem.h"

/* Expressions nest deeper than this only in generated code; past it the
 * queries answer "no". */
#define MAX_EXPR_DEPTH 200
/* Passes of the fixed point: each pass propagates one more hop of
 * aliasing; real code converges in two or three. */
#define MAX_PASSES 32

/* Through parentheses, conversions and casts to pointer types (a cast to
 * an integer ends a pointer's life as a pointer). */
static CXCursor strip_pointer(CXCursor e)
{
    for (int guard = 0; guard < 64; guard++) {
        e = sf_strip(e, false);
        enum CXCursorKind ck = clang_getCursorKind(e);
        if (ck != CXCursor_CStyleCastExpr && ck != CXCursor_CXXStaticCastExpr &&
            ck != CXCursor_CXXReinterpretCastExpr && ck != CXCursor_CXXConstCastExpr)
            return e;
        enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(e)).kind;
        if (k != CXType_Pointer)
            return e;
        e = sf_last_child(e);
    }
    return e;
}

/* C++: v.data() of a container (std::vector, std::array): the
 * container's own elements; *base receives v. */
static bool container_data(CXCursor call, CXCursor *base)
{
    if (clang_getCursorKind(call) != CXCursor_CallExpr)
        return false;
    CXCursor m = clang_getCursorReferenced(call);
    if (clang_getCursorKind(m) != CXCursor_CXXMethod)
        return false;
    char name[16];
    elc_spelling(m, name, sizeof name);
    if (strcmp(name, "data") != 0)
        return false;
    CXCursor callee = elc_child(call, 0);
    if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
        return false;
    *base = elc_child(callee, 0);
    return !clang_Cursor_isNull(*base);
}

static enum CXTypeKind canon_kind(CXCursor c)
{
    return clang_getCanonicalType(clang_getCursorType(c)).kind;
}

static bool is_floating_kind(enum CXTypeKind k)
{
    return k == CXType_Float || k == CXType_Double || k == CXType_LongDouble || k == CXType_Half ||
           k == CXType_Float16 || k == CXType_Float128;
}

static bool kind_is_array(enum CXTypeKind k)
{
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* The base (pointer or array operand) of an ArraySubscriptExpr: usually
 * the first child, the second for the rare `i[p]`. */
static CXCursor subscript_base(CXCursor sub, CXCursor *index)
{
    CXCursor k[2];
    if (sf_children(sub, k, 2) != 2)
        return clang_getNullCursor();
    enum CXTypeKind t0 = canon_kind(k[0]);
    bool first = t0 == CXType_Pointer || kind_is_array(t0);
    if (index)
        *index = first ? k[1] : k[0];
    return first ? k[0] : k[1];
}

/* A UnaryOperator `*e`: the type says so (the result is what the operand
 * points to), the token confirms. */
static bool is_deref(CXCursor u, CXCursor *operand)
{
    CXCursor k[1];
    if (sf_children(u, k, 1) != 1)
        return false;
    CXType pt = clang_getCanonicalType(clang_getCursorType(k[0]));
    if (pt.kind != CXType_Pointer)
        return false;
    CXType pointee = clang_getCanonicalType(clang_getPointeeType(pt));
    if (!clang_equalTypes(pointee, clang_getCanonicalType(clang_getCursorType(u))))
        return false;
    char op[4];
    bool post = false;
    if (!sf_unary_operator(u, op, sizeof op, &post) || post || strcmp(op, "*") != 0)
        return false;
    *operand = k[0];
    return true;
}

static void origin_of_call(CXCursor call, const char *fn, sf_origin *o)
{
    o->fn = fn;
    o->file = NULL;
    o->line = o->offset = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &o->file, &o->line, NULL, &o->offset);
}

/* ---- the analysis --------------------------------------------------------- */

#define VF_STORAGE 1u   /* points into tensor storage */
#define VF_ELEMENT 2u   /* holds an element read from storage */
#define VF_ITEM 4u      /* holds a scalar read */
#define VF_HOST 8u      /* holds (or points at) host data out of a tensor */

typedef struct sf_var {
    CXCursor decl;           /* canonical declaration */
    unsigned hash;
    unsigned flags;
    enum CXTypeKind type;    /* canonical type kind */
    const char *accessor;    /* VF_STORAGE, VF_ELEMENT: the accessor */
    const char *read_fn;     /* VF_ITEM */
    sf_origin host;          /* VF_HOST */
} sf_var;

/* An assignment or initialisation: a variable gets rhs. */
typedef struct sf_def {
    size_t var;
    CXCursor rhs;
    bool compound;
} sf_def;

/* A store through an lvalue that is not a plain variable (p[i] = rhs,
 * *o++ = rhs), or a call that carries data (copy-out, host copy). */
typedef struct sf_pair {
    CXCursor a, b;
    bool compound;
    const sf_fn *fn;
} sf_pair;

/* A BinaryOperator (maybe `=`) or compound assignment of the function;
 * which it is gets decided only if the function touches tensor data. */
typedef struct sf_assign {
    CXCursor op;
    bool compound;
} sf_assign;

struct sf_func {
    CXCursor fn;
    bool active;

    sf_var *vars;
    size_t n_vars, cap_vars;
    size_t *table;           /* index + 1; 0 empty */
    size_t cap_table;

    sf_def *defs;
    size_t n_defs, cap_defs;
    sf_pair *stores;
    size_t n_stores, cap_stores;
    sf_pair *calls;
    size_t n_calls, cap_calls;

    /* collected during the walk, examined only when active */
    CXCursor *decls;         /* VarDecls (initialised or not) */
    size_t n_decls, cap_decls;
    sf_assign *assigns;      /* candidate `=` and compound assignments */
    size_t n_assigns, cap_assigns;
};

/* Per thread, for the translation unit the thread is linting. */
static _Thread_local struct {
    CXTranslationUnit tu;
    const el_config *cfg;    /* the TU's configuration (its host-access lists) */
    sf_func f;
    bool in_function;        /* f is the function being walked or just left */
    bool left;               /* its walk is over */
    bool finished;           /* finish() ran */
    CXCursor last;           /* the cursor sf_observe saw last */
    bool have_last;
    CXCursor call;           /* a CallExpr and the list entry of its callee */
    const sf_fn *call_fn;
    bool have_call;
    struct callee_slot *callees;  /* FunctionDecl -> list entry, open addressing */
    size_t n_callees, cap_callees;
} T;

/* What the list says about a function declaration, once per TU. */
typedef struct callee_slot {
    CXCursor decl;
    unsigned hash;
    bool used;
    const sf_fn *fn;
} callee_slot;

static const sf_fn *by_name(CXCursor decl)
{
    char name[128];
    return sf_function(T.cfg, elc_spelling(decl, name, sizeof name));
}

static const sf_fn *callee_fn(CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    if (T.cap_callees) {
        size_t mask = T.cap_callees - 1;
        for (size_t i = h & mask; T.callees[i].used; i = (i + 1) & mask)
            if (T.callees[i].hash == h && clang_equalCursors(T.callees[i].decl, decl))
                return T.callees[i].fn;
    }
    if ((T.n_callees + 1) * 2 > T.cap_callees) {
        size_t cap = T.cap_callees ? T.cap_callees * 2 : 64;
        callee_slot *old = T.callees;
        size_t old_cap = T.cap_callees;
        T.callees = el_xcalloc(cap, sizeof *T.callees);
        T.cap_callees = cap;
        for (size_t k = 0; k < old_cap; k++) {
            if (!old[k].used)
                continue;
            size_t i = old[k].hash & (cap - 1);
            while (T.callees[i].used)
                i = (i + 1) & (cap - 1);
            T.callees[i] = old[k];
        }
        free(old);
    }
    const sf_fn *fn = by_name(decl);
    size_t i = h & (T.cap_callees - 1);
    while (T.callees[i].used)
        i = (i + 1) & (T.cap_callees - 1);
    T.callees[i] = (callee_slot){decl, h, true, fn};
    T.n_callees++;
    return fn;
}

static void check_tu(el_ctx *ctx);

static const sf_fn *call_function_uncached(CXCursor call)
{
    /* The usual case, a direct call, through a per-TU table; aliases
     * (function pointers, macros naming one) through elc_callee. */
    CXCursor d = clang_getCursorReferenced(call);
    if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
        return callee_fn(d);
    d = elc_callee(call);
    return clang_Cursor_isNull(d) ? NULL : by_name(d);
}

/* Every rule asks about the same CallExpr in turn: remember the last. */
static const sf_fn *call_function_cached(CXCursor call)
{
    if (T.have_call && clang_equalCursors(call, T.call))
        return T.call_fn;
    T.call = call;
    T.call_fn = call_function_uncached(call);
    T.have_call = true;
    return T.call_fn;
}

const sf_fn *sf_call_function(el_ctx *ctx, CXCursor call)
{
    check_tu(ctx);
    return call_function_cached(call);
}

static void func_clear(sf_func *f, bool release)
{
    if (release) {
        free(f->vars);
        free(f->table);
        free(f->defs);
        free(f->stores);
        free(f->calls);
        free(f->decls);
        free(f->assigns);
        memset(f, 0, sizeof *f);
        return;
    }
    f->active = false;
    f->n_vars = f->n_defs = f->n_stores = f->n_calls = f->n_decls = f->n_assigns = 0;
    if (f->table)
        memset(f->table, 0, f->cap_table * sizeof *f->table);
}

void sf_tu_reset(void)
{
    func_clear(&T.f, true);
    free(T.callees);
    T.callees = NULL;
    T.n_callees = T.cap_callees = 0;
    T.tu = NULL;
    T.in_function = T.left = T.finished = false;
    T.have_last = T.have_call = false;
}

/* ---- variables ---- */

static sf_var *var_find(const sf_func *f, CXCursor canon)
{
    if (!f->cap_table)
        return NULL;
    unsigned h = clang_hashCursor(canon);
    size_t mask = f->cap_table - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        size_t slot = f->table[i];
        if (!slot)
            return NULL;
        sf_var *v = &f->vars[slot - 1];
        if (v->hash == h && clang_equalCursors(v->decl, canon))
            return v;
    }
}

static void table_insert(sf_func *f, size_t idx)
{
    size_t mask = f->cap_table - 1;
    size_t i = f->vars[idx].hash & mask;
    while (f->table[i])
        i = (i + 1) & mask;
    f->table[i] = idx + 1;
}

static size_t var_add(sf_func *f, CXCursor decl)
{
    CXCursor canon = clang_getCanonicalCursor(decl);
    sf_var *v = var_find(f, canon);
    if (v)
        return (size_t)(v - f->vars);
    if ((f->n_vars + 1) * 2 > f->cap_table) {
        size_t cap = f->cap_table ? f->cap_table * 2 : 64;
        free(f->table);
        f->table = el_xcalloc(cap, sizeof *f->table);
        f->cap_table = cap;
        for (size_t i = 0; i < f->n_vars; i++)
            table_insert(f, i);
    }
    el_grow(&f->vars, &f->cap_vars, f->n_vars + 1, sizeof *f->vars);
    sf_var *nv = &f->vars[f->n_vars];
    memset(nv, 0, sizeof *nv);
    nv->decl = canon;
    nv->hash = clang_hashCursor(canon);
    nv->type = canon_kind(canon);
    table_insert(f, f->n_vars);
    return f->n_vars++;
}

/* The variable a DeclRefExpr names (after stripping), or NULL. */
static sf_var *var_of_ref(const sf_func *f, CXCursor e)
{
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr || !f->n_vars)
        return NULL;
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(d);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return NULL;
    return var_find(f, clang_getCanonicalCursor(d));
}

static bool is_var_kind(CXCursor e, CXCursor *decl)
{
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return false;
    *decl = clang_getCursorReferenced(e);
    enum CXCursorKind k = clang_getCursorKind(*decl);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl;
}

/* ---- expression predicates ---- */

static const char *storage_ptr(const sf_func *f, CXCursor e, sf_origin *o, int depth);

/* An element lvalue or rvalue of storage: p[i], *p (not a variable). */
static const char *storage_read(const sf_func *f, CXCursor e, sf_origin *o, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_ArraySubscriptExpr) {
        enum CXTypeKind t = canon_kind(e);
        if (t == CXType_Pointer || kind_is_array(t))
            return NULL;
        CXCursor base = subscript_base(e, NULL);
        return clang_Cursor_isNull(base) ? NULL : storage_ptr(f, base, o, depth + 1);
    }
    CXCursor operand;
    if (k == CXCursor_UnaryOperator && is_deref(e, &operand))
        return storage_ptr(f, operand, o, depth + 1);
    return NULL;
}

static const char *storage_ptr(const sf_func *f, CXCursor e, sf_origin *o, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return NULL;
    e = strip_pointer(e);
    switch (clang_getCursorKind(e)) {
    case CXCursor_CallExpr: {
        const sf_fn *fn = call_function_cached(e);
        if (fn && fn->kind == SF_FN_ACCESSOR) {
            if (o)
                origin_of_call(e, fn->name, o);
            return fn->name;
        }
        return NULL;
    }
    case CXCursor_DeclRefExpr: {
        sf_var *v = var_of_ref(f, e);
        if (v && (v->flags & VF_STORAGE)) {
            if (o)
                *o = v->host;
            return v->accessor;
        }
        return NULL;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        /* p + k, k + p, p - k, (q = p), p += k */
        if (canon_kind(e) != CXType_Pointer)
            return NULL;
        CXCursor k[2];
        if (sf_children(e, k, 2) != 2)
            return NULL;
        const char *r = NULL;
        if (canon_kind(k[0]) == CXType_Pointer || kind_is_array(canon_kind(k[0])))
            r = storage_ptr(f, k[0], o, depth + 1);
        if (!r && (canon_kind(k[1]) == CXType_Pointer || kind_is_array(canon_kind(k[1]))))
            r = storage_ptr(f, k[1], o, depth + 1);
        return r;
    }
    case CXCursor_UnaryOperator: {
        CXCursor k[1];
        if (sf_children(e, k, 1) != 1)
            return NULL;
        CXCursor sub = sf_strip(k[0], false);
        enum CXCursorKind sk = clang_getCursorKind(sub);
        if (sk == CXCursor_ArraySubscriptExpr || sk == CXCursor_UnaryOperator) {
            /* &p[k], &*p; reading p[k] as an address (&) */
            if (canon_kind(e) != CXType_Pointer)
                return NULL;
            return storage_read(f, sub, o, depth + 1);
        }
        /* p++, --p: same type as the operand */
        if (clang_equalTypes(clang_getCanonicalType(clang_getCursorType(e)),
                             clang_getCanonicalType(clang_getCursorType(k[0]))))
            return storage_ptr(f, k[0], o, depth + 1);
        return NULL;
    }
    case CXCursor_ArraySubscriptExpr: {
        /* a row of a storage pointer to arrays: m[i] in m[i][j] */
        if (!kind_is_array(canon_kind(e)))
            return NULL;
        CXCursor base = subscript_base(e, NULL);
        return clang_Cursor_isNull(base) ? NULL : storage_ptr(f, base, o, depth + 1);
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (sf_children(e, k, 3) != 3)
            return NULL;
        const char *r = storage_ptr(f, k[1], o, depth + 1);
        return r ? r : storage_ptr(f, k[2], o, depth + 1);
    }
    default:
        return NULL;
    }
}

static const char *element(const sf_func *f, CXCursor e, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return NULL;
    e = sf_strip(e, true);
    switch (clang_getCursorKind(e)) {
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
        return storage_read(f, e, NULL, depth);
    case CXCursor_DeclRefExpr: {
        sf_var *v = var_of_ref(f, e);
        return v && (v->flags & VF_ELEMENT) ? v->accessor : NULL;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (sf_children(e, k, 3) != 3)
            return NULL;
        const char *r = element(f, k[1], depth + 1);
        return r ? r : element(f, k[2], depth + 1);
    }
    default:
        return NULL;
    }
}

static const char *scalar_read(const sf_func *f, CXCursor e, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return NULL;
    e = sf_strip(e, true);
    switch (clang_getCursorKind(e)) {
    case CXCursor_CallExpr: {
        const sf_fn *fn = call_function_cached(e);
        return fn && fn->kind == SF_FN_SCALAR_READ ? fn->name : NULL;
    }
    case CXCursor_DeclRefExpr: {
        sf_var *v = var_of_ref(f, e);
        return v && (v->flags & VF_ITEM) ? v->read_fn : NULL;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (sf_children(e, k, 3) != 3)
            return NULL;
        const char *r = scalar_read(f, k[1], depth + 1);
        return r ? r : scalar_read(f, k[2], depth + 1);
    }
    default:
        return NULL;
    }
}

static bool is_value_op(const char *op)
{
    return elc_is_arithmetic_op(op) || strcmp(op, "&") == 0 || strcmp(op, "|") == 0 ||
           strcmp(op, "^") == 0 || strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0;
}

static const char *derived(const sf_func *f, CXCursor e, unsigned what, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return NULL;
    e = sf_strip(e, true);
    const char *r = NULL;
    if ((what & SF_ELEMENTS) && (r = element(f, e, depth)))
        return r;
    if ((what & SF_SCALAR_READS) && (r = scalar_read(f, e, depth)))
        return r;
    switch (clang_getCursorKind(e)) {
    case CXCursor_BinaryOperator: {
        CXCursor k[2];
        if (sf_children(e, k, 2) != 2)
            return NULL;
        r = derived(f, k[0], what, depth + 1);
        if (!r)
            r = derived(f, k[1], what, depth + 1);
        if (!r || (!is_floating_kind(canon_kind(e)) &&
                   (is_floating_kind(canon_kind(k[0])) || is_floating_kind(canon_kind(k[1])))))
            return NULL; /* a comparison or logical operator on floating values */
        char op[4];
        if (sf_binary_operator(e, op, sizeof op) && is_value_op(op))
            return r;
        return NULL;
    }
    case CXCursor_UnaryOperator: {
        CXCursor k[1];
        if (sf_children(e, k, 1) != 1 || canon_kind(e) == CXType_Pointer)
            return NULL;
        r = derived(f, k[0], what, depth + 1);
        char op[4];
        bool post;
        if (r && sf_unary_operator(e, op, sizeof op, &post) && strcmp(op, "!") != 0 &&
            strcmp(op, "*") != 0 && strcmp(op, "&") != 0)
            return r;
        return NULL;
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (sf_children(e, k, 3) != 3)
            return NULL;
        r = derived(f, k[1], what, depth + 1);
        return r ? r : derived(f, k[2], what, depth + 1);
    }
    case CXCursor_CallExpr: {
        char name[128];
        if (!elc_callee_name(e, name, sizeof name) || !sf_libm(name, NULL, NULL))
            return NULL;
        int n = clang_Cursor_getNumArguments(e);
        for (int i = 0; i < n && !r; i++)
            r = derived(f, clang_Cursor_getArgument(e, (unsigned)i), what, depth + 1);
        return r;
    }
    default:
        return NULL;
    }
}

/* Host data: pointer or array expressions. */
static bool host_ptr(const sf_func *f, CXCursor e, sf_origin *o, int depth)
{
    if (depth > MAX_EXPR_DEPTH)
        return false;
    e = strip_pointer(e);
    CXCursor owner;
    switch (clang_getCursorKind(e)) {
    case CXCursor_CallExpr:
        if (container_data(e, &owner))
            return host_ptr(f, owner, o, depth + 1);
        return storage_ptr(f, e, o, depth) != NULL;
    case CXCursor_DeclRefExpr: {
        sf_var *v = var_of_ref(f, e);
        if (v && (v->flags & VF_HOST)) {
            if (o)
                *o = v->host;
            return true;
        }
        return false;
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
        if (canon_kind(e) != CXType_Pointer)
            return false;
        CXCursor k[2];
        if (sf_children(e, k, 2) != 2)
            return false;
        return host_ptr(f, k[0], o, depth + 1) || host_ptr(f, k[1], o, depth + 1);
    }
    case CXCursor_UnaryOperator: {
        /* &buf[k], &x, p++ */
        CXCursor k[1];
        if (sf_children(e, k, 1) != 1 || canon_kind(e) != CXType_Pointer)
            return false;
        CXCursor sub = sf_strip(k[0], false);
        if (clang_getCursorKind(sub) == CXCursor_ArraySubscriptExpr) {
            CXCursor base = subscript_base(sub, NULL);
            return !clang_Cursor_isNull(base) && host_ptr(f, base, o, depth + 1);
        }
        return host_ptr(f, sub, o, depth + 1);
    }
    case CXCursor_ArraySubscriptExpr: {
        if (!kind_is_array(canon_kind(e)))
            return false;
        CXCursor base = subscript_base(e, NULL);
        return !clang_Cursor_isNull(base) && host_ptr(f, base, o, depth + 1);
    }
    case CXCursor_ConditionalOperator: {
        CXCursor k[3];
        if (sf_children(e, k, 3) != 3)
            return false;
        return host_ptr(f, k[1], o, depth + 1) || host_ptr(f, k[2], o, depth + 1);
    }
    default:
        return false;
    }
}

typedef struct reads_walk {
    const sf_func *f;
    sf_origin *o;
    bool found;
} reads_walk;

static enum CXChildVisitResult reads_visit(CXCursor c, CXCursor p, CXClientData d);

/* e reads host data: an element of a host pointer or array, or a host
 * scalar variable, anywhere inside (sizeof aside). */
static bool reads_host(const sf_func *f, CXCursor e, sf_origin *o)
{
    reads_walk w = {f, o, false};
    if (reads_visit(e, clang_getNullCursor(), &w) == CXChildVisit_Recurse)
        clang_visitChildren(e, reads_visit, &w);
    return w.found;
}

static enum CXChildVisitResult reads_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    reads_walk *w = d;
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnaryExpr:          /* sizeof, _Alignof: not evaluated */
        return CXChildVisit_Continue;
    case CXCursor_ArraySubscriptExpr: {
        if (kind_is_array(canon_kind(c)))
            break;                    /* a row: its element is read outside */
        CXCursor base = subscript_base(c, NULL);
        if (!clang_Cursor_isNull(base) && host_ptr(w->f, base, w->o, 0)) {
            w->found = true;
            return CXChildVisit_Break;
        }
        break;
    }
    case CXCursor_UnaryOperator: {
        CXCursor operand;
        if (canon_kind(c) != CXType_Pointer && is_deref(c, &operand) &&
            host_ptr(w->f, operand, w->o, 0)) {
            w->found = true;
            return CXChildVisit_Break;
        }
        break;
    }
    case CXCursor_DeclRefExpr: {
        sf_var *v = var_of_ref(w->f, c);
        if (v && (v->flags & VF_HOST) && v->type != CXType_Pointer && !kind_is_array(v->type)) {
            if (w->o)
                *w->o = v->host;
            w->found = true;
            return CXChildVisit_Break;
        }
        break;
    }
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

/* The variable an lvalue stores into: out in out[i], *out, *(out + i),
 * out[i][j], *o++, &x. */
static sf_var *lvalue_var(sf_func *f, CXCursor e)
{
    for (int guard = 0; guard < 64; guard++) {
        e = strip_pointer(e);
        CXCursor decl, base;
        if (container_data(e, &base)) {
            e = base;
            continue;
        }
        switch (clang_getCursorKind(e)) {
        case CXCursor_DeclRefExpr: {
            if (!is_var_kind(e, &decl))
                return NULL;
            size_t idx = var_add(f, decl); /* may move f->vars */
            return &f->vars[idx];
        }
        case CXCursor_ArraySubscriptExpr:
            e = subscript_base(e, NULL);
            break;
        case CXCursor_UnaryOperator: {
            CXCursor k[1];
            if (sf_children(e, k, 1) != 1)
                return NULL;
            e = k[0];
            break;
        }
        case CXCursor_BinaryOperator: {
            if (canon_kind(e) != CXType_Pointer)
                return NULL;
            CXCursor k[2];
            if (sf_children(e, k, 2) != 2)
                return NULL;
            e = canon_kind(k[0]) == CXType_Pointer || kind_is_array(canon_kind(k[0])) ? k[0] : k[1];
            break;
        }
        default:
            return NULL;
        }
        if (clang_Cursor_isNull(e))
            return NULL;
    }
    return NULL;
}

static bool set_host(sf_var *v, const sf_origin *o)
{
    if (v->flags & VF_HOST)
        return false;
    v->flags |= VF_HOST;
    v->host = *o;
    return true;
}

/* ---- collecting, during the engine's walk ---- */

static bool lvalue_kind(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_UnaryOperator:
    case CXCursor_MemberRefExpr:
    case CXCursor_ParenExpr:
        return true;
    default:
        return false;
    }
}

static void collect(sf_func *f, CXCursor c, enum CXCursorKind kind)
{
    switch (kind) {
    case CXCursor_CallExpr: {
        const sf_fn *fn = call_function_cached(c);
        if (!fn)
            break;
        if (fn->kind == SF_FN_ACCESSOR || fn->kind == SF_FN_SCALAR_READ || fn->kind == SF_FN_COPY_OUT)
            f->active = true;
        if (fn->kind == SF_FN_COPY_OUT || fn->kind == SF_FN_HOST_COPY) {
            el_grow(&f->calls, &f->cap_calls, f->n_calls + 1, sizeof *f->calls);
            f->calls[f->n_calls++] = (sf_pair){c, c, false, fn};
        }
        break;
    }
    case CXCursor_VarDecl:
        el_grow(&f->decls, &f->cap_decls, f->n_decls + 1, sizeof *f->decls);
        f->decls[f->n_decls++] = c;
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        /* Operands and operator are looked at only if the function turns
         * out to touch tensor data. */
        el_grow(&f->assigns, &f->cap_assigns, f->n_assigns + 1, sizeof *f->assigns);
        f->assigns[f->n_assigns++] = (sf_assign){c, kind == CXCursor_CompoundAssignOperator};
        break;
    default:
        break;
    }
}

static void add_def(sf_func *f, size_t var, CXCursor rhs, bool compound)
{
    el_grow(&f->defs, &f->cap_defs, f->n_defs + 1, sizeof *f->defs);
    f->defs[f->n_defs++] = (sf_def){var, rhs, compound};
}

static bool propagate(sf_func *f)
{
    bool changed = false;
    for (size_t i = 0; i < f->n_defs; i++) {
        sf_def *d = &f->defs[i];
        sf_var *v = &f->vars[d->var];
        sf_origin o;
        if (v->type == CXType_Pointer) {
            if (d->compound)
                continue;
            const char *acc;
            if (!(v->flags & VF_STORAGE) && (acc = storage_ptr(f, d->rhs, &o, 0))) {
                v->flags |= VF_STORAGE;
                v->accessor = acc;
                set_host(v, &o);
                changed = true;
            }
            if (!(v->flags & VF_HOST) && host_ptr(f, d->rhs, &o, 0))
                changed |= set_host(v, &o);
            continue;
        }
        if (!d->compound && !kind_is_array(v->type)) {
            const char *r;
            if (!(v->flags & VF_ELEMENT) && (r = element(f, d->rhs, 0))) {
                v->flags |= VF_ELEMENT;
                v->accessor = r;
                changed = true;
            }
            if (!(v->flags & VF_ITEM) && (r = scalar_read(f, d->rhs, 0))) {
                v->flags |= VF_ITEM;
                v->read_fn = r;
                changed = true;
            }
        }
        if (!(v->flags & VF_HOST) && reads_host(f, d->rhs, &o))
            changed |= set_host(v, &o);
    }
    for (size_t i = 0; i < f->n_stores; i++) {
        sf_pair *s = &f->stores[i];
        sf_origin o;
        sf_var *v = lvalue_var(f, s->a);
        if (v && !(v->flags & VF_HOST) && reads_host(f, s->b, &o))
            changed |= set_host(v, &o);
    }
    for (size_t i = 0; i < f->n_calls; i++) {
        sf_pair *c = &f->calls[i];
        if (c->fn->kind != SF_FN_HOST_COPY || c->fn->arg_a < 0 || c->fn->arg_b < 0)
            continue;
        int n = clang_Cursor_getNumArguments(c->a);
        if (c->fn->arg_a >= n || c->fn->arg_b >= n)
            continue;
        sf_origin o;
        if (!host_ptr(f, clang_Cursor_getArgument(c->a, (unsigned)c->fn->arg_b), &o, 0))
            continue;
        sf_var *v = lvalue_var(f, clang_Cursor_getArgument(c->a, (unsigned)c->fn->arg_a));
        if (v)
            changed |= set_host(v, &o);
    }
    return changed;
}

/* The function's walk is over: resolve what was collected. */
static void finish(sf_func *f)
{
    if (!f->active)
        return;

    /* Declarations with an initializer. */
    for (size_t i = 0; i < f->n_decls; i++) {
        CXCursor init = clang_Cursor_getVarDeclInitializer(f->decls[i]);
        if (!clang_Cursor_isNull(init))
            add_def(f, var_add(f, f->decls[i]), init, false);
    }

    /* Assignments.  In C every binary operator but `=` and the compound
     * assignments converts its left operand to a value (even `,`), which
     * clang shows as an implicit cast (UnexposedExpr): a left operand that
     * is still an lvalue means `=`.  Only a unary operator there needs a
     * second look (`*p = x`, against `-x + y`).  A plain variable is a
     * definition, anything else a store through an lvalue. */
    for (size_t i = 0; i < f->n_assigns; i++) {
        sf_assign *a = &f->assigns[i];
        CXCursor k[2], operand;
        if (sf_children(a->op, k, 2) != 2 || (!a->compound && !lvalue_kind(k[0])))
            continue;
        if (!a->compound && clang_getCursorKind(k[0]) == CXCursor_UnaryOperator &&
            !is_deref(k[0], &operand))
            continue;
        CXCursor lhs = sf_strip(k[0], false), decl;
        if (is_var_kind(lhs, &decl)) {
            add_def(f, var_add(f, decl), k[1], a->compound);
        } else {
            el_grow(&f->stores, &f->cap_stores, f->n_stores + 1, sizeof *f->stores);
            f->stores[f->n_stores++] = (sf_pair){lhs, k[1], a->compound, NULL};
        }
    }

    /* Seeds: the buffers copy-outs fill. */
    for (size_t i = 0; i < f->n_calls; i++) {
        sf_pair *c = &f->calls[i];
        if (c->fn->kind != SF_FN_COPY_OUT || c->fn->arg_a < 0 ||
            c->fn->arg_a >= clang_Cursor_getNumArguments(c->a))
            continue;
        sf_var *v = lvalue_var(f, clang_Cursor_getArgument(c->a, (unsigned)c->fn->arg_a));
        if (v) {
            sf_origin o;
            origin_of_call(c->a, c->fn->name, &o);
            set_host(v, &o);
        }
    }
    for (int pass = 0; pass < MAX_PASSES && propagate(f); pass++)
        ;
}

static void check_tu(el_ctx *ctx)
{
    CXTranslationUnit tu = el_tu(ctx);
    if (T.tu != tu) {
        sf_tu_reset();
        T.tu = tu;
        T.cfg = el_ctx_config(ctx);
    }
}

static bool same_value(CXCursor a, CXCursor b)
{
    return a.kind == b.kind && a.data[0] == b.data[0] && a.data[1] == b.data[1] &&
           a.data[2] == b.data[2];
}

void sf_observe(el_ctx *ctx, CXCursor c)
{
    check_tu(ctx);
    /* Every rule of the module hands the same cursor in turn: the first
     * one feeds. */
    if (T.have_last && same_value(c, T.last)) /* (most often the very same value) */
        return;
    if (T.have_last && clang_equalCursors(c, T.last))
        return;
    T.last = c;
    T.have_last = true;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (elc_is_function_kind(kind)) {
        if (!el_is_definition(ctx, c) || (T.in_function && !T.left))
            return; /* a prototype, or nested (a GNU extension): part of the outer one */
        func_clear(&T.f, false);
        T.f.fn = c;
        T.in_function = true;
        T.left = T.finished = false;
        return;
    }
    if (T.in_function && !T.left)
        collect(&T.f, c, kind);
}

bool sf_in_function(void)
{
    return T.in_function && !T.left;
}

const sf_func *sf_leave(el_ctx *ctx, CXCursor c)
{
    check_tu(ctx);
    if (!T.in_function || !elc_is_function_kind(clang_getCursorKind(c)) ||
        !clang_equalCursors(c, T.f.fn))
        return NULL;
    T.left = true;
    return &T.f;
}

/* The analysis is resolved on the first query, so a function no rule
 * asks about (no candidates) costs nothing more. */
static const sf_func *ready(const sf_func *f)
{
    if (!f || !f->active)
        return NULL;
    if (f == &T.f && T.left && !T.finished) {
        finish(&T.f);
        T.finished = true;
    }
    return f;
}

bool sf_touches_tensor_data(const sf_func *f)
{
    return f && f->active;
}

const char *sf_storage_pointer(const sf_func *f, CXCursor e)
{
    return (f = ready(f)) ? storage_ptr(f, e, NULL, 0) : NULL;
}

const char *sf_element(const sf_func *f, CXCursor e)
{
    return (f = ready(f)) ? element(f, e, 0) : NULL;
}

const char *sf_scalar_read(const sf_func *f, CXCursor e)
{
    return (f = ready(f)) ? scalar_read(f, e, 0) : NULL;
}

const char *sf_derived(const sf_func *f, CXCursor e, unsigned what)
{
    return (f = ready(f)) ? derived(f, e, what, 0) : NULL;
}

bool sf_host_data(const sf_func *f, CXCursor e, sf_origin *origin)
{
    sf_origin o;
    if (!(f = ready(f)) || !host_ptr(f, e, &o, 0))
        return false;
    if (origin)
        *origin = o;
    return true;
}

