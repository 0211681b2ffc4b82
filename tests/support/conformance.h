/* tests/support/conformance.h -- the cross-backend conformance harness
 * (docs/conformance.md).
 *
 * A conformance *case* is one call of one op on fixed inputs.  cf_check()
 * runs it on `ref` and then on every other backend built into libeh (from
 * eh_list_backends(), never a fixed list), forces evaluation of every
 * output, and compares each backend's outcome with ref's: the same status
 * code, and on success the same number of outputs with the same dtype,
 * shape and values within the op's tolerance (tests/conformance/
 * tolerances.def; NaN positions must match; integer and bool results are
 * always compared exactly).  Every disagreement is printed as a
 * "CONFORMANCE:" line naming the op, the backend, the case and the inputs,
 * and counted; a test fails at its end if it found any (cf_end_test).
 *
 * Inputs are made on the host (eh_convert_to_tensor) from a deterministic
 * generator seeded from the case label, so every backend sees the same
 * materialized inputs and a reported case can be rebuilt from its label.
 *
 * Include after eh_test.h's prerequisites (this header includes it). */
#ifndef EH_CONFORMANCE_H
#define EH_CONFORMANCE_H

#include <stdio.h>
#include "eh_test.h"

/* ---- backends ------------------------------------------------------------ */

#define CF_MAX_BACKENDS 16

/* The backends built into libeh, "ref" first, then the others in
 * eh_list_backends() order.  Fails the test if ref is missing.  Returns the
 * count. */
int cf_backends(const char **names);

/* ---- deterministic host inputs ------------------------------------------ */

typedef struct cf_rng {
    uint64_t s;
} cf_rng;

void cf_rng_seed(cf_rng *r, uint64_t seed);
/* Seed from a string (FNV-1a of it): cases seed from their label. */
void cf_rng_seed_str(cf_rng *r, const char *s);
uint64_t cf_rng_u64(cf_rng *r);
/* Uniform on [lo, hi). */
double cf_rng_uniform(cf_rng *r, double lo, double hi);
/* Uniform integer on [lo, hi]. */
int64_t cf_rng_int(cf_rng *r, int64_t lo, int64_t hi);

/* Value profiles of random inputs.  Float values are drawn in double and
 * rounded once to the dtype. */
typedef enum cf_values {
    CF_V_DEFAULT,  /* floats uniform in [-4, 4); integers in [-20, 20]; bool 0/1      */
    CF_V_SPECIAL,  /* DEFAULT with about 1 in 4 elements replaced by a special value:
                      floats NaN, +-inf, +-0, +-1, 0.5, -2.5, 65504, 1e-5;
                      integers 0, +-1, the type's min and max                        */
    CF_V_POSITIVE, /* floats in [0.25, 4); integers in [1, 20]; bool 1               */
    CF_V_UNIT,     /* floats in [-1, 1); integers in [-2, 2]                         */
    CF_V_SMALLINT  /* every dtype holds integers in [-4, 4] (bool 0/1): sums of up to
                      2^20 of them are exact in f32 and any summation order          */
} cf_values;

/* A new materialized tensor of random values. */
eh_tensor *cf_random(cf_rng *r, eh_dtype dtype, int ndim, const int64_t *shape, cf_values v);
/* A new materialized tensor holding `values` (n = its size) converted to
 * dtype as eh_cast does. */
eh_tensor *cf_tensor(eh_dtype dtype, int ndim, const int64_t *shape, const double *values);

/* "f32 (2, 3)" for a tensor; a rotating buffer, fine for 4 uses at once. */
const char *cf_desc(const eh_tensor *t);
/* Up to `max` values of t, "[1, 2.5, nan, ...]". */
void cf_dump(const eh_tensor *t, int64_t max, char *buf, size_t cap);

/* ---- tolerances (tests/conformance/tolerances.def) ----------------------- */

typedef struct cf_tol {
    const char *op;
    int exact;      /* compare exactly (values and the sign of zero)      */
    double rtol[3]; /* for f16, f32, f64 results                          */
    double atol[3]; /* multiplied by the case's scale (cf_case.scale)     */
    int by_ulp;     /* CF_ULP row: compare in ulps (ulps[] below)         */
    int ulps[3];    /* for f16, f32, f64 results                          */
} cf_tol;

/* Distance in ulps between two finite values of dtype dt (f16, f32 or
 * f64, each exactly representable in it): the number of representable
 * values between them, +0 and -0 counting as one. */
