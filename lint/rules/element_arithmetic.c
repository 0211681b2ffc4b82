/* lint/rules/element_arithmetic.c -- EH201 element-arithmetic: C
 * arithmetic operators (+ - * / %, their compound assignments, ++, --
 * and unary minus) applied to elements of tensor storage: values read
 * through a pointer from eh_data* (directly, through aliases, casts and
 * pointer arithmetic; by subscript or dereference), or variables holding
 * such a value.  Which values those are is lint/analysis/storage_flow.c's answer.
 *
 * Not findings: arithmetic whose result is an index or an address (inside
 * a subscript, pointer arithmetic, an integer argument of a scalar read),
 * loop counters and anything else that
 * never came from storage, and host copies made by eh_to_buffer (EH401
 * covers copying data out and back in).  Each operator is reported where
 * one of its own operands is an element, so `p[i] * 2 + b` is one finding
 * (at the `*`), and what is computed from a finding is not reported
 * again.  Each is reported where the operator is written
 * (el_report_written): in a macro's argument at its own place, so two in
 * one argument are two findings; in a macro's body at the macro's use. */
#include <stdio.h>
#include <string.h>

#include "candidates.h"
#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {SF_OBSERVED_KINDS, CXCursor_UnaryOperator, EL_KINDS_END};


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

/* Is on_path an integer argument of a scalar read (`ggml_get_f32_1d(t,
 * i)`, `THTensor_get1d(t, idx[i] - 1)`): an index into the tensor? */
static bool scalar_read_index(el_ctx *ctx, CXCursor call, CXCursor on_path)
{
    const sf_fn *fn = sf_call_function(ctx, call);
    if (!fn || fn->kind != SF_FN_SCALAR_READ ||
        !elc_type_is_integer(clang_getCanonicalType(clang_getCursorType(on_path))))
        return false;
    int n = clang_Cursor_getNumArguments(call);
    for (int k = 0; k < n; k++)
        if (clang_equalCursors(clang_Cursor_getArgument(call, (unsigned)k), on_path))
            return true;
    return false;
}

/* The cursor's value only computes an index or an address: it reaches a
 * subscript's index, pointer arithmetic or a scalar read's index, through
 * operators. */
static bool computes_address(el_ctx *ctx, CXCursor c)
{
    unsigned depth = el_depth(ctx);
    for (unsigned i = 0; i < depth; i++) {
        CXCursor a = el_ancestor(ctx, i);
        switch (clang_getCursorKind(a)) {
        case CXCursor_ParenExpr:
        case CXCursor_UnexposedExpr:
        case CXCursor_CStyleCastExpr:
        case CXCursor_UnaryOperator:
        case CXCursor_ConditionalOperator:
            break;
        case CXCursor_BinaryOperator:
        case CXCursor_CompoundAssignOperator:
            if (clang_getCanonicalType(clang_getCursorType(a)).kind == CXType_Pointer)
                return true;
            break;
        case CXCursor_ArraySubscriptExpr: {
            CXCursor k[2];
            if (sf_children(a, k, 2) != 2)
                return false;
            CXCursor on_path = i == 0 ? c : el_ancestor(ctx, i - 1);
            /* the index is the operand that is not the pointer or array */
            enum CXTypeKind t0 = clang_getCanonicalType(clang_getCursorType(k[0])).kind;
            bool first_is_base = t0 == CXType_Pointer || t0 == CXType_ConstantArray ||
                                 t0 == CXType_IncompleteArray || t0 == CXType_VariableArray;
            return clang_equalCursors(on_path, first_is_base ? k[1] : k[0]);
        }
        case CXCursor_CallExpr:
            return scalar_read_index(ctx, a, i == 0 ? c : el_ancestor(ctx, i - 1));
        default:
            return false;
        }
    }
    return false;
}

/* "; use eh_multiply_scalar on the tensor", or a neutral ending when the
 * configuration names no replacement (function_lists.h). */
static const char *advice(el_ctx *ctx, const char *op, bool integer, bool scalar, bool accumulate,
                          char *buf, size_t n)
{
    char use[96];
    const char *s = accumulate ? sf_suggest_accumulation(ctx, op, use, sizeof use)
                               : sf_suggest_operator(ctx, op, integer, scalar, use, sizeof use);
    if (s)
        snprintf(buf, n, "; use %s on the tensor", s);
    else
        snprintf(buf, n, "; compute it on the tensor, not element by element on the host");
    return buf;
}

