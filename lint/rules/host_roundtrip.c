/* lint/rules/host_roundtrip.c -- EH401 host-roundtrip: data copied out of
 * a tensor (a copy-out such as eh_to_buffer, or a storage pointer from
 * eh_data*) and turned back into a tensor (a to-tensor call such as
 * eh_convert_to_tensor, lists in rules/host_access.json) in the same
 * function: the buffer itself, an alias of it, or data local code derived
 * from it (`out[i] = buf[i] * 2`, memcpy).  lint/storage_flow.c tracks
 * the flow, within the function and through variables only.
 *
 * Not findings: tensors made from data that never left a tensor (constant
 * tables, inputs), copy-outs that are only printed or returned, and a
 * to-tensor call that comes before the copy-out in the source (the flow
 * is otherwise order-blind: a buffer reused for unrelated data is not
 * told apart). */
#include <stdlib.h>

#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {SF_OBSERVED_KINDS, EL_KINDS_END};

/* Per TU: the to-tensor calls of the function being walked, judged when
 * the walk leaves it. */
typedef struct state {
    CXCursor *calls;
    size_t n, cap;
    bool applies;            /* the rule reports in this function's file */
} state;

static void begin(el_ctx *ctx, void *st)
{
    (void)ctx;
    (void)st;
    sf_tu_reset();
}

static void end(el_ctx *ctx, void *st)
{
    (void)ctx;
    free(((state *)st)->calls);
    sf_tu_reset();
}

static void judge(el_ctx *ctx, const sf_func *f, CXCursor call)
{
    const sf_fn *fn = sf_call_function(call);
    sf_origin o;
    if (!fn || !sf_host_data(f, clang_Cursor_getArgument(call, (unsigned)fn->arg_a), &o))
        return;
    CXFile file = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, NULL, NULL, &off);
    if (o.file == file && o.offset >= off)
        return; /* the data leaves the tensor after this call */
    el_report(ctx, call, "'%s' makes a tensor from data copied out of a tensor by '%s' (line %u): "
              "a host round trip; compute with ops on the tensor (eh_copy for a copy)",
              fn->name, o.fn, o.line);
}

static void on_cursor(el_ctx *ctx, void *st_, CXCursor c)
{
    state *st = st_;
    sf_observe(ctx, c);
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_FunctionDecl) {
        CXCursor outer;
        if (clang_isCursorDefinition(c) && !el_enclosing_function(ctx, &outer)) {
            st->n = 0;
            st->applies = el_applies_at(ctx, clang_getCursorLocation(c));
        }
        return;
    }
    if (kind != CXCursor_CallExpr || !st->applies || !sf_in_function())
        return;
    const sf_fn *fn = sf_call_function(c);
    if (!fn || fn->kind != SF_FN_TO_TENSOR || fn->arg_a < 0 ||
        fn->arg_a >= clang_Cursor_getNumArguments(c))
        return;
    el_grow(&st->calls, &st->cap, st->n + 1, sizeof *st->calls);
    st->calls[st->n++] = c;
}

static void on_leave(el_ctx *ctx, void *st_, CXCursor c)
{
    state *st = st_;
    const sf_func *f = sf_leave(ctx, c);
    if (!f)
        return;
    if (sf_touches_tensor_data(f))
        for (size_t i = 0; i < st->n; i++)
            judge(ctx, f, st->calls[i]);
    st->n = 0;
}

const el_rule el_rule_host_roundtrip = {
    .id = "EH401",
    .kinds = kinds,
    .state_size = sizeof(state),
    .begin = begin,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
