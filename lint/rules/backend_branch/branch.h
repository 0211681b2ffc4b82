/* lint/rules/backend_branch/branch.h -- what the parts of EH103
 * backend-branch share.  The rule is lint/rules/backend_branch.c (the
 * backend name inside a function, and the hooks); its fix is collapse.c,
 * its preprocessor shape conditionals.c, predicates and backend variables
 * predicates.c.  Neither part calls the rule. */
#ifndef EL_RULES_BACKEND_BRANCH_H
#define EL_RULES_BACKEND_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "clang_api.h"

#include "clang_util.h"
#include "expr_util.h"
#include "rewrite.h"
#include "rule.h"

/* A list of function names from the rule's options. */
typedef struct bb_names {
    const char **v;
    size_t n;
} bb_names;

/* s matches a name of l, * and ? working (predicates.c). */
bool bb_matches(const bb_names *l, const char *s);

static inline bool bb_in_list(const bb_names *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

/* The callee's name into name[] ("" when unknown); true when it is in l. */
static inline bool bb_callee_in(CXCursor call, const bb_names *l, char *name, size_t n)
{
    if (!elc_callee_name(call, name, n)) {
        /* C++: a member function (name.compare("cuda")) */
        CXCursor m = clang_getCursorReferenced(call);
        name[0] = '\0';
        if (clang_getCursorKind(m) != CXCursor_CXXMethod)
            return false;
        elc_spelling(m, name, n);
    }
    return bb_matches(l, name);
}

/* ---- the fix (collapse.c) ------------------------------------------- */

/* An if statement of the function, with its parent. */
typedef struct bb_if {
    CXCursor stmt, parent;
} bb_if;

typedef struct bb_fixer {
    el_ctx *ctx;
    el_rewriter **rw;            /* the TU's call rewriter, made on first use */
    const bb_names *name_fns;    /* backend_name_functions */
    const bb_names *compare_fns; /* compare_functions */
    const bb_if *ifs;            /* every if statement of the function */
    size_t n_ifs;
} bb_fixer;

/* Attach the fix to the finding just reported at `at`, if the if
 * statement whose condition holds it (or the chain it ends) collapses. */
void bb_branch_fix(const bb_fixer *fx, CXCursor at);

/* ---- predicates and variables (predicates.c) ------------------------ */

/* The DeclRefExpr ref (the walk's current cursor) names a backend
 * predicate (a call of it is a finding) or a backend variable (a test of
 * it is). */
void bb_check_reference(el_ctx *ctx, const bb_names *predicates, const bb_names *variables,
                        CXCursor ref);

/* ---- macros derived from backend macros (derived.c) ----------------- */

/* A macro the TU defines under a conditional on a backend macro. */
typedef struct bb_derived_macro {
    char name[128];
    char via[128];          /* the backend macro the conditional names */
    char file[128];         /* where it is defined: the file's base name, */
    unsigned line;          /* and line */
    bool every_arm;         /* every arm defines it (there is an #else) */
} bb_derived_macro;

typedef struct bb_derived {
    bb_derived_macro *v;
    size_t n, cap;
} bb_derived;

/* The macros the TU's files (system headers aside) define under a
 * conditional naming a backend macro, or one already derived, in
 * inclusion order. */
void bb_derived_collect(el_ctx *ctx, bb_derived *out);
const bb_derived_macro *bb_derived_find(const bb_derived *d, const char *name);
void bb_derived_free(bb_derived *d);
/* name is a backend macro (backend_macros) or one derived from it. */
bool bb_names_backend_macro(const el_config *cfg, const bb_derived *d, const char *name);
/* The end of the logical line holding text[from] (its newline, or size):
 * the first newline at or after `from` not escaped by a backslash
 * (memchr: this runs over every project file of every TU). */
size_t bb_line_end(const char *text, size_t size, size_t from);
/* Quick look at a file's text: a line `# if...` / `# elif...` naming a
 * backend macro or a derived one (a comment may make it a false hit). */
bool bb_text_has_conditional(const el_config *cfg, const bb_derived *d, const char *text,
                             size_t size);

/* ---- a project file's directives (directive_memo.c) ----------------- */

typedef enum { BB_OPEN, BB_ELIF, BB_ELSE, BB_ENDIF, BB_DEFINE, BB_ERROR } bb_directive_kind;

typedef struct bb_directive {
    bb_directive_kind kind;
    unsigned line;
    char *words;              /* a condition's identifiers, space-separated;
                                 a #define's macro name */
    bool zero;                /* #if 0: its first arm is never compiled */
    bool negated;             /* #ifndef X, #if !defined(X): X is words */
    const el_config *asked;   /* the configuration backend_word answers for */
    char *backend_word;       /* the first of words that is its backend macro */
} bb_directive;

typedef struct bb_directives {
    bb_directive *v;
    size_t n;
} bb_directives;

/* The #if/#ifdef/#ifndef/#elif/#else/#endif/#define/#error directives of file f
 * (real path `path`) of the TU, in order: read from its text once a
 * thread (path NULL: now, and released by bb_directives_release). */
bb_directives *bb_directives_of(el_ctx *ctx, CXFile f, const char *path);
void bb_directives_release(bb_directives *d, const char *path);
/* The next of the space-separated words at *p (a directive's words) into
 * id[n], *p past it; false at the end. */
bool bb_next_word(const char **p, char *id, size_t n);
/* The first identifier of x's condition that is a backend macro of cfg
 * (backend_macros), or NULL; remembered for the last cfg asked. */
const char *bb_directive_backend_word(bb_directive *x, const el_config *cfg);

/* ---- preprocessor conditionals (conditionals.c) --------------------- */

/* Report the conditionals of linted file f on backend macros and on the
 * macros derived from them (d). */
void bb_scan_conditionals(el_ctx *ctx, CXFile f, const bb_derived *d);

#endif
