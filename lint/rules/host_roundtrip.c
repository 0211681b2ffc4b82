/* lint/rules/host_roundtrip.c -- EH401 host-roundtrip: data copied out of
 * a tensor (a copy-out such as eh_to_buffer, or a storage pointer from
 * eh_data*) and turned back into a tensor (a to-tensor call such as
 * eh_convert_to_tensor, lists in rules/host_access.json) in the same
 * function: the buffer itself, an alias of it, or data local code derived
 * from it (`out[i] = buf[i] * 2`, memcpy).  lint/analysis/storage_flow.c tracks
 * the flow, within the function and through variables only.
 *
 * Not findings: tensors made from data that never left a tensor (constant
 * tables, inputs), copy-outs that are only printed or returned, and a
 * to-tensor call that comes before the copy-out in the source (the flow
 * is otherwise order-blind: a buffer reused for unrelated data is not
 * told apart). */

#include "candidates.h"
#include "clang_util.h"
#include "mem.h"
#include "rule.h"
#include "storage_flow.h"

static const enum CXCursorKind kinds[] = {SF_OBSERVED_KINDS, EL_KINDS_END};


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

static void judge(el_ctx *ctx, const sf_func *f, CXCursor call)
{
    const sf_fn *fn = sf_call_function(ctx, call);
    sf_origin o;
    if (!fn || !sf_host_data(f, clang_Cursor_getArgument(call, (unsigned)fn->arg_a), &o))
        return;
    CXFile file = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, NULL, NULL, &off);
    if (o.file == file && o.offset >= off)
        return; /* the data leaves the tensor after this call */
    el_report(ctx, call, "'%s' makes a tensor from data copied out of a tensor by '%s' (line %u): "
              "a host round trip; compute on the tensor%s", fn->name, o.fn, o.line,
              el_uses_libeh(ctx) ? " with ops (eh_copy for a copy)" : "");
}

static void on_cursor(el_ctx *ctx, void *st_, CXCursor c)
{
    sf_candidates *st = st_;
    if (!sf_candidates_enter(ctx, st, c))
        return;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind != CXCursor_CallExpr)
        return;
    const sf_fn *fn = sf_call_function(ctx, c);
    if (!fn || fn->kind != SF_FN_TO_TENSOR || fn->arg_a < 0 ||
        fn->arg_a >= clang_Cursor_getNumArguments(c))
        return;
    sf_candidates_add(st, c);
}

static void on_leave(el_ctx *ctx, void *st, CXCursor c)
{
    sf_candidates_leave(ctx, st, c, judge);
}

const el_rule el_rule_host_roundtrip = {
    .id = "EH401",
    .kinds = kinds,
    .state_size = sizeof(sf_candidates),
    .begin = begin,
    .on_cursor = on_cursor,
    .on_leave = on_leave,
    .end = end,
};
