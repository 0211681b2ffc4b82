/* bench/bench.h -- the benchmark harness's API for sections.
 *
 * `make bench` runs build/bench/eh-bench.  The harness (bench/main.c) owns
 * options, timing, the printed table, build/bench/results.json and
 * docs/performance.md.  Everything else is a *section*: one file
 * bench/<name>_cases.c that registers itself with BENCH_SECTION and, when
 * run, reports cases, rows (measurements) and goals through the calls
 * below.  Adding a section is adding that one file: the Makefile compiles
 * every bench/<file>.c into the harness.
 *
 * The shape of a result:
 *
 *   section "libeh"
 *     case "matmul"   "matmul 1024x1024 f32"
 *       row  "blas"    "eh_matmul on blas"        median 24.1 ms   <- subject (first row)
 *       row  "direct"  "cblas_sgemm directly"     median 23.9 ms   speedup 0.99x
 *       goal "blas >= 0.95x direct": speedup of row "blas" over row "direct" >= 0.95
 *
 * Speedup of row S over row R is time(R) / time(S): above 1 means S is faster.
 * The table shows, next to each row, the case subject's speedup over it. */
#ifndef EH_BENCH_H
#define EH_BENCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define BENCH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BENCH_PRINTF(f, a)
#endif

typedef struct bench_ctx bench_ctx;

/* Options every section reads (set by the command line). */
typedef struct bench_options {
    int quick;             /* --quick: tiny sizes, 1 repetition, no Python       */
    int reps;              /* timed repetitions after one warm-up run (--reps)   */
    double budget_s;       /* per measurement: fewer reps (not below 3) when one
                              run is slow, so a run stays within budget (--budget) */
    int python;            /* 0 with --no-python or --quick                       */
    int threads;           /* EH_NUM_THREADS if set (>= 1), else online cores     */
    int nproc;             /* online cores                                        */
    const char *build_dir; /* --build-dir: where the tools are (build/bin/...)    */
    const char *ref_dir;   /* --ref-dir: bench/reference                          */
} bench_options;

const bench_options *bench_opts(const bench_ctx *ctx);

/* ---- sections --------------------------------------------------------- */

typedef struct bench_section {
    const char *name;  /* short id, selected with --section NAME        */
    const char *title; /* heading in the table and docs/performance.md */
    int order;         /* sections run and print in increasing order   */
    /* Run every case.  Return 0, or nonzero when something went wrong that
     * makes the run invalid (a wrong result, a library error); a missing
     * optional reference is not an error: skip its row with a note. */
    int (*run)(bench_ctx *ctx);
} bench_section;

void bench_register(const bench_section *s);

/* In a section file, at file scope:
 *   BENCH_SECTION(libeh_section, "libeh", "libeh backends", 10, run_libeh); */
#define BENCH_SECTION(var, name_, title_, order_, run_)                                \
    static const bench_section var = {name_, title_, order_, run_};                    \
    __attribute__((constructor)) static void var##_register(void) { bench_register(&var); }

/* ---- timing -------------------------------------------------------------- */

typedef struct bench_stats {
    double median_s; /* median of the timed repetitions */
    double min_s;
    double max_s;
    int reps;        /* timed repetitions (the warm-up run is not counted) */
    double cpu_median_s; /* median CPU time of the process per run (every thread's
                          * together), 0 if not measured: other processes'
                          * load moves it far less than the wall time */
} bench_stats;

/* One run of the thing measured; 0 on success.  On failure, report why
 * with bench_error() first. */
typedef int (*bench_fn)(void *arg);

/* Warm-up run, then opts->reps timed runs (fewer if one run is slow, see
 * budget_s), each timed with clock_gettime(CLOCK_MONOTONIC).  0 on success;
 * -1 if any run failed. */
int bench_time(bench_ctx *ctx, bench_fn fn, void *arg, bench_stats *out);

/* Several things timed round by round (a, b, c, a, b, c, ...; each round
 * starts one later), after one warm-up run of each: a load that changes
 * during the measurement (other work on a shared machine) then weighs on
 * all alike, and their ratios compare like with like.  The run count is
 * planned from the slowest warm-up, and at least min_reps (but never
 * more than --reps): a few rows of a second or two each get enough runs
 * for a steady median within the budget.  An item whose run fails is marked
 * `failed` and left out of the later rounds.  Returns how many items were
 * measured; -1 for more than BENCH_SET_MAX items. */