int64_t cf_ulp_distance(eh_dtype dt, double a, double b);

/* The row for `op`, NULL if the table has none. */
const cf_tol *cf_tolerance(const char *op);
/* Every row, and how many there are. */
const cf_tol *cf_tolerance_rows(int *n);

/* Compare got with want (the ref result): dtype, shape, then values.
 * Integer and bool dtypes compare exactly.  Floats: NaN matches NaN only,
 * an infinity only the same infinity; otherwise exact mode needs equal
 * values with the same sign of zero, ulp mode at most ulps[d]
 * representable values between them (two zeros: the same sign),
 * tolerance mode
 *   |got - want| <= atol * scale + rtol * |want|.
 * Returns 1 when they agree, else 0 with a description in msg. */
int cf_compare(const eh_tensor *want, const eh_tensor *got, const cf_tol *tol, double scale,
               char *msg, size_t cap);

/* ---- cases ------------------------------------------------------------------ */

#define CF_MAX_IN 6
#define CF_MAX_OUT 8

typedef struct cf_case cf_case;

/* Run the case on the current backend: fill out[0 .. *n_out) and return
 * EH_OK, or return the error (outputs NULL).  Outputs need not be
 * evaluated; the harness does that. */
typedef eh_status (*cf_run_fn)(const cf_case *c, eh_tensor **out, int *n_out);

/* Extra checks after the value comparison (decompositions: properties of
 * the non-unique parts), run on ref's outputs and each backend's. Report
 * problems with cf_finding. The current backend is ref during the call. */
typedef void (*cf_post_fn)(const cf_case *c, const char *backend, eh_tensor *const *ref_out,
                           eh_tensor *const *out, int n_out);

struct cf_case {
    const char *op;  /* op name: the tolerance row and reports      */
    char label[200]; /* what the case is, for reports               */
    cf_run_fn run;
    int n_in;
    eh_tensor *in[CF_MAX_IN]; /* owned by the case (cf_case_free)            */
    void *fn;                 /* the op's function, for generic runners      */
    double f[4];              /* parameters, as the runner reads them        */
    int64_t i[8];
    int n_axes;
    int axes[EH_MAX_DIMS];
    eh_dtype dtype;
    int ndim;
    int64_t shape[EH_MAX_DIMS];
    int64_t v[3][EH_MAX_DIMS]; /* per-axis vectors (slice bounds, pad widths) */
    uint64_t seed;             /* eh_seed(seed) before each backend's run     */
    double scale;              /* multiplies the tolerance's atol (0 means 1) */
    const cf_tol *tol;         /* when set, used instead of the op's row      */
    unsigned skip_values;      /* bit k: output k is not compared by value    */
    int allow_error;           /* ref may fail: then only codes are compared  */
    cf_post_fn post;
};

