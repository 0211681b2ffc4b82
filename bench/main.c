/* eh-bench -- the benchmark harness behind `make bench` (see bench/README.md).
 *
 * Owns the options, timing, the printed table, the JSON results and the
 * generated docs/performance.md.  The cases live in section files
 * (bench/<name>_cases.c) that register themselves with BENCH_SECTION.
 *
 * Results are kept as one json-c tree (what --json writes); the table is
 * printed while cases run, and the markdown is written from the tree. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include <eh/eh.h>
#include "bench.h"

#define MAX_SECTIONS 32
#define MAX_REPS 1000
#define LABEL_W 44

struct bench_ctx {
    bench_options opts;
    json_object *root;
    json_object *sections; /* array */
    json_object *section;  /* current section */
    json_object *kase;     /* current case    */
    json_object *goal;     /* last goal of the current case */
    json_object *errors;   /* array of strings */
    json_object *python_out; /* array: keeps bench_python results alive */
    int n_errors;
    int python_searched;
    char python[1024];
    char path[4096];
    double case_t0, case_machine0, case_own0; /* at bench_case: see others_cores */
};

/* ---- registry -------------------------------------------------------------- */

static const bench_section *registry[MAX_SECTIONS];
static int n_registered;

void bench_register(const bench_section *s)
{
    if (n_registered < MAX_SECTIONS)
        registry[n_registered++] = s;
}