#define BENCH_SET_MAX 8
typedef struct bench_timed {
    bench_fn fn;
    void *arg;
    bench_stats st; /* out */
    int failed;     /* out */
} bench_timed;
int bench_time_set(bench_ctx *ctx, bench_timed *items, size_t n, int min_reps);

/* bench_time_set of two: 0 when both were measured, else -1. */
int bench_time_pair(bench_ctx *ctx, bench_fn fa, void *arg_a, bench_stats *out_a, bench_fn fb,
                    void *arg_b, bench_stats *out_b);

/* Same for an external command (wall time of fork+exec+wait; stdout and
 * stderr go to /dev/null).  -1 if it cannot run or exits nonzero. */
int bench_time_command(bench_ctx *ctx, char *const argv[], bench_stats *out);

/* Seconds on CLOCK_MONOTONIC. */
double bench_now(void);

/* ---- results ---------------------------------------------------------------- */

/* Start a case; rows and goals that follow belong to it. */
void bench_case(bench_ctx *ctx, const char *id, const char *title);

/* A measured row.  `per` > 1 reports time per item (per-op overhead: time
 * of `per` ops), and `per_unit` names the item ("op"); use 1 and NULL
 * otherwise.  The first row of a case is its subject. */
void bench_row(bench_ctx *ctx, const char *id, const char *label, const bench_stats *st,
               double per, const char *per_unit);
/* A row that could not be measured, and why ("NumPy not installed"). */
void bench_row_skipped(bench_ctx *ctx, const char *id, const char *label, const char *fmt, ...)
    BENCH_PRINTF(4, 5);
/* A note on the current case (printed under it, kept in the JSON). */
void bench_note(bench_ctx *ctx, const char *fmt, ...) BENCH_PRINTF(2, 3);

/* Goal: speedup of row `subject` over row `reference` >= min_speedup.
 * `text` states the goal ("lazy >= 4x NumPy"). */
void bench_goal_speedup(bench_ctx *ctx, const char *text, const char *subject,
                        const char *reference, double min_speedup);
/* Goal: row `row`'s time per item (per bench_row's `per`) <= max_s. */
void bench_goal_max_time(bench_ctx *ctx, const char *text, const char *row, double max_s);
/* Why the last goal of the case is not met, if known; ignored when it is met. */
void bench_goal_reason(bench_ctx *ctx, const char *fmt, ...) BENCH_PRINTF(2, 3);
/* Time per item (median / per) of row `id` of the current case, for
 * reasons that quote measurements; 0 if there is no such measured row. */
int bench_row_time(const bench_ctx *ctx, const char *id, double *seconds);
/* The CPU time per item of a row of the current case; 0 if not measured. */
int bench_row_cpu(const bench_ctx *ctx, const char *id, double *seconds);
/* A reason for the last goal (subject's time <= goal x the reference's,
 * not met) from the CPU times of the two rows (other processes' load
 * moves them far less than the wall times): the subject's `threads`
 * together against the reference's one.  Says whether idle cores would have met it.  Nothing
 * when either CPU time is missing. */
void bench_goal_cpu_reason(bench_ctx *ctx, const char *subject, const char *ref,
                           const char *ref_name, int threads, double goal);
/* The last goal's status: 1 met, 0 not met, -1 not measured. */
int bench_goal_status(const bench_ctx *ctx);

/* Something went wrong (printed and recorded; makes the run fail). */
void bench_error(bench_ctx *ctx, const char *fmt, ...) BENCH_PRINTF(2, 3);

/* ---- Python references ----------------------------------------------------------- */

/* Run `python3 <ref_dir>/<script> <args...>` (args NULL-terminated) and
 * parse its stdout as JSON.  Returns a json-c object (<json-c/json.h>;
 * owned by the harness, freed at exit) or NULL with *why set to a short
 * reason ("no python3 found", "the script failed: ...").  The interpreter is $EH_BENCH_PYTHON,
 * else the first of /usr/bin/python3 and python3 that imports numpy, else
 * the first that runs.  NULL when Python is off (--quick, --no-python). */
struct json_object;
struct json_object *bench_python(bench_ctx *ctx, const char *script, char *const args[],
                                 const char **why);
/* The interpreter bench_python uses (NULL if none). */
const char *bench_python_path(bench_ctx *ctx);

/* Path of a tool in the build directory ("bin/ehinfo" -> "build/bin/ehinfo"),
 * in a buffer valid until the next call. */
const char *bench_build_path(const bench_ctx *ctx, const char *rel);

#endif
