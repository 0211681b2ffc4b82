/* lint/analysis/storage_flow.h -- where tensor data flows inside one function, for
 * the ops-only, precision and conversion rules (EH201, EH202, EH203,
 * EH301, EH401).
 *
 * What it knows.  For one function definition:
 *
 *   - storage pointers: local variables (and parameters, globals) that
 *     point into a tensor's storage: assigned or initialised from an
 *     accessor of rules/host_access.json (eh_data, eh_data_f32, ...)
 *     directly, through casts (`(float *)eh_data(t)`), through another
 *     storage pointer (`q = p`), by pointer arithmetic (`p + k`, `p++`,
 *     `p += k`) or as an element's address (`&p[k]`);
 *   - element values: arithmetic variables holding a value read through
 *     a storage pointer (`v = p[i]`, `v = *p`, through conversions, or
 *     copied from another such variable: `w = v`);
 *   - item values: variables holding what a scalar read returned
 *     (`v = eh_item(t)`, or copied from such a variable);
 *   - host data: buffers a copy-out filled (`eh_to_buffer(t, buf, n)`),
 *     storage pointers, and what local code derives from either: a
 *     variable assigned an expression that reads such data (`x = buf[i]
 *     * 2`), an array or pointer whose elements are assigned such an
 *     expression (`out[i] = buf[i] * 2`, `*o++ = x`), aliases (`q = buf`)
 *     and host copies (`memcpy(out, buf, n)`).  Each carries its origin:
 *     the copy-out or accessor call the data left the tensor through.
 *
 * How.  Variables are identified by their declaration cursor
 * (DeclRefExpr -> clang_getCursorReferenced -> canonical cursor), never by
 * name.  The analysis is intra-procedural and flow-insensitive: every
 * assignment in the function counts wherever it is, iterated to a fixed
 * point (so `q = p` before `p = eh_data_f32(t)` still makes q a storage
 * pointer).  It does not follow struct members, arrays of pointers, data
 * passed to or returned from other functions, or pointers to pointers.
 *
 * Cost.  The analysis rides on the engine's single walk: every rule that
 * uses it lists SF_OBSERVED_KINDS among its kinds and hands each such
 * cursor to sf_observe() first thing in on_cursor (the module takes each
 * cursor once, whichever rules run); while a function is walked, the
 * module only records its calls, declarations and binary operators.
 * When the walk leaves the function definition, each rule calls
 * sf_leave() from on_leave and gets the analysis, resolved then, once for
 * all rules.  A function that calls no accessor, scalar read or copy-out
 * costs nothing more; only functions that touch tensor data have their
 * assignments read (operators from tokens) and iterated to a fixed point.
 * Rules therefore collect their candidates during the function's walk
 * (with whatever needs the ancestors, el_ancestor, decided then) and judge
 * them in on_leave.
 *
 * Lifetime.  The module's state is per thread and per translation unit:
 * every rule that uses it (or sf_call_function) calls sf_tu_reset() from
 * its begin and end hooks.  The analysis sf_leave returns is valid until
 * the walk enters the next function definition.
 */
#ifndef EL_STORAGE_FLOW_H
#define EL_STORAGE_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <clang-c/Index.h>

#include "rule.h"

/* ---- the function lists of rules/host_access.json ------------------- */

typedef enum sf_fn_kind {
    SF_FN_ACCESSOR = 1,    /* storage_accessors: eh_data_f32, ... */
    SF_FN_SCALAR_READ,     /* scalar_reads: eh_item */
    SF_FN_COPY_OUT,        /* copy_out: eh_to_buffer (arg_a: buffer) */
    SF_FN_TO_TENSOR,       /* to_tensor: eh_convert_to_tensor (arg_a: data) */
    SF_FN_HOST_COPY,       /* host_copies: memcpy (arg_a: dest, arg_b: src) */
} sf_fn_kind;

typedef struct sf_fn {
    const char *name;
    sf_fn_kind kind;
    int arg_a, arg_b;
} sf_fn;

/* The entry for a function name, or NULL. */
const sf_fn *sf_function(const char *name);
/* The entry for the function a CallExpr calls (elc_callee: through
 * macros and function-pointer aliases), or NULL. */
const sf_fn *sf_call_function(CXCursor call);

/* ---- the op equivalents of rules/op_equivalents.json ---------------- */

/* A libm (or stdlib abs) function: true for a known name ("sqrtf",
 * "__builtin_sqrt"); *suggest receives the ops call to use, or NULL when
 * there is none.  *base (may be NULL) receives the double name. */
bool sf_libm(const char *name, const char **suggest, const char **base);
/* The op replacing a C operator ("+", "neg", "++"); integer: the
 * operation is on integers. NULL when there is none. */
const char *sf_operator_op(const char *op, bool integer);

/* ---- the per-function analysis --------------------------------------- */

typedef struct sf_func sf_func;

/* Where tensor data left the tensor: the call's function and position. */
typedef struct sf_origin {
    const char *fn;        /* "eh_to_buffer", "eh_data_f32" */
    CXFile file;
    unsigned line, offset;
} sf_origin;

