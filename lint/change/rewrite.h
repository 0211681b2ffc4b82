/* lint/change/rewrite.h -- what a call of a backend function becomes: the
 * rewrite EH102 attaches as its fix, and that EH101 (an include that is no
 * longer needed) and EH103 (two arms equal once rewritten) rely on.
 *
 * Two sources, in this order:
 *   1. a call template from the configuration's "rewrites"
 *      (rules/rewrites.json, a project's .emberlint.json): the whole call
 *      is replaced by the template, $1, $2, ... / $* standing for the source
 *      text of the original arguments with the calls inside them
 *      rewritten too (recursively), so one fix does all a run can do;
 *      safety the worse of the entry's and those inner rewrites' (an
 *      inner call with no rewrite goes in as written);
 *   2. libeh's naming contract, derived from the backend tables:
 *      eh_<backend>_<op> (a known backend, an op of libeh/ops.def) becomes
 *      eh_<op> with the same arguments -- only the callee's name is
 *      replaced, so comments and layout inside the arguments stay.  Safe
 *      when the callee's declared type is the type of the eh_<op> the TU
 *      declares (canonical types); unsafe when the TU declares no eh_<op>
 *      (the file must include <eh/eh.h>: EH101's fix); none when both are
 *      declared and differ (a kernel, eh_status (const eh_op_call *)).
 *
 * No rewrite for a call whose name, parentheses or argument list is not
 * written plainly in the file (in or from a macro expansion; an argument
 * that is a whole macro use such as NULL is copied as written), for a
 * call through a pointer, or for a call in backend code that has not
 * moved yet: a file under a legacy backend directory (ops/<b>/) or a
 * function named eh_<backend>_... (turning its calls into dispatched
 * ops could make it call itself), and no template rewrite inside a
 * function the template's own text names (a wrapper of the routine the
 * template maps onto: the rewrite would make it call itself). */
#ifndef EL_REWRITE_H
#define EL_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "finding.h"
#include "rule.h"

typedef struct el_rewriter el_rewriter;

/* The most arguments a call rewritten by a template may have. */
#define EL_REWRITE_MAX_ARGS 64

typedef struct el_call_rewrite {
    el_fix_safety safety;     /* SAFE or UNSAFE */
    bool rename;              /* only the callee's name is replaced */
    bool in_argument;         /* the call is written in a macro argument
                               * (macro_argument.h) */
    CXFile file;
    unsigned begin, end;      /* byte range replaced: the name, or the whole call */
    char *text;               /* its replacement (malloc'd) */
    /* a template's: the ranges [kept[k][0], kept[k][1]) of the call's
     * text that it puts into its replacement as code (the arguments its
     * $N and $* name outside the template's string literals); the rest of
     * [begin, end) is dropped (el_rewrite_drops) */
    unsigned n_kept;
    unsigned kept[EL_REWRITE_MAX_ARGS + 1][2];
    /* a template's own text (the configuration's replacement: it lives as
     * long as the configuration), else NULL (el_rewrite_names) */
    const char *tpl_text;
    char callee[128];         /* "eh_blas_matmul" */
    char description[320];    /* "replace eh_blas_matmul with eh_matmul" */
    char why[512];            /* when there is no rewrite, the reason if the
                               * rewriter knows it ("" otherwise) */
} el_call_rewrite;

/* One per TU (rules keep it in their state); NULL only when out of memory. */
el_rewriter *el_rewriter_new(CXTranslationUnit tu, const el_config *cfg);
void el_rewriter_free(el_rewriter *rw);

/* The rewrite of a CallExpr into *out (free with el_call_rewrite_clear);
 * false when there is none, with out->why saying why when the call's
 * place or text is the reason (backend code, a macro supplying its
 * parentheses or arguments). */
bool el_rewrite_call(el_rewriter *rw, CXCursor call, el_call_rewrite *out);
void el_call_rewrite_clear(el_call_rewrite *r);

/* Does r replace the text at offset off of file f with a replacement
 * that leaves it out: off is in [begin, end) and, for a template, in no
 * argument the template puts in (CblasRowMajor in cblas_sgemm(CblasRowMajor,
 * ...) with the template "my_gemm($4, ...)"; a rename drops the old name)?
 * What is left out is no longer used once r is applied. */
bool el_rewrite_drops(const el_call_rewrite *r, CXFile f, unsigned off);

