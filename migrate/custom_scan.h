/* migrate/custom_scan.h -- what the scan knows of the backend functions
 * that have no libeh op, the candidates for custom ops (custom_ops.h):
 * the facts of the scanner rule custom_rule.h, read into plain structs.
 * Below scan.c, which keeps them in em_tree.custom. */
#ifndef EM_CUSTOM_SCAN_H
#define EM_CUSTOM_SCAN_H

#include <stdbool.h>
#include <stddef.h>

typedef enum em_param_kind {
    EM_PARAM_TENSOR,        /* eh_tensor *       */
    EM_PARAM_CONST_TENSOR,  /* const eh_tensor * */
    EM_PARAM_SCALAR,        /* in the params blob */
    EM_PARAM_OTHER          /* not allowed: why says what it is */
} em_param_kind;

typedef struct em_cparam {
    char *name;             /* "" when unnamed */
    char *spelling;         /* the type as generated code spells it */
    em_param_kind kind;
    char *why;              /* EM_PARAM_OTHER: what it is */
} em_cparam;

/* One declaration or definition of eh_<backend>_<name> (custom_rule.h). */
typedef struct em_cfn {
    char *path;             /* absolute, real */
    char *name;             /* "eh_blas_pairwise_sqdist" */
    char backend[64];       /* "blas" */
    char rest[128];         /* "pairwise_sqdist" */
    unsigned line, col;
    bool definition, is_static, in_macro, variadic;
    char *type;             /* canonical function type */
    char *shown;            /* the function type as written */
    em_param_kind result_kind;
    char *result;           /* its spelling */
    char *result_why;
    em_cparam *params;
    size_t n_params;
} em_cfn;

/* What the scan found (em_tree.custom). */
typedef struct em_custom_scan {
    em_cfn *v;
    size_t n, cap;
} em_custom_scan;

/* The facts of custom_rule.h into s (duplicates from headers read by
 * several TUs dropped); ignores other facts. */
struct el_fact_list;
void em_custom_scan_collect(em_custom_scan *s, const struct el_fact_list *facts);
void em_custom_scan_free(em_custom_scan *s);

#endif