/* Start a case: zeroed, op and printf-style label set. */
void cf_case_init(cf_case *c, const char *op, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Add an input (the case takes the reference).  Fails the test on NULL. */
void cf_case_add(cf_case *c, eh_tensor *t);
/* Release the inputs. */
void cf_case_free(cf_case *c);

/* Run c on every backend and compare with ref (see the top of this file).
 * Unless c->allow_error, ref itself failing fails the test (a broken case).
 * Returns 1 if ref succeeded.  Frees the case's inputs. */
int cf_check(cf_case *c);

/* Record a disagreement (printed with the case and its inputs). */
void cf_finding(const cf_case *c, const char *backend, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Number of cases run by cf_check and findings recorded, process-wide. */
long cf_case_count(void);
long cf_finding_count(void);

/* cf_begin_test: note the current backend and select ref (inputs made
 * between cases, such as windows, are then ref's).  cf_end_test: restore
 * that backend, and fail the current test if findings were recorded since
 * cf_begin_test(). */
void cf_begin_test(void);
void cf_end_test(void);

/* Evaluate every output; the first error, or EH_OK. */
eh_status cf_eval_all(eh_tensor *const *out, int n);

/* ---- building cases (test_conformance.c, test_conformance_numeric.c) ------- */

/* The six dtypes, f16 first. */
extern const eh_dtype cf_dtypes[6];

/* Shape and axis-list literals: CF_SH(2, 3), CF_SH0 (0-d), CF_AX(0, -1),
 * CF_AX0 (none: "all axes"). */
typedef struct cf_shape {
    int nd;
    int64_t d[EH_MAX_DIMS];
} cf_shape;
#define CF_SH(...) ((cf_shape){NDIM(__VA_ARGS__), {__VA_ARGS__}})
#define CF_SH0 ((cf_shape){0, {0}})
typedef struct cf_axes {
    int n;
    int a[EH_MAX_DIMS];
} cf_axes;
#define CF_AX(...)                                                                                 \
    ((cf_axes){(int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int)), {__VA_ARGS__}})
#define CF_AX0 ((cf_axes){0, {0}})

/* "(2,3)" / "{0,-1}" ("all" for none); rotating buffers, 4 at once. */
const char *cf_shape_str(cf_shape s);
const char *cf_axes_str(cf_axes a);
int64_t cf_shape_size(cf_shape s);

/* The generator inputs are drawn from; CF_CASE reseeds it from the label,
 * so a case's inputs depend on its label only. */
extern cf_rng cf_in_rng;
#define CF_CASE(c, op, ...)                                                                        \
    do {                                                                                           \
        cf_case_init(&(c), op, __VA_ARGS__);                                                       \
        cf_rng_seed_str(&cf_in_rng, (c).label);                                                    \
    } while (0)
/* A random input from cf_in_rng; the second adds it to the case. */
eh_tensor *cf_rnd(eh_dtype dtype, cf_shape s, cf_values v);
void cf_add_rnd(cf_case *c, eh_dtype dtype, cf_shape s, cf_values v);
/* Set the case's (ndim, shape) / axes from a literal. */
void cf_set_shape(cf_case *c, cf_shape s);
void cf_set_axes(cf_case *c, cf_axes a);
/* The case's axes, NULL when it has none. */
const int *cf_axes_of(const cf_case *c);
/* Largest finite |x| of a materialized tensor (at least 1e-300). */
double cf_max_abs(const eh_tensor *t);

/* Runner helpers: a one-output result (its error when NULL), and the
 * status of a multi-output call (outputs released on failure). */
eh_status cf_one(eh_tensor *t, eh_tensor **out, int *n);
eh_status cf_multi(eh_status st, eh_tensor **out, int n_out, int *n);

/* A value-conformance binary's table: the function that builds op X's
 * cases.  cf_check_drivers() fails the test unless every op of ops.def
 * whose kind is one of `kinds` (space-separated) has exactly one entry and
 * every entry names such an op; cf_run_kind() runs the entries of every op
 * of one kind, failing if one runs no case.  The kinds are split between
 * the binaries as CF_KINDS_VALUES and CF_KINDS_NUMERIC say; test_conformance
 * checks that every kind of ops.def is in one of them. */
typedef struct cf_driver {
    const char *op;
    void (*drive)(const char *op);
} cf_driver;
#define CF_KINDS_VALUES "CREATION SHAPE UNARY BINARY TERNARY RANDOM CONVERT META"
#define CF_KINDS_NUMERIC "REDUCTION LINALG SIGNAL"
void cf_check_drivers(const cf_driver *drivers, int n, const char *kinds);
void cf_run_kind(const cf_driver *drivers, int n, const char *kind);
/* The kind of an op of ops.def ("UNARY"), NULL if there is no such op;
 * the number of ops and the name of op k. */
const char *cf_op_kind(const char *op);
int cf_op_total(void);
const char *cf_op_at(int k);

/* ---- statistics (used by test_conformance_random.c) ------------------------ */

/* Sample mean within 6 standard errors of `mean` and sample variance
 * within 6 standard errors of `var` (mu4: the fourth central moment).
 * Returns 1 if both hold, else 0 with a message. */
int cf_check_moments(const double *x, int64_t n, double mean, double var, double mu4, char *msg,
                     size_t cap);
/* One-sample Kolmogorov-Smirnov statistic of x (sorted in place) against
 * cdf, compared with the critical value at alpha = 1e-6.  Returns 1 if it
 * passes, else 0 with a message. */
int cf_check_ks(double *x, int64_t n, double (*cdf)(double x, double par), double par, char *msg,
                size_t cap);

/* ---- child processes -------------------------------------------------------- */

/* Run this test binary again (/proc/self/exe) with argv[1] = `arg` and the
 * environment variable `var` set to `value` (or unset when value is NULL);
 * collect its stdout into out.  Returns its exit status (or -1). */
int cf_run_self(const char *arg, const char *var, const char *value, char *out, size_t cap);

#endif