/* A candidate, when the function touches tensor data. */
static void judge(el_ctx *ctx, const sf_func *f, CXCursor c)
{
    CXType type = clang_getCanonicalType(clang_getCursorType(c));
    enum CXCursorKind kind = clang_getCursorKind(c);
    CXCursor k[2];
    unsigned n = sf_children(c, k, 2);
    if (n != (kind == CXCursor_UnaryOperator ? 1u : 2u))
        return;
    const char *left = sf_element(f, k[0]);
    const char *right = n == 2 ? sf_element(f, k[1]) : NULL;
    if (!left && !right)
        return;
    const char *from = left ? left : right;
    char op[8], use[160], macro[128], in[160] = "";
    bool integer = elc_type_is_integer(type);
    /* in a macro's body: reported at the macro's use, where the operator is not written */
    if (elc_operator_macro(c, macro, sizeof macro))
        snprintf(in, sizeof in, " in macro '%s'", macro);

    if (kind == CXCursor_UnaryOperator) {
        bool post = false;
        if (!sf_unary_operator(c, op, sizeof op, &post))
            return;
        if (strcmp(op, "-") == 0)
            snprintf(op, sizeof op, "neg");
        else if (strcmp(op, "++") != 0 && strcmp(op, "--") != 0)
            return;
        el_report_written(ctx, elc_operator_location(c),
                          "'%s'%s on an element of tensor storage (from %s)%s",
                          strcmp(op, "neg") == 0 ? "-" : op, in, from,
                          advice(ctx, op, integer, false, false, use, sizeof use));
        return;
    }
    /* + - * / % convert both operands to the type of their result; a
     * result of another type than the (converted) operands is a
     * comparison or a logical operator: no tokens needed. */
    if (kind == CXCursor_BinaryOperator &&
        (!clang_equalTypes(type, clang_getCanonicalType(clang_getCursorType(k[0]))) ||
         !clang_equalTypes(type, clang_getCanonicalType(clang_getCursorType(k[1])))))
        return;
    if (!sf_binary_operator(c, op, sizeof op))
        return;
    if (kind == CXCursor_CompoundAssignOperator) {
        size_t l = strlen(op);
        if (l != 2 || op[1] != '=')
            return;
        op[1] = '\0';
        if (!elc_is_arithmetic_op(op))
            return;
        bool accumulates = !left && clang_getCursorKind(sf_strip(k[0], false)) == CXCursor_DeclRefExpr;
        if (accumulates && (op[0] == '+' || op[0] == '*'))
            el_report_written(ctx, elc_operator_location(c),
                              "'%s='%s accumulates elements of tensor storage (from %s) on the host%s",
                              op, in, from, advice(ctx, op, integer, false, true, use, sizeof use));
        else
            el_report_written(ctx, elc_operator_location(c),
                              "'%s='%s on an element of tensor storage (from %s)%s", op, in, from,
                              advice(ctx, op, integer, !(left && right), false, use, sizeof use));
        return;
    }
    if (!elc_is_arithmetic_op(op))
        return;
    el_report_written(ctx, elc_operator_location(c),
                      "'%s'%s on an element of tensor storage (from %s)%s", op, in, from,
                      advice(ctx, op, integer, !(left && right), false, use, sizeof use));
}

static void on_cursor(el_ctx *ctx, void *st_, CXCursor c)
{
    sf_candidates *st = st_;
    if (!sf_candidates_enter(ctx, st, c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind != CXCursor_BinaryOperator && kind != CXCursor_CompoundAssignOperator &&
        kind != CXCursor_UnaryOperator)
        return;
    /* Arithmetic on values (pointer arithmetic computes an address). */
    CXType type = clang_getCanonicalType(clang_getCursorType(c));
    if (!elc_type_is_integer(type) && !elc_type_is_floating(type))
        return;
    if (computes_address(ctx, c))
        return;
    sf_candidates_add(st, c);
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    sf_candidates_leave(ctx, st, c, judge);
}

const el_rule el_rule_element_arithmetic = {
    .id = "EH201",
    .kinds = kinds,
    .state_size = sizeof(sf_candidates),
    .begin = begin,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