/* Does r's template name the identifier name[0..n) in its own text --
 * outside its $N, $* and string literals: "gemm_rows((int)CblasRowMajor +
 * $4, ...)" names CblasRowMajor?  Such a name is a use of its own once r
 * is applied, whatever r drops of the call. */
bool el_rewrite_names(const el_call_rewrite *r, const char *name, size_t n);

/* The call whose callee expression is e, the cursor being visited
 * (through parentheses, casts, `*` and `&`), or a null cursor: whether a
 * name is called or only named. */
CXCursor el_call_of_callee(el_ctx *ctx, CXCursor e);

/* The rewrite of a reference to a backend function that is not a call
 * (an entry of a table of function pointers, &eh_blas_dot): its name
 * replaced by the op's, on the same terms as a call's rename (the
 * contract, written plainly, not in backend code); false when none, with
 * out->why set for a reference in backend code. */
bool el_rewrite_ref(el_rewriter *rw, CXCursor ref, el_call_rewrite *out);

/* ember-migrate's custom ops: the wrapper "<ns>_<name>" a use of the
 * backend function `name` (eh_<backend>_<name>, <name> no op of
 * libeh/ops.def) is renamed to when cfg names a namespace (config.h,
 * custom_ns): true with target[]; false for any other name. */
bool el_rewrite_custom_wrapper(const el_config *cfg, const char *name, char *target, size_t tn);

/* What the function `name` becomes by the naming contract, decided as
 * for a call (its declaration in the TU against eh_<op>'s): true with
 * target ("eh_matmul") and *safety; false with why[] ("eh_blas_eigh's signature
 * 'eh_tensor *(const eh_tensor *)' differs from eh_eigh's '...'", "no
 * frontend op eh_frob in libeh/ops.def", "... is not declared here").
 * Used for names the preprocessor skipped and for references that are
 * not calls (&eh_blas_dot, a table of function pointers). */
bool el_rewrite_name(el_rewriter *rw, const char *name, char *target, size_t tn,
                     el_fix_safety *safety, char *why, size_t wn);
/* The same for the name of call (a null cursor: no call), whose
 * arguments may say more: the plan an executor runs (fftw_execute(p),
 * p made by fftw_plan_dft_1d: no op), not only the file's plans. */
bool el_rewrite_name_at(el_rewriter *rw, const char *name, CXCursor call, char *target,
                        size_t tn, el_fix_safety *safety, char *why, size_t wn);

/* The advice a plain call of the routine `name` gets (el_rewrite_name's:
 * the op to use and how, or that no op does it), for a use no rewrite can
 * reach because a macro makes the name (BLAS(gemv) pasting dgemv): "; a
 * plain call of dgemv_ gets: no call template ... onto eh_matmul ...",
 * the Fortran routine looked up, in lower case, for a name without its
 * underscore (el_routine_alias_target: dgemv, DGEMV as dgemv_) or under
 * hypre's other manglings (el_routine_mangled_stem: dgemv__, _dgemv_),
 * which names the routine in the advice.  Written to advice[] (n bytes, "" when rw is NULL). */
void el_rewrite_routine_advice(el_rewriter *rw, const char *name, char *advice, size_t n);

/* The rewrites of the calls in c (an expression or statement; c itself
 * when it is a call), in the order of the text, none inside another: a
 * template's text already has the calls in its arguments rewritten, so
 * they are not listed apart; a rename edits only the callee's name, so
 * the calls in its arguments are.  Appended to *out; false when one lies
 * in another file than f. */
typedef struct el_rewrite_list {
    el_call_rewrite *v;
    size_t n, cap;
} el_rewrite_list;

bool el_rewrite_calls_in(el_rewriter *rw, CXCursor c, CXFile f, el_rewrite_list *out);
void el_rewrite_list_free(el_rewrite_list *l);

/* t[b..e) (text of that file) with the rewrites of l that lie in it
 * applied (malloc'd), *safety made the worse of itself and theirs; NULL
 * when one crosses b or e. */
char *el_rewrite_apply(const char *t, unsigned b, unsigned e, const el_rewrite_list *l,
                       el_fix_safety *safety);

/* The worse of two safeties (NONE counts as nothing used). */
el_fix_safety el_fix_safety_worst(el_fix_safety a, el_fix_safety b);

/* Attach the rewrite to the finding just reported (el_fix_begin and
 * el_fix_replace); false when the engine refused it. */
bool el_rewrite_attach(el_ctx *ctx, CXTranslationUnit tu, const el_call_rewrite *r);

#endif
