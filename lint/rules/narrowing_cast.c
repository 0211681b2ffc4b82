/* lint/rules/narrowing_cast.c -- EH301 narrowing-cast: an explicit cast
 * that loses floating precision -- to a narrower floating type (long
 * double -> double -> float -> _Float16/half) or from a floating type to
 * an integer -- of a value from tensor storage or from a scalar read
 * (eh_item), or of a value computed from one.  Types are clang's
 * canonical types, so typedefs and macros do not hide a narrowing.
 *
 * Not findings: widening casts, casts to _Bool (a truth test), integer to
 * floating casts, casts of values that never came from a tensor, and
 * implicit conversions (the compiler's -Wfloat-conversion reports those). */
#include "clang_util.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {CXCursor_CStyleCastExpr, EL_KINDS_END};

static void begin(el_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    sf_tu_reset();
}

static void end(el_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    sf_tu_reset();
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

static void on_cast(el_ctx *ctx, void *state, CXCursor cast)
{
    (void)state;
    CXType to = clang_getCanonicalType(clang_getCursorType(cast));
    CXCursor operand = clang_getNullCursor();
    clang_visitChildren(cast, last_visit, &operand);
    if (clang_Cursor_isNull(operand))
        return;
    CXType from = clang_getCanonicalType(clang_getCursorType(operand));
    int rf = float_rank(from.kind), rt = float_rank(to.kind);
    if (!rf)
        return;
    bool to_int = elc_type_is_integer(to) && to.kind != CXType_Bool;
    if (!(rt && rt < rf) && !to_int)
        return;
    if (!el_applies_at(ctx, clang_getCursorLocation(cast)))
        return;
    const sf_func *f = sf_current(ctx);
    if (!sf_touches_tensor_data(f))
        return;
    const char *src = sf_derived(f, operand, SF_ELEMENTS | SF_SCALAR_READS);
    if (!src)
        return;
    char fs[64], ts[64];
    elc_string(clang_getTypeSpelling(from), fs, sizeof fs);
    elc_string(clang_getTypeSpelling(to), ts, sizeof ts);
    const sf_fn *fn = sf_function(src);
    bool scalar = fn && fn->kind == SF_FN_SCALAR_READ;
    el_report(ctx, cast, "cast from %s to %s %s a value from %s%s; keep it in a tensor "
              "(eh_cast changes a tensor's dtype)", fs, ts, to_int ? "truncates" : "rounds",
              scalar ? "" : "tensor storage via ", src);
}

const el_rule el_rule_narrowing_cast = {
    .id = "EH301",
    .kinds = kinds,
    .begin = begin,
    .on_cursor = on_cast,
    .end = end,
};