static int section_cmp(const void *a, const void *b)
{
    const bench_section *x = *(const bench_section *const *)a;
    const bench_section *y = *(const bench_section *const *)b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* ---- small helpers ------------------------------------------------------------ */

const bench_options *bench_opts(const bench_ctx *ctx) { return &ctx->opts; }

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double machine_cpu_s(void);
static double own_cpu_s(void);

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static const char *fmt_time(double s, char *buf, size_t cap)
{
    if (s < 1e-6)
        snprintf(buf, cap, "%.1f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, cap, "%.2f us", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, cap, "%.2f ms", s * 1e3);
    else
        snprintf(buf, cap, "%.3f s", s);
    return buf;
}

static const char *jstr(json_object *o, const char *key)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int jnum(json_object *o, const char *key, double *out)
{
    json_object *v;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return 0;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return 0;
    *out = json_object_get_double(v);
    return 1;
}

static json_object *jget(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *bench_build_path(const bench_ctx *ctx, const char *rel)
{
    bench_ctx *c = (bench_ctx *)ctx;
    snprintf(c->path, sizeof c->path, "%s/%s", ctx->opts.build_dir, rel);
    return c->path;
}

/* ---- timing -------------------------------------------------------------------- */

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, dbl_cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void summarize(double *t, int n, bench_stats *out)
{
    qsort(t, (size_t)n, sizeof *t, dbl_cmp);
    out->reps = n;
    out->min_s = t[0];
    out->max_s = t[n - 1];
    out->median_s = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* How many timed runs, given one run took `warm` seconds. */
static int plan_reps(const bench_ctx *ctx, double warm)
{
    int reps = ctx->opts.reps;
    if (warm > 0 && warm * reps > ctx->opts.budget_s) {
        int fit = (int)(ctx->opts.budget_s / warm);
        reps = fit < 3 ? 3 : fit;
        if (reps > ctx->opts.reps)
            reps = ctx->opts.reps;
    }
    return reps < 1 ? 1 : reps;
}

int bench_time(bench_ctx *ctx, bench_fn fn, void *arg, bench_stats *out)
{
    memset(out, 0, sizeof *out);
    double t0 = bench_now();
    if (fn(arg) != 0)
        return -1;
    int reps = plan_reps(ctx, bench_now() - t0);
    double t[MAX_REPS], c[MAX_REPS];
    for (int i = 0; i < reps; i++) {
        double ca = cpu_now(), a = bench_now();
        if (fn(arg) != 0)
            return -1;
        t[i] = bench_now() - a;
        c[i] = cpu_now() - ca;
    }
    summarize(t, reps, out);
    out->cpu_median_s = median_of(c, reps);
    return 0;
}

int bench_time_set(bench_ctx *ctx, bench_timed *items, size_t n, int min_reps)
{
    if (n > BENCH_SET_MAX)
        return -1;
    double slowest = 0;
    for (size_t i = 0; i < n; i++) {
        memset(&items[i].st, 0, sizeof items[i].st);
        double a = bench_now();
        items[i].failed = items[i].fn(items[i].arg) != 0;
        double w = bench_now() - a;
        if (!items[i].failed && w > slowest)
            slowest = w;
    }
    int reps = plan_reps(ctx, slowest);
    if (min_reps > ctx->opts.reps)
        min_reps = ctx->opts.reps;
    if (reps < min_reps)
        reps = min_reps;
    static double t[BENCH_SET_MAX][MAX_REPS], c[BENCH_SET_MAX][MAX_REPS];
    for (int r = 0; r < reps; r++) {
        /* each round starts one item later: no item is always the first
         * after a pause or always follows the same other */
        for (size_t k = 0; k < n; k++) {
            size_t i = ((size_t)r + k) % n;
            if (items[i].failed)
                continue;
            double c0 = cpu_now(), a = bench_now();
            items[i].failed = items[i].fn(items[i].arg) != 0;
            t[i][r] = bench_now() - a;
            c[i][r] = cpu_now() - c0;
        }
    }
    int measured = 0;
    for (size_t i = 0; i < n; i++) {
        if (items[i].failed)
            continue;
        summarize(t[i], reps, &items[i].st);
        items[i].st.cpu_median_s = median_of(c[i], reps);
        measured++;
    }
    return measured;
}

int bench_time_pair(bench_ctx *ctx, bench_fn fa, void *arg_a, bench_stats *out_a, bench_fn fb,
                    void *arg_b, bench_stats *out_b)
{
    bench_timed items[2] = {{.fn = fa, .arg = arg_a}, {.fn = fb, .arg = arg_b}};
    int measured = bench_time_set(ctx, items, 2, 0);
    *out_a = items[0].st;
    *out_b = items[1].st;
    return measured == 2 ? 0 : -1;
}

/* fork + exec; stdout/stderr captured into malloc'd strings when the
 * pointers are non-NULL (else /dev/null).  Returns the exit status, 127
 * if the program could not be started, -1 on a harness failure. */
static int run_process(char *const argv[], char **out, char **err)
{
    int po[2] = {-1, -1}, pe[2] = {-1, -1};
    if ((out && pipe(po) != 0) || (err && pipe(pe) != 0))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 0);
        dup2(out ? po[1] : devnull, 1);
        dup2(err ? pe[1] : devnull, 2);
        if (out) {
            close(po[0]);
            close(po[1]);
        }
        if (err) {
            close(pe[0]);
            close(pe[1]);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    char *buf[2] = {NULL, NULL};
    size_t len[2] = {0, 0}, cap[2] = {0, 0};
    struct pollfd fds[2];
    int nfds = 0, which[2];
    if (out) {
        close(po[1]);
        fds[nfds].fd = po[0];
        fds[nfds].events = POLLIN;
        which[nfds++] = 0;
    }
    if (err) {
        close(pe[1]);
        fds[nfds].fd = pe[0];
        fds[nfds].events = POLLIN;
        which[nfds++] = 1;
    }
    int open_fds = nfds;
    while (open_fds > 0) {
        if (poll(fds, (nfds_t)nfds, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < nfds; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int w = which[k];
            if (cap[w] - len[w] < 4096) {
                size_t ncap = cap[w] ? cap[w] * 2 : 65536;
                char *nb = realloc(buf[w], ncap + 1);
                if (!nb)
                    goto done_reading;
                buf[w] = nb;
                cap[w] = ncap;
            }
            ssize_t r = read(fds[k].fd, buf[w] + len[w], cap[w] - len[w]);
            if (r > 0) {
                len[w] += (size_t)r;
            } else if (r == 0 || errno != EINTR) {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
            }
        }
    }
done_reading:
    for (int k = 0; k < nfds; k++)
        if (fds[k].fd >= 0)
            close(fds[k].fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    for (int w = 0; w < 2; w++) {
        char **dst = w == 0 ? out : err;
        if (!dst) {
            free(buf[w]);
            continue;
        }
        if (!buf[w])
            buf[w] = calloc(1, 1);
        else
            buf[w][len[w]] = '\0';
        *dst = buf[w];
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int bench_time_command(bench_ctx *ctx, char *const argv[], bench_stats *out)
{
    memset(out, 0, sizeof *out);
    double t0 = bench_now();
    if (run_process(argv, NULL, NULL) != 0)
        return -1;
    int reps = plan_reps(ctx, bench_now() - t0);
    double t[MAX_REPS];
    for (int i = 0; i < reps; i++) {
        double a = bench_now();
        if (run_process(argv, NULL, NULL) != 0)
            return -1;
        t[i] = bench_now() - a;
    }
    summarize(t, reps, out);
    return 0;
}

/* ---- results and the table --------------------------------------------------------- */

static void add_str(json_object *o, const char *key, const char *v)
{
    json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

void bench_error(bench_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    fprintf(stderr, "eh-bench: error: %s\n", msg ? msg : fmt);
    printf("  ERROR: %s\n", msg ? msg : fmt);
    json_object_array_add(ctx->errors, json_object_new_string(msg ? msg : fmt));
    if (ctx->kase) {
        json_object *errs = jget(ctx->kase, "errors");
        if (!errs) {
            errs = json_object_new_array();
            json_object_object_add(ctx->kase, "errors", errs);
        }
        json_object_array_add(errs, json_object_new_string(msg ? msg : fmt));
    }
    ctx->n_errors++;
    free(msg);
}

void bench_case(bench_ctx *ctx, const char *id, const char *title)
{
    json_object *c = json_object_new_object();
    add_str(c, "id", id);
    add_str(c, "title", title);
    json_object_object_add(c, "rows", json_object_new_array());
    json_object_object_add(c, "goals", json_object_new_array());
    json_object_object_add(c, "notes", json_object_new_array());
    json_object_array_add(jget(ctx->section, "cases"), c);
    ctx->kase = c;
    ctx->goal = NULL;
    ctx->case_t0 = bench_now();
    ctx->case_machine0 = machine_cpu_s();
    ctx->case_own0 = own_cpu_s();
    printf("%s\n", title);
    fflush(stdout);
}

static json_object *find_row(const bench_ctx *ctx, const char *id)
{
    json_object *rows = jget(ctx->kase, "rows");
    size_t n = rows ? json_object_array_length(rows) : 0;
    for (size_t i = 0; i < n; i++) {
        json_object *r = json_object_array_get_idx(rows, i);
        const char *rid = jstr(r, "id");
        if (rid && strcmp(rid, id) == 0)
            return r;
    }
    return NULL;
}

/* Time per item of a measured row; 0 if skipped. */
static int row_time(json_object *r, double *t)
{
    double med, per = 1;
    if (!r || !jnum(r, "median_s", &med))
        return 0;
    jnum(r, "per", &per);
    *t = med / (per > 0 ? per : 1);
    return 1;
}

static const char *row_time_str(json_object *r, char *buf, size_t cap)
{
    double t;
    if (!row_time(r, &t))
        return "-";
    fmt_time(t, buf, cap);
    const char *unit = jstr(r, "per_unit");
    if (unit) {
        size_t l = strlen(buf);
        snprintf(buf + l, cap - l, "/%s", unit);
    }
    return buf;
}

void bench_row(bench_ctx *ctx, const char *id, const char *label, const bench_stats *st,
               double per, const char *per_unit)
{
    if (!ctx->kase)
        return;
    json_object *rows = jget(ctx->kase, "rows");
    json_object *r = json_object_new_object();
    add_str(r, "id", id);
    add_str(r, "label", label);
    json_object_object_add(r, "median_s", json_object_new_double(st->median_s));
    json_object_object_add(r, "min_s", json_object_new_double(st->min_s));
    json_object_object_add(r, "max_s", json_object_new_double(st->max_s));
    json_object_object_add(r, "reps", json_object_new_int(st->reps));
    if (st->cpu_median_s > 0)
        json_object_object_add(r, "cpu_median_s", json_object_new_double(st->cpu_median_s));
    json_object_object_add(r, "per", json_object_new_double(per > 0 ? per : 1));
    add_str(r, "per_unit", per_unit);
    double subject_t, t;
    json_object *subject = json_object_array_length(rows) ? json_object_array_get_idx(rows, 0) : NULL;
    int have_speedup = subject && row_time(subject, &subject_t) && row_time(r, &t) && subject_t > 0;
    json_object_array_add(rows, r);
    row_time(r, &t);
    if (have_speedup)
        json_object_object_add(r, "subject_speedup", json_object_new_double(t / subject_t));

    char med[48], mn[48], sp[32] = "";
    row_time_str(r, med, sizeof med);
    fmt_time(st->min_s / (per > 1 ? per : 1), mn, sizeof mn);
    if (per_unit) {
        size_t l = strlen(mn);
        snprintf(mn + l, sizeof mn - l, "/%s", per_unit);
    }
    if (have_speedup)
        snprintf(sp, sizeof sp, " %9.2fx", t / subject_t);
    printf("  %-*s %14s %14s %5d%s\n", LABEL_W, label, med, mn, st->reps, sp);
    fflush(stdout);
}

void bench_row_skipped(bench_ctx *ctx, const char *id, const char *label, const char *fmt, ...)
{
    if (!ctx->kase)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *why = vformat(fmt, ap);
    va_end(ap);
    json_object *r = json_object_new_object();
    add_str(r, "id", id);
    add_str(r, "label", label);
    add_str(r, "skipped", why ? why : fmt);
    json_object_array_add(jget(ctx->kase, "rows"), r);
    printf("  %-*s %14s   skipped: %s\n", LABEL_W, label, "-", why ? why : fmt);
    fflush(stdout);
    free(why);
}

void bench_note(bench_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    if (ctx->kase)
        json_object_array_add(jget(ctx->kase, "notes"), json_object_new_string(msg ? msg : fmt));
    printf("  note: %s\n", msg ? msg : fmt);
    fflush(stdout);
    free(msg);
}

static double loadavg(void);

/* CPU seconds the whole machine has spent on anything but idling (every
 * core; the hypervisor's steal counts: a VM's neighbours slow it too),
 * or -1 without /proc/stat. */
static double machine_cpu_s(void)
{
    unsigned long long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n < 4 || hz <= 0)
        return -1;
    /* user nice system idle iowait irq softirq steal: all but idle and iowait */
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / (double)hz;
}

/* CPU seconds of the bench and the children it has waited for. */
static double own_cpu_s(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    const struct timeval t[4] = {self.ru_utime, self.ru_stime, kids.ru_utime, kids.ru_stime};
    double s = 0;
    for (int i = 0; i < 4; i++)
        s += (double)t[i].tv_sec + (double)t[i].tv_usec * 1e-6;
    return s;
}

/* Cores other processes (and the hypervisor) kept busy, on average, since
 * the case began; -1 if unknown.  The load average cannot say this: the
 * bench's own runs count in it (about 1 for a one-thread case). */
static double others_cores(const bench_ctx *ctx)
{
    double machine = machine_cpu_s(), wall = bench_now() - ctx->case_t0;
    if (machine < 0 || ctx->case_machine0 < 0 || wall <= 0.5)
        return -1;
    double others = (machine - ctx->case_machine0) - (own_cpu_s() - ctx->case_own0);
    return others > 0 ? others / wall : 0;
}

/* A goal not met while other processes ran: say so (they slow every row). */
static void busy_reason(bench_ctx *ctx, json_object *g)
{
    const char *st = jstr(g, "status");
    double others = others_cores(ctx);
    if (!st || strcmp(st, "not met") != 0 || others < 0.2)
        return;
    char msg[192];
    snprintf(msg, sizeof msg, "other processes kept %.2f of the %d cores busy on average during "
                              "the case, which slows and scatters every row", others, ctx->opts.nproc);
    add_str(g, "reason", msg);
}

static void print_goal(json_object *g)
{
    const char *status = jstr(g, "status");
    const char *measured = jstr(g, "measured");
    printf("  goal: %-*s %14s   %s\n", LABEL_W - 6, jstr(g, "text"), measured ? measured : "-",
           strcmp(status, "met") == 0 ? "met" : strcmp(status, "not met") == 0 ? "NOT MET" : status);
    if (jstr(g, "reason"))
        printf("        why: %s\n", jstr(g, "reason"));
    fflush(stdout);
}

/* A goal that could not be measured: say which row is missing and why
 * (a later bench_goal_reason replaces this). */
static void unmeasured_reason(bench_ctx *ctx, json_object *g, const char *a, const char *b)
{
    const char *ids[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        if (!ids[k])
            continue;
        json_object *r = find_row(ctx, ids[k]);
        const char *why = r ? jstr(r, "skipped") : "not run";
        if (!r || why) {
            char *msg = NULL;
            size_t len = strlen(ids[k]) + strlen(why) + 64;
            if ((msg = malloc(len)) != NULL) {
                snprintf(msg, len, "%s: %s", r ? jstr(r, "label") : ids[k], why);
                add_str(g, "reason", msg);
                free(msg);
            }
            return;
        }
    }
}

static json_object *new_goal(bench_ctx *ctx, const char *text, const char *kind)
{
    json_object *g = json_object_new_object();
    add_str(g, "text", text);
    add_str(g, "kind", kind);
    json_object_array_add(jget(ctx->kase, "goals"), g);
    ctx->goal = g;
    return g;
}

void bench_goal_speedup(bench_ctx *ctx, const char *text, const char *subject,
                        const char *reference, double min_speedup)
{
    if (!ctx->kase)
        return;
    json_object *g = new_goal(ctx, text, "speedup");
    add_str(g, "subject", subject);
    add_str(g, "reference", reference);
    json_object_object_add(g, "min_speedup", json_object_new_double(min_speedup));
    double ts, tr;
    if (row_time(find_row(ctx, subject), &ts) && row_time(find_row(ctx, reference), &tr) && ts > 0) {
        double sp = tr / ts;
        char buf[32];
        snprintf(buf, sizeof buf, "%.2fx", sp);
        json_object_object_add(g, "value", json_object_new_double(sp));
        add_str(g, "measured", buf);
        add_str(g, "status", sp >= min_speedup ? "met" : "not met");
        busy_reason(ctx, g);
    } else {
        add_str(g, "status", "not measured");
        unmeasured_reason(ctx, g, subject, reference);
    }
    print_goal(g);
}

void bench_goal_max_time(bench_ctx *ctx, const char *text, const char *row, double max_s)
{
    if (!ctx->kase)
        return;
    json_object *g = new_goal(ctx, text, "max_time");
    add_str(g, "subject", row);
    json_object_object_add(g, "max_s", json_object_new_double(max_s));
    json_object *r = find_row(ctx, row);
    double t;
    if (row_time(r, &t)) {
        char buf[48];
        json_object_object_add(g, "value", json_object_new_double(t));
        add_str(g, "measured", row_time_str(r, buf, sizeof buf));
        add_str(g, "status", t <= max_s ? "met" : "not met");
        busy_reason(ctx, g);
    } else {
        add_str(g, "status", "not measured");
        unmeasured_reason(ctx, g, row, NULL);
    }
    print_goal(g);
}

void bench_goal_reason(bench_ctx *ctx, const char *fmt, ...)
{
    if (!ctx->goal)
        return;
    const char *status = jstr(ctx->goal, "status");
    if (status && strcmp(status, "met") == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    const char *text = msg ? msg : fmt;
    const char *prev = jstr(ctx->goal, "reason");
    if (prev) { /* after an automatic reason: keep both */
        size_t len = strlen(prev) + strlen(text) + 3;
        char *both = malloc(len);
        if (both) {
            snprintf(both, len, "%s; %s", text, prev);
            add_str(ctx->goal, "reason", both);
            free(both);
        }
    } else {
        add_str(ctx->goal, "reason", text);
    }
    printf("        why: %s\n", text);
    fflush(stdout);
    free(msg);
}

int bench_row_time(const bench_ctx *ctx, const char *id, double *seconds)
{
    return ctx->kase ? row_time(find_row(ctx, id), seconds) : 0;
}

int bench_row_cpu(const bench_ctx *ctx, const char *id, double *seconds)
{
    json_object *r = ctx->kase ? find_row(ctx, id) : NULL;
    double cpu, per = 1;
    if (!r || !jnum(r, "cpu_median_s", &cpu) || !(cpu > 0))
        return 0;
    jnum(r, "per", &per);
    *seconds = cpu / (per > 0 ? per : 1);
    return 1;
}

void bench_goal_cpu_reason(bench_ctx *ctx, const char *subject, const char *ref,
                           const char *ref_name, int threads, double goal)
{
    double c_s, c_r;
    if (!bench_row_cpu(ctx, subject, &c_s) || !bench_row_cpu(ctx, ref, &c_r) || !(c_r > 0))
        return;
    if (threads < 1)
        threads = 1;
    double work = c_s / c_r, idle = work / threads;
    if (idle <= goal)
        bench_goal_reason(ctx, "CPU time per call: libeh %.3g ms (its %d thread%s together), %s "
                               "%.3g ms: libeh does %.2fx %s's work, so on %d idle core%s it "
                               "would take about %.2fx %s's time (goal <= %.2fx): here its "
                               "threads did not get the cores",
                          c_s * 1e3, threads, threads == 1 ? "" : "s", ref_name, c_r * 1e3, work,
                          ref_name, threads, threads == 1 ? "" : "s", idle, ref_name, goal);
    else
        bench_goal_reason(ctx, "CPU time per call: libeh %.3g ms (its %d thread%s together), %s "
                               "%.3g ms: libeh does %.2fx %s's work, too much for %d core%s to "
                               "reach %.2fx %s's time",
                          c_s * 1e3, threads, threads == 1 ? "" : "s", ref_name, c_r * 1e3, work,
                          ref_name, threads, threads == 1 ? "" : "s", goal, ref_name);
}

int bench_goal_status(const bench_ctx *ctx)
{
    const char *s = ctx->goal ? jstr(ctx->goal, "status") : NULL;
    if (!s)
        return -1;
    return strcmp(s, "met") == 0 ? 1 : strcmp(s, "not met") == 0 ? 0 : -1;
}

/* ---- Python -------------------------------------------------------------------------------- */

static int python_ok(const char *py, const char *code)
{
    char *argv[] = {(char *)py, (char *)"-c", (char *)code, NULL};
    return run_process(argv, NULL, NULL) == 0;
}

const char *bench_python_path(bench_ctx *ctx)
{
    if (ctx->python_searched)
        return ctx->python[0] ? ctx->python : NULL;
    ctx->python_searched = 1;
    const char *env = getenv("EH_BENCH_PYTHON");
    if (env && *env) { /* an explicit choice is used as it is */
        if (python_ok(env, "pass"))
            snprintf(ctx->python, sizeof ctx->python, "%s", env);
        return ctx->python[0] ? ctx->python : NULL;
    }
    const char *cands[] = {"/usr/bin/python3", "python3"};
    int n = (int)(sizeof cands / sizeof cands[0]);
    /* Debian's python3-numpy lives in /usr/bin/python3's dist-packages:
     * prefer an interpreter that imports numpy. */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n; k++) {
            if (python_ok(cands[k], pass == 0 ? "import numpy" : "pass")) {
                snprintf(ctx->python, sizeof ctx->python, "%s", cands[k]);
                return ctx->python;
            }
        }
    return NULL;
}

struct json_object *bench_python(bench_ctx *ctx, const char *script, char *const args[],
                                 const char **why)
{
    static char reason[512];
    *why = reason;
    if (!ctx->opts.python) {
        snprintf(reason, sizeof reason, "Python references off (%s)",
                 ctx->opts.quick ? "--quick without --python" : "--no-python");
        return NULL;
    }
    const char *py = bench_python_path(ctx);
    if (!py) {
        const char *env = getenv("EH_BENCH_PYTHON");
        snprintf(reason, sizeof reason, "%s%s%s", env && *env ? "EH_BENCH_PYTHON=" : "no working python3 found",
                 env && *env ? env : "", env && *env ? " does not run" : "");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", ctx->opts.ref_dir, script);
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)py;
    argv[n++] = path;
    for (int k = 0; args && args[k] && n < 63; k++)
        argv[n++] = args[k];
    argv[n] = NULL;
    char *out = NULL, *err = NULL;
    int rc = run_process(argv, &out, &err);
    json_object *j = NULL;
    if (rc == 0 && out)
        j = json_tokener_parse(out);
    if (!j) {
        /* last line of stderr says most */
        const char *last = "";
        if (err) {
            size_t l = strlen(err);
            while (l > 0 && (err[l - 1] == '\n' || err[l - 1] == '\r'))
                err[--l] = '\0';
            const char *nl = strrchr(err, '\n');
            last = nl ? nl + 1 : err;
        }
        snprintf(reason, sizeof reason, "%s %s failed (exit %d)%s%s", py, script, rc,
                 *last ? ": " : "", last);
    } else {
        json_object_array_add(ctx->python_out, j);
    }
    free(out);
    free(err);
    return j;
}

/* ---- the header ---------------------------------------------------------------------------------- */

static void cpu_model(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t')
                    c++;
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, cap, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

/* 1-minute load average, -1 if unknown. */
static double loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1;
        fclose(f);
    }
    return l;
}

static const char *compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

static void header(bench_ctx *ctx, const char *cflags)
{
    json_object *host = json_object_new_object();
    char cpu[256], date[64], backends[256] = "";
    cpu_model(cpu, sizeof cpu);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    const char *names[32];
    int nb = eh_list_backends(names, 32);
    for (int k = 0; k < nb && k < 32; k++) {
        size_t l = strlen(backends);
        snprintf(backends + l, sizeof backends - l, "%s%s", k ? ", " : "", names[k]);
    }
    const char *env_threads = getenv("EH_NUM_THREADS");
    add_str(host, "date", date);
    add_str(host, "cpu", cpu);
    json_object_object_add(host, "nproc", json_object_new_int(ctx->opts.nproc));
    add_str(host, "EH_NUM_THREADS", env_threads);
    /* OpenBLAS picks its kernels by this when set: it changes matmul's row */
    add_str(host, "OPENBLAS_CORETYPE", getenv("OPENBLAS_CORETYPE"));
    json_object_object_add(host, "threads", json_object_new_int(ctx->opts.threads));
    json_object_object_add(host, "loadavg_start", json_object_new_double(loadavg()));
    add_str(host, "compiler", compiler());
    add_str(host, "cflags", cflags);
    json_object_object_add(ctx->root, "host", host);
    json_object *lib = json_object_new_object();
    add_str(lib, "version", eh_version());
    json_object *bl = json_object_new_array();
    for (int k = 0; k < nb && k < 32; k++)
        json_object_array_add(bl, json_object_new_string(names[k]));
    json_object_object_add(lib, "backends", bl);
    json_object_object_add(ctx->root, "libeh", lib);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "quick", json_object_new_boolean(ctx->opts.quick));
    json_object_object_add(o, "reps", json_object_new_int(ctx->opts.reps));
    json_object_object_add(o, "budget_s", json_object_new_double(ctx->opts.budget_s));
    json_object_object_add(o, "python", json_object_new_boolean(ctx->opts.python));
    json_object_object_add(ctx->root, "options", o);

    printf("eh-bench: libeh %s (backends: %s)%s\n", eh_version(), backends,
           ctx->opts.quick ? "  [--quick: tiny sizes, not a measurement]" : "");
    printf("  %s, %s\n", date, cpu);
    printf("  threads: %d (EH_NUM_THREADS=%s, nproc=%d); load average %.2f\n", ctx->opts.threads,
           env_threads ? env_threads : "unset", ctx->opts.nproc, loadavg());
    printf("  OPENBLAS_CORETYPE=%s\n", getenv("OPENBLAS_CORETYPE") ? getenv("OPENBLAS_CORETYPE")
                                                                    : "unset (OpenBLAS detects the CPU)");
    printf("  %s%s%s\n", compiler(), cflags ? ", CFLAGS " : "", cflags ? cflags : "");
    printf("  timing: CLOCK_MONOTONIC; per measurement 1 warm-up run, then the median of %d "
           "timed runs (fewer, but at least 3, if they would take over %g s)\n",
           ctx->opts.reps, ctx->opts.budget_s);
    printf("  speedup: time of the row / time of the case's first row (> 1: the first row, "
           "libeh, is faster)\n");
}

/* ---- docs/performance.md ------------------------------------------------------------------------- */

static void md_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static int write_markdown(const bench_ctx *ctx, const char *path, const char *cflags)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    json_object *host = jget(ctx->root, "host");
    fprintf(f, "<!-- GENERATED by `make bench` (build/bench/eh-bench --markdown). Do not edit by "
               "hand: rerun `make bench`. -->\n\n");
    fprintf(f, "# Performance\n\n");
    fprintf(f, "Measured by `make bench` on %s: %s, %d cores online, %d threads "
               "(`EH_NUM_THREADS` %s%s); libeh %s built with %s",
            jstr(host, "date"), jstr(host, "cpu"), ctx->opts.nproc, ctx->opts.threads,
            getenv("EH_NUM_THREADS") ? "=" : "unset",
            getenv("EH_NUM_THREADS") ? getenv("EH_NUM_THREADS") : "", eh_version(), compiler());
    if (cflags)
        fprintf(f, " and `%s`", cflags);
    fprintf(f, "; `OPENBLAS_CORETYPE` %s%s", getenv("OPENBLAS_CORETYPE") ? "=" : "unset",
            getenv("OPENBLAS_CORETYPE") ? getenv("OPENBLAS_CORETYPE") : "");
    fprintf(f, ".\n\nEach time is the median of up to %d runs after one warm-up run "
               "(`clock_gettime(CLOCK_MONOTONIC)` in C, `time.perf_counter` in the Python\n"
               "references, both timing in-process). These are the numbers of one run on one "
               "machine; `make bench` reproduces them on yours. How the harness works: "
               "[bench/README.md](../bench/README.md).\n\n",
            ctx->opts.reps);
    if (ctx->opts.quick)
        fprintf(f, "**This file came from a `--quick` run (tiny sizes): it measures nothing.**\n\n");
    double l0 = -1, l1 = -1;
    jnum(host, "loadavg_start", &l0);
    jnum(host, "loadavg_end", &l1);
    if (l0 >= 0.5 || l1 >= 0.5)
        fprintf(f, "**The machine was not idle** (1-minute load average %.2f at the start, %.2f at "
                   "the end, on %d cores): other processes shared the cores, so these times are "
                   "noisier and slower than on an idle machine; multithreaded rows suffer most.\n\n",
                l0, l1, ctx->opts.nproc);

    /* goals */
    fprintf(f, "## Goals\n\n| case | goal | measured | status |\n|---|---|---:|---|\n");
    int met = 0, unmet = 0, unmeasured = 0;
    size_t ns = json_object_array_length(ctx->sections);
    for (size_t s = 0; s < ns; s++) {
        json_object *sec = json_object_array_get_idx(ctx->sections, s);
        json_object *cases = jget(sec, "cases");
        for (size_t c = 0; c < json_object_array_length(cases); c++) {
            json_object *k = json_object_array_get_idx(cases, c);
            json_object *goals = jget(k, "goals");
            for (size_t g = 0; g < json_object_array_length(goals); g++) {
                json_object *gl = json_object_array_get_idx(goals, g);
                const char *st = jstr(gl, "status");
                const char *m = jstr(gl, "measured");
                met += strcmp(st, "met") == 0;
                unmet += strcmp(st, "not met") == 0;
                unmeasured += strcmp(st, "not measured") == 0;
                fprintf(f, "| ");
                md_text(f, jstr(k, "title"));
                fprintf(f, " | ");
                md_text(f, jstr(gl, "text"));
                fprintf(f, " | %s | %s |\n", m ? m : "—",
                        strcmp(st, "met") == 0 ? "met" : strcmp(st, "not met") == 0 ? "**not met**"
                                                                                     : "not measured");
            }
        }
    }
    fprintf(f, "\n%d met, %d not met, %d not measured.\n", met, unmet, unmeasured);

    int any_reason = 0;
    for (size_t s = 0; s < ns; s++) {
        json_object *cases = jget(json_object_array_get_idx(ctx->sections, s), "cases");
        for (size_t c = 0; c < json_object_array_length(cases); c++) {
            json_object *k = json_object_array_get_idx(cases, c);
            json_object *goals = jget(k, "goals");
            for (size_t g = 0; g < json_object_array_length(goals); g++) {
                json_object *gl = json_object_array_get_idx(goals, g);
                if (strcmp(jstr(gl, "status"), "met") == 0)
                    continue;
                if (!any_reason++)
                    fprintf(f, "\n### Goals not met or not measured, and why\n\n");
                fprintf(f, "- **%s: %s** (%s, %s). ", jstr(k, "title"), jstr(gl, "text"),
                        jstr(gl, "status"), jstr(gl, "measured") ? jstr(gl, "measured") : "no value");
                const char *why = jstr(gl, "reason");
                fprintf(f, "Why: %s.\n", why ? why : "not known");
            }
        }
    }

    /* measurements */
    fprintf(f, "\n## Measurements\n");
    for (size_t s = 0; s < ns; s++) {
        json_object *sec = json_object_array_get_idx(ctx->sections, s);
        fprintf(f, "\n### %s\n", jstr(sec, "title"));
        json_object *cases = jget(sec, "cases");
        for (size_t c = 0; c < json_object_array_length(cases); c++) {
            json_object *k = json_object_array_get_idx(cases, c);
            json_object *rows = jget(k, "rows");
            fprintf(f, "\n#### %s\n\n| implementation | median | min | runs | speedup of "
                       "the first row |\n|---|---:|---:|---:|---:|\n",
                    jstr(k, "title"));
            for (size_t r = 0; r < json_object_array_length(rows); r++) {
                json_object *row = json_object_array_get_idx(rows, r);
                char med[48], mn[48];
                fprintf(f, "| ");
                md_text(f, jstr(row, "label"));
                if (jstr(row, "skipped")) {
                    fprintf(f, " | skipped: ");
                    md_text(f, jstr(row, "skipped"));
                    fprintf(f, " | | | |\n");
                    continue;
                }
                double min_s = 0, per = 1, sp, reps = 0;
                jnum(row, "min_s", &min_s);
                jnum(row, "per", &per);
                jnum(row, "reps", &reps);
                fmt_time(min_s / per, mn, sizeof mn);
                if (jstr(row, "per_unit")) {
                    size_t l = strlen(mn);
                    snprintf(mn + l, sizeof mn - l, "/%s", jstr(row, "per_unit"));
                }
                fprintf(f, " | %s | %s | %.0f |", row_time_str(row, med, sizeof med), mn, reps);
                if (jnum(row, "subject_speedup", &sp))
                    fprintf(f, " %.2fx |\n", sp);
                else
                    fprintf(f, " |\n");
            }
            json_object *notes = jget(k, "notes");
            if (json_object_array_length(notes))
                fprintf(f, "\n");
            for (size_t n = 0; n < json_object_array_length(notes); n++)
                fprintf(f, "- %s\n", json_object_get_string(json_object_array_get_idx(notes, n)));
            json_object *errs = jget(k, "errors");
            for (size_t n = 0; errs && n < json_object_array_length(errs); n++)
                fprintf(f, "- **error:** %s\n", json_object_get_string(json_object_array_get_idx(errs, n)));
        }
    }
    if (fclose(f) != 0)
        return -1;
    return rename(tmp, path);
}

/* ---- main ------------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: eh-bench [options]\n"
            "\n"
            "Run the benchmark sections and print a table of median times and speedups.\n"
            "\n"
            "  --quick            tiny sizes, 1 run, no Python: proves the harness works\n"
            "  --reps N           timed runs per measurement after a warm-up (default 11)\n"
            "  --budget SEC       seconds one measurement may take; fewer runs (>= 3) when\n"
            "                     one run is slow (default 4)\n"
            "  --no-python        skip the NumPy/numexpr references\n"
            "  --python           run them even with --quick\n"
            "  --section LIST     only these sections (comma-separated names)\n"
            "  --list             list the sections and exit\n"
            "  --json FILE        write the results as JSON\n"
            "  --markdown FILE    write the report (docs/performance.md)\n"
            "  --build-dir DIR    the build directory (default build)\n"
            "  --ref-dir DIR      the Python references (default bench/reference)\n"
            "  --cflags STR       the compiler flags, for the report\n"
            "  -h, --help         this help\n"
            "\n"
            "Environment: EH_NUM_THREADS (threads of libeh and of the C and numexpr\n"
            "references), EH_BENCH_PYTHON (the interpreter for the references).\n"
            "Exit status: 0 ok (goals not met do not fail the run), 1 a case failed or\n"
            "an output could not be written, 2 bad usage.\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "eh-bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try 'eh-bench --help')\n");
    return 2;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int selected(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t l = strcspn(p, ",");
        if (l == n && strncmp(p, name, n) == 0)
            return 1;
        p += l;
        if (*p == ',')
            p++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opts.reps = 11;
    ctx.opts.budget_s = 4.0;
    ctx.opts.python = 1;
    ctx.opts.build_dir = "build";
    ctx.opts.ref_dir = "bench/reference";
    const char *json_path = NULL, *md_path = NULL, *sections = NULL, *cflags = NULL;
    int reps_given = 0, list = 0, python_given = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = strcmp(a, "--reps") == 0 || strcmp(a, "--budget") == 0 ||
                    strcmp(a, "--section") == 0 || strcmp(a, "--json") == 0 ||
                    strcmp(a, "--markdown") == 0 || strcmp(a, "--build-dir") == 0 ||
                    strcmp(a, "--ref-dir") == 0 || strcmp(a, "--cflags") == 0;
        if (takes && !v)
            return bad_usage("%s needs a value", a);
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--quick") == 0) {
            ctx.opts.quick = 1;
        } else if (strcmp(a, "--no-python") == 0) {
            ctx.opts.python = 0;
            python_given = 0;
        } else if (strcmp(a, "--python") == 0) {
            ctx.opts.python = 1;
            python_given = 1;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--reps") == 0) {
            if (parse_int(v, 1, MAX_REPS, &ctx.opts.reps) != 0)
                return bad_usage("--reps wants a whole number from 1 to 1000, not '%s'", v);
            reps_given = 1;
            i++;
        } else if (strcmp(a, "--budget") == 0) {
            char *end;
            ctx.opts.budget_s = strtod(v, &end);
            if (end == v || *end || !(ctx.opts.budget_s > 0))
                return bad_usage("--budget wants a positive number of seconds, not '%s'", v);
            i++;
        } else if (takes) {
            if (strcmp(a, "--section") == 0)
                sections = v;
            else if (strcmp(a, "--json") == 0)
                json_path = v;
            else if (strcmp(a, "--markdown") == 0)
                md_path = v;
            else if (strcmp(a, "--build-dir") == 0)
                ctx.opts.build_dir = v;
            else if (strcmp(a, "--ref-dir") == 0)
                ctx.opts.ref_dir = v;
            else
                cflags = v;
            i++;
        } else if (a[0] == '-') {
            return bad_usage("unknown option '%s'", a);
        } else {
            return bad_usage("unexpected argument '%s'", a);
        }
    }
    if (ctx.opts.quick) {
        ctx.opts.python = python_given;
        if (!reps_given)
            ctx.opts.reps = 1;
    }

    qsort(registry, (size_t)n_registered, sizeof registry[0], section_cmp);
    if (list) {
        for (int k = 0; k < n_registered; k++)
            printf("%-12s %s\n", registry[k]->name, registry[k]->title);
        return 0;
    }
    if (sections) {
        for (const char *p = sections; *p;) {
            size_t l = strcspn(p, ",");
            int found = 0;
            for (int k = 0; k < n_registered; k++)
                found |= strlen(registry[k]->name) == l && strncmp(p, registry[k]->name, l) == 0;
            if (!found) {
                char name[128];
                snprintf(name, sizeof name, "%.*s", (int)(l < 100 ? l : 100), p);
                return bad_usage("no section '%s' (see --list)", name);
            }
            p += l;
            if (*p == ',')
                p++;
        }
    }

    long np = sysconf(_SC_NPROCESSORS_ONLN);
    ctx.opts.nproc = np > 0 ? (int)np : 1;
    const char *env = getenv("EH_NUM_THREADS");
    long t = env ? strtol(env, NULL, 10) : 0;
    ctx.opts.threads = t >= 1 ? (t > 256 ? 256 : (int)t) : ctx.opts.nproc;

    ctx.root = json_object_new_object();
    add_str(ctx.root, "generator", "eh-bench (make bench)");
    ctx.sections = json_object_new_array();
    ctx.errors = json_object_new_array();
    ctx.python_out = json_object_new_array();
    header(&ctx, cflags);

    double t_start = bench_now();
    for (int k = 0; k < n_registered; k++) {
        const bench_section *s = registry[k];
        if (!selected(sections, s->name))
            continue;
        ctx.section = json_object_new_object();
        add_str(ctx.section, "name", s->name);
        add_str(ctx.section, "title", s->title);
        json_object_object_add(ctx.section, "cases", json_object_new_array());
        json_object_array_add(ctx.sections, ctx.section);
        ctx.kase = NULL;
        ctx.goal = NULL;
        printf("\n== %s ==\n%-*s %14s %14s %5s %10s\n", s->title, LABEL_W + 2,
               "case / implementation", "median", "min", "runs", "speedup");
        double ts = bench_now();
        if (s->run(&ctx) != 0 && ctx.n_errors == 0)
            bench_error(&ctx, "section %s failed", s->name);
        json_object_object_add(ctx.section, "seconds", json_object_new_double(bench_now() - ts));
    }
    ctx.kase = NULL;

    /* summary */
    int met = 0, unmet = 0, unmeasured = 0;
    for (size_t s = 0; s < json_object_array_length(ctx.sections); s++) {
        json_object *cases = jget(json_object_array_get_idx(ctx.sections, s), "cases");
        for (size_t c = 0; c < json_object_array_length(cases); c++) {
            json_object *goals = jget(json_object_array_get_idx(cases, c), "goals");
            for (size_t g = 0; g < json_object_array_length(goals); g++) {
                const char *st = jstr(json_object_array_get_idx(goals, g), "status");
                met += strcmp(st, "met") == 0;
                unmet += strcmp(st, "not met") == 0;
                unmeasured += strcmp(st, "not measured") == 0;
            }
        }
    }
    double total = bench_now() - t_start;
    json_object *sum = json_object_new_object();
    json_object_object_add(sum, "goals_met", json_object_new_int(met));
    json_object_object_add(sum, "goals_not_met", json_object_new_int(unmet));
    json_object_object_add(sum, "goals_not_measured", json_object_new_int(unmeasured));
    json_object_object_add(sum, "errors", json_object_new_int(ctx.n_errors));
    json_object_object_add(sum, "seconds", json_object_new_double(total));
    json_object_object_add(jget(ctx.root, "host"), "loadavg_end", json_object_new_double(loadavg()));
    json_object_object_add(ctx.root, "summary", sum);
    json_object_object_add(ctx.root, "sections", ctx.sections);
    json_object_object_add(ctx.root, "errors", ctx.errors);
    printf("\ngoals: %d met, %d not met, %d not measured; %d error%s; %.1f s\n", met, unmet,
           unmeasured, ctx.n_errors, ctx.n_errors == 1 ? "" : "s", total);

    int rc = ctx.n_errors ? 1 : 0;
    if (json_path) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", json_path);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            mkdir(dir, 0777); /* one level, like build/bench; fine if it exists */
        }
        if (json_object_to_file_ext(json_path, ctx.root,
                                    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) != 0) {
            fprintf(stderr, "eh-bench: cannot write %s: %s\n", json_path, strerror(errno));
            rc = 1;
        } else {
            printf("wrote %s\n", json_path);
        }
    }
    if (md_path) {
        if (write_markdown(&ctx, md_path, cflags) != 0) {
            fprintf(stderr, "eh-bench: cannot write %s: %s\n", md_path, strerror(errno));
            rc = 1;
        } else {
            printf("wrote %s\n", md_path);
        }
    }
    json_object_put(ctx.root);
    json_object_put(ctx.python_out);
    return rc;
}