/* The cursor kinds sf_observe needs to see (list them in a rule's kinds). */
#define SF_OBSERVED_KINDS                                                          \
    CXCursor_FunctionDecl, CXCursor_CallExpr, CXCursor_VarDecl, CXCursor_BinaryOperator, \
        CXCursor_CompoundAssignOperator

/* Forget everything: call from begin() and end() of every rule that uses
 * the module. */
void sf_tu_reset(void);
/* Feed the walk's cursor c (from on_cursor, for the SF_OBSERVED_KINDS;
 * other kinds are ignored).  Cheap: the same cursor handed by several
 * rules is taken once. */
void sf_observe(el_ctx *ctx, CXCursor c);
/* The walk is inside a function definition (after sf_observe of the
 * current cursor): candidates collected now will be judged at its end. */
bool sf_in_function(void);
/* From on_leave: when c is the function definition the walk is leaving,
 * its analysis (computed on the first call); otherwise NULL. */
const sf_func *sf_leave(el_ctx *ctx, CXCursor c);
/* The function calls an accessor, a scalar read or a copy-out (else no
 * query below can answer true). */
bool sf_touches_tensor_data(const sf_func *f);

/* The lifecycle every rule built on this analysis shares: collect
 * candidate cursors while the walk is inside a function, judge them when
 * it leaves (the analysis is complete only then).  A rule's per-TU state
 * is an sf_candidates. */
typedef struct sf_candidates {
    CXCursor *items;
    size_t n, cap;
    bool applies; /* the rule reports in the current function's file */
} sf_candidates;

typedef void (*sf_judge_fn)(el_ctx *ctx, const sf_func *f, CXCursor candidate);

/* From begin() / end(): reset the analysis (end also frees the list). */
void sf_candidates_begin(sf_candidates *cs);
void sf_candidates_end(sf_candidates *cs);
/* First thing in on_cursor: feeds the analysis and, on a top-level
 * function definition, starts a new list.  True when c may become a
 * candidate: inside a function whose file the rule reports in. */
bool sf_candidates_enter(el_ctx *ctx, sf_candidates *cs, CXCursor c);
void sf_candidates_add(sf_candidates *cs, CXCursor c);
/* From on_leave: when c ends the function, judge every candidate (only if
 * the function touches tensor data at all) and empty the list. */
void sf_candidates_leave(el_ctx *ctx, sf_candidates *cs, CXCursor c, sf_judge_fn judge);

/* e (through parentheses, conversions and pointer casts) is a pointer
 * into tensor storage; returns the accessor it came from, else NULL. */
const char *sf_storage_pointer(const sf_func *f, CXCursor e);
/* e (through parentheses and casts) is an element of tensor storage: a
 * read through a storage pointer (p[i], *p, eh_data_f32(t)[i]), or a
 * variable holding an element value; also as an lvalue (the target of
 * `p[i] += 1`).  Returns the accessor, else NULL. */
const char *sf_element(const sf_func *f, CXCursor e);
/* e is a scalar read (eh_item(t)) or a variable holding one; returns the
 * function's name, else NULL. */
const char *sf_scalar_read(const sf_func *f, CXCursor e);

/* What sf_derived looks for. */
#define SF_ELEMENTS 1u
#define SF_SCALAR_READS 2u
/* e computes its value from tensor data: an element (SF_ELEMENTS) or a
 * scalar read (SF_SCALAR_READS), or arithmetic, bitwise, conditional or
 * libm expressions with such an operand.  Returns the accessor or scalar
 * read function, else NULL. */
const char *sf_derived(const sf_func *f, CXCursor e, unsigned what);

/* e (a pointer or array expression) points at host data that came out of
 * a tensor: a storage pointer, a copy-out buffer, or data derived from
 * them (see above).  Fills *origin. */
bool sf_host_data(const sf_func *f, CXCursor e, sf_origin *origin);

/* ---- small libclang helpers the rules share ------------------------ */

/* Up to max children of c into out; returns how many c has. */
unsigned sf_children(CXCursor c, CXCursor *out, unsigned max);
/* The operator of a BinaryOperator or CompoundAssignOperator: the one
 * token between its operands where they are spelled (in the file, or a
 * macro's argument or body), else elc_binary_operator's answer.  The
 * fast path matters: elc_binary_operator goes through
 * clang_getLocationForOffset, whose first call in a TU makes libclang map
 * every macro argument expansion of the file (millions of instructions
 * in a macro-heavy file). */
bool sf_binary_operator(CXCursor c, char *op, size_t n);
/* The operator of a UnaryOperator the same way (else
 * elc_unary_operator's answer); *postfix (may be NULL) for x++ and x--. */
bool sf_unary_operator(CXCursor u, char *op, size_t n, bool *postfix);
/* Through parentheses and implicit conversions (UnexposedExpr with one
 * child); with casts, also through explicit casts. */
CXCursor sf_strip(CXCursor e, bool casts);

#endif
