/* tests/support/op_cases.h -- one call of every op, for tests that run
 * them all (test_nomem: out of memory at each allocation; test_threads:
 * from several threads at once).
 *
 * op_cases[] has one case per op of libeh/ops.def, in its order: the table
 * is made from the file, so an op without a case does not compile.  Each
 * case calls the op's frontend function on representative valid inputs
 * (op_fx, shared and read-only) and puts its results in out[0 ..
 * OP_CASE_MAX_OUT).  op_more_cases[] are other inputs and frontend forms
 * that take other paths (kernels' workspaces, blas's split reductions,
 * large blocks, scalar operands, custom ops, ...).  Random cases seed the
 * generator first (a process-wide state). */
#ifndef EH_OP_CASES_H
#define EH_OP_CASES_H

#include <eh/eh.h>

#define OP_CASE_MAX_OUT 4

/* The inputs the cases read (shared, read-only, materialized). */
typedef struct op_fixture {
    eh_tensor *u;     /* f32 (2, 3) in (0, 1): unary ops            */
    eh_tensor *a;     /* f64 (2, 3) positive                        */
    eh_tensor *b;     /* f32 (2, 3) positive: binary ops promote it */
    eh_tensor *c;     /* f64 (2, 3), above b                        */
    eh_tensor *s1;    /* f64 (1, 2, 3)                              */
    eh_tensor *v3;    /* f64 (3,)                                   */
    eh_tensor *v4;    /* f64 (4,)                                   */
    eh_tensor *sq;    /* f64 (3, 3) symmetric positive definite     */
    eh_tensor *tall;  /* f64 (3, 2)                                 */
    eh_tensor *rhs;   /* f64 (3, 2)                                 */
    eh_tensor *idx;   /* i32 (2,) = {1, 0}                          */
    eh_tensor *sig;   /* f64 (2, 16)                                */
    eh_tensor *spec;  /* f64 (2, 5, 2): 5 complex bins              */
    eh_tensor *win;   /* f32 (8,)                                   */
    eh_tensor *logits;/* f64 (2, 4)                                 */
    eh_tensor *a16;   /* a as f16                                   */
    eh_tensor *tall16;/* tall as f16                                */
    eh_tensor *lanky; /* f64 (70000, 2): reductions split the rows  */
    eh_tensor *wide;  /* f32 (512, 512): reductions stream rows     */
} op_fixture;

extern op_fixture op_fx;

typedef struct op_case {
    const char *name;
    const char *kind;       /* ops.def's kind column ("UNARY", ...), or CUSTOM */
    /* The call: its status (a tensor-returning op: EH_OK when it gave one,
     * else the recorded error; -1 for NULL with none recorded). */
    eh_status (*run)(eh_tensor **out);
} op_case;

extern const op_case op_cases[];
extern const int op_case_count;
extern const op_case op_more_cases[];
extern const int op_more_case_count;

/* Make op_fx (materialized: lazy evaluates it) and define the custom ops
 * the cases call; and release op_fx.  Fail the test on error. */
void op_cases_setup(void);
/* start, start + step, ... in a new tensor of that shape (<= 64 elements). */
eh_tensor *op_seq(eh_dtype dtype, int ndim, const int64_t *shape, double start, double step);
void op_cases_teardown(void);

/* A case's result kept to compare runs with: dtype, shape and bytes. */
typedef struct op_result {
    int present;
    eh_dtype dtype;
    int ndim;
    int64_t shape[8];
    size_t nbytes;
    unsigned char *bytes;
} op_result;

/* 0, or -1 when t cannot be read (t NULL: an absent result, 0). */
int op_result_take(op_result *r, const eh_tensor *t);
void op_result_drop(op_result *r);
/* The same result, bit for bit. */
int op_result_same(const op_result *a, const op_result *b);
/* Release out[0 .. OP_CASE_MAX_OUT) and set them NULL. */
void op_release_outs(eh_tensor **out);

#endif
