/* lint/rules/narrowing_cast.c -- EH301 narrowing-cast: an explicit cast
 * that loses floating precision -- to a narrower floating type (long
 * double -> double -> float -> _Float16/half) or from a floating type to
 * an integer -- of a value from tensor storage or from a scalar read
 * (eh_item), or of a value computed from one.  Types are clang's
 * canonical types, so typedefs and macros do not hide a narrowing.
 *
 * C++'s static_cast<float>(x) and float(x) are explicit casts too.
 *
 * Not findings: widening casts, casts to _Bool (a truth test), integer to
 * floating casts, casts of values that never came from a tensor, and
 * implicit conversions (the compiler's -Wfloat-conversion reports those). */

#include <stdio.h>
#include <string.h>

#include "candidates.h"
#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {SF_OBSERVED_KINDS, CXCursor_CStyleCastExpr,
                                          CXCursor_CXXStaticCastExpr, CXCursor_CXXFunctionalCastExpr,
                                          EL_KINDS_END};


static void begin(el_ctx *ctx, void *st)
{
    (void)ctx;
    sf_candidates_begin(st);
}

static void end(el_ctx *ctx, void *st)
{
    (void)ctx;
    sf_candidates_end(st);
}

/* Precision rank of a floating type kind; 0 for others. */
static int float_rank(enum CXTypeKind k)
{
    switch (k) {
    case CXType_Half:
    case CXType_Float16:
        return 1;
    case CXType_Float:
        return 2;
    case CXType_Double:
        return 3;
    case CXType_LongDouble:
        return 4;
    case CXType_Float128:
        return 5;
    default:
        return 0;
    }
}

static enum CXChildVisitResult last_visit(CXCursor c, CXCursor p, CXClientData d)
{
    (void)p;
    *(CXCursor *)d = c;
    return CXChildVisit_Continue;
}

/* The precision the value of a local variable had before it was widened
 * into it (double w = (double)p[0] or = p[0], with float p[]): the
 * rank of its initializer's type under conversions and casts; 0 when the
 * operand is not such a variable. */
static int origin_rank(CXCursor operand)
{
    CXCursor e = sf_strip(operand, true);
    if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor var = clang_getCursorReferenced(e);
    if (clang_getCursorKind(var) != CXCursor_VarDecl)
        return 0;
    CXCursor init = clang_Cursor_getVarDeclInitializer(var);
    if (clang_Cursor_isNull(init))
        return 0;
    CXCursor inner = sf_strip(init, true);
    return float_rank(clang_getCanonicalType(clang_getCursorType(inner)).kind);
}

/* The cast's operand and whether it narrows a floating value; *to_int
 * for a floating to integer cast. */
static bool narrows(CXCursor cast, CXCursor *operand, CXType *from, CXType *to, bool *to_int)
{
    *to = clang_getCanonicalType(clang_getCursorType(cast));
    int rt = float_rank(to->kind);
    *to_int = elc_type_is_integer(*to) && to->kind != CXType_Bool;
    if (!rt && !*to_int)
        return false; /* to a pointer, a struct, void, _Bool */
    *operand = clang_getNullCursor();
    clang_visitChildren(cast, last_visit, operand);
    if (clang_Cursor_isNull(*operand))
        return false;
    /* C++ keeps the conversion the cast performs as an implicit one below
     * it (static_cast<int>(f) holds int(f), which holds f): the value
     * cast is what lies under the implicit conversions */
    for (int guard = 0; guard < 8 && clang_getCursorKind(*operand) == CXCursor_UnexposedExpr; guard++) {
        CXCursor inner = elc_child(*operand, 0);
        if (clang_Cursor_isNull(inner) || elc_child_count(*operand) != 1)
            break;
        *operand = inner;
    }
    *from = clang_getCanonicalType(clang_getCursorType(*operand));
    int rf = float_rank(from->kind);
    /* a variable that only holds a widened narrower value (double w =
     * p[0] with float p[]): casting back loses nothing */
    int orig = origin_rank(*operand);
    if (orig && orig < rf && rt && rt >= orig)
        return false;
    return rf && ((rt && rt < rf) || *to_int);
}

/* The rounding function (floor, ceil, round, trunc, rint, nearbyint and
 * their f and l forms, as libm knows them: sf_libm) whose call e is,
 * else NULL: its result is already a whole number, so a cast to an
 * integer has no fraction to drop. */
static const char *rounded_by(CXCursor e, char *name, size_t n)
{
    static const char *const rounding[] = {"floor", "ceil", "round", "trunc", "rint", "nearbyint"};
    const char *base;
    e = sf_strip(e, false);
    if (clang_getCursorKind(e) != CXCursor_CallExpr || !elc_callee_name(e, name, n) ||
        !sf_libm(name, NULL, &base))
        return NULL;
    for (size_t i = 0; i < sizeof rounding / sizeof *rounding; i++)
        if (!strcmp(base, rounding[i]))
            return name;
    return NULL;
}

static void judge(el_ctx *ctx, const sf_func *f, CXCursor cast)
{
    CXCursor operand;
    CXType from, to;
    bool to_int;
    if (!narrows(cast, &operand, &from, &to, &to_int))
        return;
    const char *src = sf_derived(f, operand, SF_ELEMENTS | SF_SCALAR_READS);
    if (!src)
        return;
    char fs[64], ts[64];
    elc_string(clang_getTypeSpelling(from), fs, sizeof fs);
    elc_string(clang_getTypeSpelling(to), ts, sizeof ts);
    const sf_fn *fn = sf_function(el_ctx_config(ctx), src);
    bool scalar = fn && fn->kind == SF_FN_SCALAR_READ;
    char rname[64], verb[96];
    const char *rounded = to_int ? rounded_by(operand, rname, sizeof rname) : NULL;
    if (rounded) /* no fraction left: what is lost is the range (out of it, undefined) */
        snprintf(verb, sizeof verb, "converts (%s has rounded it)", rounded);
    else
        snprintf(verb, sizeof verb, "%s", to_int ? "truncates" : "rounds");
    el_report(ctx, cast, "cast from %s to %s %s a value from %s%s; keep it in a tensor%s", fs, ts,
              verb, scalar ? "" : "tensor storage via ", src,
              el_uses_libeh(ctx) ? " (eh_cast changes a tensor's dtype)" : "");
}

static void on_cursor(el_ctx *ctx, void *st_, CXCursor c)
{
    sf_candidates *st = st_;
    if (!sf_candidates_enter(ctx, st, c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind != CXCursor_CStyleCastExpr && kind != CXCursor_CXXStaticCastExpr &&
        kind != CXCursor_CXXFunctionalCastExpr)
        return;
    CXCursor operand;
    CXType from, to;
    bool to_int;
    if (!narrows(c, &operand, &from, &to, &to_int))
        return;
    sf_candidates_add(st, c);
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    sf_candidates_leave(ctx, st, c, judge);
}

const el_rule el_rule_narrowing_cast = {
    .id = "EH301",
    .kinds = kinds,
    .state_size = sizeof(sf_candidates),
    .begin = begin,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
