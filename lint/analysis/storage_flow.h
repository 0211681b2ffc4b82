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
 * them in on_leave (candidates.h packages that lifecycle).
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
#include "clang_api.h"

#include "expr_util.h"
#include "function_lists.h"
#include "rule.h"

/* ---- the per-function analysis --------------------------------------- */

/* The function_lists.h entry for the function a CallExpr calls
 * (elc_callee: through macros and function-pointer aliases), or NULL.
 * Cached per TU: every rule asks about the same call in turn. */
const sf_fn *sf_call_function(el_ctx *ctx, CXCursor call);

typedef struct sf_func sf_func;

/* Where tensor data left the tensor: the call's function and position. */
typedef struct sf_origin {
    const char *fn;        /* "eh_to_buffer", "eh_data_f32" */
    CXFile file;
    unsigned line, offset;
} sf_origin;

/* The cursor kinds sf_observe needs to see (list them in a rule's kinds). */
/* The function kinds are those of elc_is_function_kind: C++ member
 * functions, constructors and templates are functions as C's are. */
#define SF_OBSERVED_KINDS                                                                     \
    ELC_FUNCTION_KINDS, CXCursor_CallExpr, CXCursor_VarDecl, CXCursor_BinaryOperator,             \
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

#endif
