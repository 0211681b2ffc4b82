/* migrate/custom_ops.h -- legacy backend functions that have no libeh op
 * (eh_blas_pairwise_sqdist, eh_ref_pairwise_sqdist) become one custom op
 * of libeh each (docs/ember-migrate.md, "Custom ops"; docs/extending.md).
 *
 * The scan reads every declaration of eh_<backend>_<name> whose <name> is
 * no op of libeh/ops.def (custom_rule.h), and the linter's rewriter,
 * told the namespace (el_configs_set_custom_ns), proposes renaming each
 * use to the wrapper <ns>_<name> -- calls, table entries, &f, and so the
 * branches whose arms become equal.  This file decides, for the whole
 * tree, which names really become custom ops:
 *
 *   - a name is considered when one of its definitions must move (it is
 *     outside backends/) or frontend code uses one of its functions;
 *   - it becomes op "<ns>.<name>" when every backend's definition (static
 *     ones aside) returns eh_tensor *, takes tensors (const or not) and
 *     scalars only (arithmetic types, libeh's enums: they travel in the
 *     op's params blob), has no variable argument list, comes from no
 *     macro, has one type on every backend, sits in a file that parses
 *     and in one application (the same root), and the selection
 *     (--backend, --op) takes every backend it has; and its wrapper's name
 *     is not taken;
 *   - otherwise each definition is listed for a person with the reason
 *     (why_not), and the rewrites proposed for its uses are dropped (they
 *     stay manual, with the same reason).
 *
 * An op's kernels are its definitions (one per backend; the moves take
 * those outside backends/ into backends/<b>/ like any backend code, and
 * register nothing in kernels.def); its fallback backend is `ref` when it
 * has a ref kernel, else the first of its backends by name -- legacy code
 * always ran some version, so the op runs on every backend.  custom_gen.h
 * writes the files that define, register and wrap the ops. */
#ifndef EM_CUSTOM_OPS_H
#define EM_CUSTOM_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "custom_scan.h"
#include "finding.h"
#include "manual.h"
#include "scan.h"

/* ---- the decision ------------------------------------------------------- */

typedef struct em_custom_kernel {
    const em_cfn *fn;       /* its definition */
    const em_def *def;      /* the same, in t->defs (NULL if the scan has none) */
} em_custom_kernel;

typedef struct em_custom_op {
    char name[128];         /* "pairwise_sqdist" */
    char full[200];         /* "app.pairwise_sqdist" */
    char wrapper[200];      /* "app_pairwise_sqdist" */
    char *root;             /* the application's directory: the generated files go there */
    em_custom_kernel *kernels; /* by backend name */
    size_t n_kernels;
    const em_cfn *sig;      /* the signature (every kernel's) */
    char fallback[64];      /* backend whose kernel runs where a backend has none */
} em_custom_op;

/* A name that does not become a custom op. */
typedef struct em_custom_reject {
    char name[128];         /* "fused_gelu" */
    char *why;              /* "its signature differs between backends: ..." */
    bool deferred;          /* only because --backend leaves one of its backends
                               out: a later run that takes them all makes it */
    bool unsafe;            /* deferred because making it is an unsafe change
                               and --unsafe-fixes was not given (plan, apply):
                               its uses are listed as unsafe changes left out */
    bool kept;              /* (unsafe) and nothing in the frontend uses it: its
                               kernels stay where they are until the run that
                               makes it (in backends/ and called by nothing,
                               they would look like a migrated op's, and no
                               later run would take them up) */
} em_custom_reject;

typedef struct em_customs {
    char ns[64];            /* "app" ("" when custom ops are off) */
    em_custom_op *ops;      /* by name */
    size_t n_ops;
    em_custom_reject *rejects;
    size_t n_rejects;
} em_customs;

/* The files custom_gen.h writes into an application's directory root:
 * <ns>_ops.h, <ns>_ops.c, <ns>_ops_register.c (malloc'd paths).  None may
 * exist: an application with one of them gets no custom ops (each is
 * listed, with the file). */
enum { EM_CUSTOM_HEADER, EM_CUSTOM_WRAPPERS, EM_CUSTOM_REGISTRATION, EM_CUSTOM_FILES };
char *em_customs_file(const char *root, const char *ns, int which);

struct em_opts;
/* Decide from the scan (t->custom) and the options (--namespace,
 * --backend, --op). */
void em_customs_compute(const struct em_opts *o, const em_tree *t, em_customs *out);
void em_customs_free(em_customs *c);

/* The op whose kernel definition d is, or NULL. */
const em_custom_op *em_customs_kernel_op(const em_customs *c, const em_def *d);
/* Why definition d (an eh_<b>_<name> without an op) is not a kernel of a
 * custom op, or NULL when it is one or is no candidate. */
const em_custom_reject *em_customs_reject_of(const em_customs *c, const em_def *d);

/* Does d move as a custom op's kernel: a kernel of an op made now, or,
 * when --backend defers the op, of a selected backend (it moves as
 * backend code does; the run that takes every backend makes the op)?  Its
 * move registers nothing in kernels.def. */
bool em_customs_moves(const em_customs *c, const em_def *d);

/* Is the definition at path:line one whose custom op a later run makes
 * (--backend, --op)?  Its EH104 finding waits for that run. */
bool em_customs_deferred_at(const em_customs *c, const em_tree *t, const char *path,
                            unsigned line);

/* A fix of finding f as ember-migrate takes it: NULL when it renames a use
 * to the wrapper of a name that does not become a custom op (a rewrite the
 * linter proposed on the assumption that it would), with why[] saying
 * why, and *deferred (may be NULL) set when that is only the selection's
 * doing (left for a later run, like any site --backend leaves out), and
 * *unsafe (may be NULL) when the op waits for --unsafe-fixes; f->fix
 * otherwise (why[] ""). */
struct em_texts;
const el_fix *em_customs_fix(const em_customs *c, const em_tree *t, struct em_texts *texts,
                             const el_finding *f, char *why, size_t wn, bool *deferred,
                             bool *unsafe);
/* The op whose wrapper is the identifier at s[0..n), or NULL. */
const em_custom_op *em_customs_by_wrapper(const em_customs *c, const char *s, size_t n);

/* What a caller can tell of a custom op (malloc'd): why making one is an
 * unsafe change (docs/ember-migrate.md, "Differences a caller can see"). */
char *em_customs_unsafe_why(const char *full);

/* Is definition k (of t->custom) a kernel of an op made, or of one that
 * waits for --unsafe-fixes (an unsafe reject)?  Then the op's full name
 * ("app.fused_gelu") into full[], and *kept when its kernels stay where
 * they are until then. */
bool em_customs_unsafe_op_of(const em_customs *c, const em_cfn *k, char *full, size_t fn,
                             bool *kept);

#endif
