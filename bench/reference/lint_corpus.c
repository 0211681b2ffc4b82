/* bench/reference/lint_corpus.c -- the generated corpus of the lint section
 * of `make bench` (lint_corpus.h).
 *
 * The corpus is frontend code as an application on libeh would have it:
 * modules of .c files that include <eh/eh.h>, libc headers and their
 * module's header, with functions built from a dozen templates: op
 * pipelines in scopes, reductions, random sampling, plain C parsing and
 * switch statements, and the things emberlint's rules look for (arithmetic
 * and <math.h> on eh_data storage, through aliases, casts and macros; host
 * syncs inside loops; narrowing casts; integer division into doubles; host
 * round trips; a branch on the backend's name; suppressions).  Every file
 * parses without errors.  File sizes vary from about 40 to 850 lines.
 *
 * Deterministic: a fixed-seed xorshift decides everything, so a given
 * n_files always writes the same bytes. */
#include "lint_corpus.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILES_PER_MODULE 30

/* ---- a growable string ---------------------------------------------------- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t ncap = b->cap ? b->cap * 2 : 16384;
        while (ncap - b->len <= (size_t)n)
            ncap *= 2;
        char *ns = realloc(b->s, ncap);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = ncap;
    }
}

/* ---- deterministic choices --------------------------------------------------- */

static uint64_t rng_next(uint64_t *st)
{
    *st ^= *st >> 12;
    *st ^= *st << 25;
    *st ^= *st >> 27;
    return *st * 0x2545f4914f6cdd1dull;
}

static int rng_below(uint64_t *st, int n) { return (int)((rng_next(st) >> 33) % (uint64_t)n); }

/* ---- file-system helpers --------------------------------------------------- */

int lint_mkdir_p(const char *path)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return -1;
    for (char *c = p + 1; *c; c++) {
        if (*c != '/')
            continue;
        *c = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *c = '/';
    }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int lint_rm_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char sub[4096];
        if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= (int)sizeof sub) {
            rc = -1;
            continue;
        }
        rc |= lint_rm_tree(sub);
    }
    closedir(d);
    return rmdir(path) != 0 ? -1 : rc;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_c(const char *dir, char ***v, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        if (snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        struct stat st;
        if (lstat(sub, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            list_c(sub, v, n, cap);
            continue;
        }
        size_t l = strlen(e->d_name);
        if (!S_ISREG(st.st_mode) || l < 3 || strcmp(e->d_name + l - 2, ".c") != 0)
            continue;
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            char **nv = realloc(*v, ncap * sizeof *nv);
            if (!nv)
                break;
            *v = nv;
            *cap = ncap;
        }
        char *s = strdup(sub);
        if (s)
            (*v)[(*n)++] = s;
    }
    closedir(d);
    return 0;
}

int lint_list_c_files(const char *dir, char ***v, size_t *n, size_t *cap)
{
    size_t first = *n;
    if (list_c(dir, v, n, cap) != 0)
        return -1;
    if (*n > first)
        qsort(*v + first, *n - first, sizeof **v, str_cmp);
    return 0;
}

/* ---- the templates ------------------------------------------------------------- */

/* One function of kind `kind` named `name`; its prototype goes to `proto`. */
static void emit_function(sbuf *c, sbuf *proto, const char *mod, const char *name, int kind,
                          uint64_t *rng)
{
    int k1 = 2 + rng_below(rng, 7), k2 = 1 + rng_below(rng, 5);
    double w = (double)(1 + rng_below(rng, 99)) / 8.0;
    switch (kind) {
    case 0: /* normalization pipeline: clean */
        sb_printf(proto, "eh_tensor *%s(const eh_tensor *x, const %s_config *cfg);\n", name, mod);
        sb_printf(c,
                  "/* Standardize x along axis 0 and apply the configured affine map. */\n"
                  "eh_tensor *%s(const eh_tensor *x, const %s_config *cfg)\n"
                  "{\n"
                  "    const int axes[1] = {0};\n"
                  "    if (!x || !cfg)\n"
                  "        return NULL;\n"
                  "    eh_scope_begin();\n"
                  "    eh_tensor *mu = eh_mean(x, axes, 1, 1);\n"
                  "    eh_tensor *sigma = eh_std(x, axes, 1, 0, 1);\n"
                  "    eh_tensor *z = eh_divide(eh_subtract(x, mu), eh_add_scalar(sigma, %.1e));\n"
                  "    eh_tensor *out = eh_keep(eh_add_scalar(eh_multiply_scalar(z, cfg->scale), cfg->bias));\n"
                  "    eh_scope_end();\n"
                  "    return out;\n"
                  "}\n\n",
                  name, mod, 1e-6 * k1);
        break;
    case 1: /* arithmetic on eh_data storage: EH201 */
        sb_printf(proto, "double %s(eh_tensor *t, const %s_config *cfg);\n", name, mod);
        sb_printf(c,
                  "/* Weighted sum of the elements, computed on the host. */\n"
                  "double %s(eh_tensor *t, const %s_config *cfg)\n"
                  "{\n"
                  "    float *p = eh_data_f32(t);\n"
                  "    int64_t n = eh_size(t);\n"
                  "    double acc = 0.0;\n"
                  "    if (!p)\n"
                  "        return 0.0;\n"
                  "    for (int64_t i = 0; i < n; i += %d)\n"
                  "        acc += p[i] * cfg->scale + %g;\n"
                  "    return acc / (double)(n > 0 ? n : 1);\n"
                  "}\n\n",
                  name, mod, k2, w);
        break;
    case 2: /* <math.h> on storage through an alias: EH202 */
        sb_printf(proto, "void %s(eh_tensor *t);\n", name);
        sb_printf(c,
                  "/* Square roots of magnitudes, in place. */\n"
                  "void %s(eh_tensor *t)\n"
                  "{\n"
                  "    double *d = eh_data_f64(t);\n"
                  "    double *alias = d;\n"
                  "    int64_t n = eh_size(t);\n"
                  "    for (int64_t i = 0; i < n; i++) {\n"
                  "        alias[i] = sqrt(fabs(alias[i]));\n"
                  "        if (i %% %d == 0)\n"
                  "            alias[i] = exp(alias[i]);\n"
                  "    }\n"
                  "}\n\n",
                  name, k1);
        break;
    case 3: /* host sync inside a loop: EH203 */
        sb_printf(proto, "double %s(eh_tensor *const *parts, int n);\n", name);
        sb_printf(c,
                  "/* Total of every part, one part at a time. */\n"
                  "double %s(eh_tensor *const *parts, int n)\n"
                  "{\n"
                  "    double total = 0.0;\n"
                  "    for (int k = 0; k < n; k++) {\n"
                  "        eh_tensor *s = eh_sum(parts[k], NULL, 0, 0);\n"
                  "        if (!s)\n"
                  "            continue;\n"
                  "        total += eh_item(s) * %g;\n"
                  "        eh_release(s);\n"
                  "    }\n"
                  "    return total;\n"
                  "}\n\n",
                  name, w);
        break;
    case 4: /* narrowing cast of a tensor value: EH301 */
        sb_printf(proto, "float %s(const eh_tensor *x, %s_stats *st);\n", name, mod);
        sb_printf(c,
                  "/* The mean as a float, for the report. */\n"
                  "float %s(const eh_tensor *x, %s_stats *st)\n"
                  "{\n"
                  "    eh_tensor *m = eh_mean(x, NULL, 0, 0);\n"
                  "    float f = (float)eh_item(m);\n"
                  "    int rounded = (int)eh_item(m);\n"
                  "    eh_release(m);\n"
                  "    st->mean = f;\n"
                  "    st->count = rounded + %d;\n"
                  "    return f;\n"
                  "}\n\n",
                  name, mod, k2);
        break;
    case 5: /* integer division into a double: EH302; else after return */
        sb_printf(proto, "double %s(const %s_config *cfg, int64_t blocks);\n", name, mod);
        sb_printf(c,
                  "/* Rows per block, as a ratio. */\n"
                  "double %s(const %s_config *cfg, int64_t blocks)\n"
                  "{\n"
                  "    if (blocks <= 0) {\n"
                  "        return 0.0;\n"
                  "    } else {\n"
                  "        double ratio = cfg->rows / blocks;\n"
                  "        double exact = (double)cfg->cols / (double)blocks;\n"
                  "        return ratio + exact * %g;\n"
                  "    }\n"
                  "}\n\n",
                  name, mod, w);
        break;
    case 6: /* host round trip: EH401 */
        sb_printf(proto, "eh_tensor *%s(const eh_tensor *x);\n", name);
        sb_printf(c,
                  "/* ReLU, the long way round. */\n"
                  "eh_tensor *%s(const eh_tensor *x)\n"
                  "{\n"
                  "    int64_t n = eh_size(x);\n"
                  "    if (n <= 0)\n"
                  "        return NULL;\n"
                  "    double *buf = malloc((size_t)n * sizeof *buf);\n"
                  "    if (!buf)\n"
                  "        return NULL;\n"
                  "    if (eh_to_buffer(x, buf, (size_t)n * sizeof *buf) != EH_OK) {\n"
                  "        free(buf);\n"
                  "        return NULL;\n"
                  "    }\n"
                  "    for (int64_t i = 0; i < n; i++)\n"
                  "        buf[i] = buf[i] > %g ? buf[i] : 0.0;\n"
                  "    const int64_t shape[1] = {n};\n"
                  "    eh_tensor *y = eh_convert_to_tensor(buf, 1, shape, EH_F64);\n"
                  "    free(buf);\n"
                  "    return y;\n"
                  "}\n\n",
                  name, w / 100.0);
        break;
    case 7: /* a branch on the backend (EH103) next to logging it (fine) */
        sb_printf(proto, "int %s(const eh_tensor *x, int verbose);\n", name);
        sb_printf(c,
                  "/* Evaluate early on the deferred backend. */\n"
                  "int %s(const eh_tensor *x, int verbose)\n"
                  "{\n"
                  "    const char *backend = eh_get_backend();\n"
                  "    if (verbose)\n"
                  "        printf(\"running on %%s\\n\", backend);\n"
                  "    if (strcmp(backend, \"lazy\") == 0)\n"
                  "        return eh_eval(x) == EH_OK ? %d : -1;\n"
                  "    return 0;\n"
                  "}\n\n",
                  name, k2);
        break;
    case 8: /* ops only, with an else after return: clean for emberlint */
        sb_printf(proto, "int %s(const eh_tensor *a, const eh_tensor *b, %s_stats *out);\n", name,
                  mod);
        sb_printf(c,
                  "/* Mean of the product a.b. */\n"
                  "int %s(const eh_tensor *a, const eh_tensor *b, %s_stats *out)\n"
                  "{\n"
                  "    if (!a || !b)\n"
                  "        return -1;\n"
                  "    eh_scope_begin();\n"
                  "    eh_tensor *p = eh_matmul(a, b);\n"
                  "    eh_tensor *m = eh_mean(eh_multiply_scalar(p, %g), NULL, 0, 0);\n"
                  "    double v = eh_item(m);\n"
                  "    eh_scope_end();\n"
                  "    if (v != v) {\n"
                  "        return -2;\n"
                  "    } else {\n"
                  "        out->mean = v;\n"
                  "    }\n"
                  "    out->count = eh_size(a);\n"
                  "    return 0;\n"
                  "}\n\n",
                  name, mod, w);
        break;
    case 9: /* plain C: parsing a spec; integer arithmetic everywhere (look-alikes) */
        sb_printf(proto, "int %s(const char *spec, %s_config *cfg);\n", name, mod);
        sb_printf(c,
                  "/* Parse \"rows,cols,iterations\" into cfg. */\n"
                  "int %s(const char *spec, %s_config *cfg)\n"
                  "{\n"
                  "    char buf[%s_LIMIT];\n"
                  "    size_t len = strlen(spec);\n"
                  "    if (len >= sizeof buf)\n"
                  "        return -1;\n"
                  "    memcpy(buf, spec, len + 1);\n"
                  "    int fields = 0;\n"
                  "    for (char *tok = strtok(buf, \",\"); tok; tok = strtok(NULL, \",\")) {\n"
                  "        long v = strtol(tok, NULL, 10);\n"
                  "        switch (fields++) {\n"
                  "        case 0:\n"
                  "            cfg->rows = %s_clamp(v, 1, %d * 1024);\n"
                  "            break;\n"
                  "        case 1:\n"
                  "            cfg->cols = %s_clamp(v * 2 / 2, 1, 4096);\n"
                  "            break;\n"
                  "        default:\n"
                  "            cfg->iterations += (int)(v %% %d);\n"
                  "            break;\n"
                  "        }\n"
                  "    }\n"
                  "    cfg->scale = %s_SCALE(cfg->scale + 1.0);\n"
                  "    return fields;\n"
                  "}\n\n",
                  name, mod, mod, mod, k1, mod, k1 + 1, mod);
        break;
    case 10: /* a suppressed finding, with its reason */
        sb_printf(proto, "void %s(eh_tensor *t, float gain);\n", name);
        sb_printf(c,
                  "/* Scale a host copy in place. */\n"
                  "void %s(eh_tensor *t, float gain)\n"
                  "{\n"
                  "    float *p = eh_data_f32(t);\n"
                  "    int64_t n = eh_size(t);\n"
                  "    for (int64_t i = 0; i < n; i++)\n"
                  "        p[i] *= gain; // emberlint-ignore EH201 -- a host copy, scaled once\n"
                  "    (void)%d;\n"
                  "}\n\n",
                  name, k1);
        break;
    case 11: /* through a typedef, a cast and a macro: EH201 */
        sb_printf(proto, "double %s(eh_tensor *t);\n", name);
        sb_printf(c,
                  "/* Energy of the signal. */\n"
                  "double %s(eh_tensor *t)\n"
                  "{\n"
                  "    %s_real *v = (%s_real *)eh_data(t);\n"
                  "    int64_t n = eh_size(t);\n"
                  "    double e = 0.0;\n"
                  "    for (int64_t i = 0; i < n; i++)\n"
                  "        e += %s_AT(v, i) * %s_AT(v, i);\n"
                  "    return e * %g;\n"
                  "}\n\n",
                  name, mod, mod, mod, mod, w);
        break;
    default: /* random sampling and a softmax: clean */
        sb_printf(proto, "eh_tensor *%s(int64_t rows, int64_t cols, uint64_t seed);\n", name);
        sb_printf(c,
                  "/* Softmax of scaled exponentials of normal samples. */\n"
                  "eh_tensor *%s(int64_t rows, int64_t cols, uint64_t seed)\n"
                  "{\n"
                  "    const int64_t shape[2] = {rows, cols};\n"
                  "    eh_seed(seed + %du);\n"
                  "    eh_scope_begin();\n"
                  "    eh_tensor *x = eh_random_normal(2, shape, 0.0, %g, EH_F32);\n"
                  "    eh_tensor *e = eh_exp(eh_multiply_scalar(eh_tanh(x), 0.25));\n"
                  "    eh_tensor *s = eh_keep(eh_softmax(e, 1));\n"
                  "    eh_scope_end();\n"
                  "    return s;\n"
                  "}\n\n",
                  name, k1 * 17, w);
        break;
    }
}
#define N_KINDS 13

static long write_file(const char *path, const sbuf *b, char *err, size_t cap)
{
    FILE *f = fopen(path, "w");
    if (!f || fwrite(b->s, 1, b->len, f) != b->len) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    if (fclose(f) != 0) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return (long)b->len;
}

long lint_corpus_write(const char *dir, int n_files, char *err, size_t cap)
{
    if (lint_rm_tree(dir) != 0 || lint_mkdir_p(dir) != 0) {
        snprintf(err, cap, "cannot recreate %s: %s", dir, strerror(errno));
        return -1;
    }
    uint64_t rng = 0x243f6a8885a308d3ull; /* fixed: the corpus is always the same */
    long total = 0;
    int n_mods = (n_files + FILES_PER_MODULE - 1) / FILES_PER_MODULE;
    for (int m = 0; m < n_mods; m++) {
        char mod[16], MOD[16], mdir[4096], path[4200];
        snprintf(mod, sizeof mod, "mod%02d", m);
        snprintf(MOD, sizeof MOD, "MOD%02d", m);
        snprintf(mdir, sizeof mdir, "%s/%s", dir, mod);
        if (lint_mkdir_p(mdir) != 0) {
            snprintf(err, cap, "cannot create %s: %s", mdir, strerror(errno));
            return -1;
        }
        sbuf proto = {0};
        int first = m * FILES_PER_MODULE;
        int last = first + FILES_PER_MODULE < n_files ? first + FILES_PER_MODULE : n_files;
        for (int fno = first; fno < last; fno++) {
            sbuf c = {0};
            /* Mostly small files, some large: 3..9 functions, one in five
             * files 10..60. */
            int nfun = rng_below(&rng, 5) == 0 ? 10 + rng_below(&rng, 51) : 3 + rng_below(&rng, 7);
            sb_printf(&c, "/* %s/feature_%03d.c -- generated by bench/reference/lint_corpus.c for the "
                          "lint section of `make bench`. */\n",
                      mod, fno);
            sb_printf(&c, "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                          "#include <string.h>\n#include <eh/eh.h>\n#include \"%s.h\"\n\n", mod);
            sb_printf(&proto, "\n/* feature_%03d.c */\n", fno);
            for (int k = 0; k < nfun; k++) {
                char name[96];
                int kind = rng_below(&rng, N_KINDS);
                snprintf(name, sizeof name, "%s_f%03d_%d", mod, fno, k);
                emit_function(&c, &proto, mod, name, kind, &rng);
            }
            snprintf(path, sizeof path, "%s/feature_%03d.c", mdir, fno);
            if (c.oom) {
                snprintf(err, cap, "out of memory");
                free(c.s);
                free(proto.s);
                return -1;
            }
            long w = write_file(path, &c, err, cap);
            free(c.s);
            if (w < 0) {
                free(proto.s);
                return -1;
            }
            total += w;
        }
        sbuf h = {0};
        sb_printf(&h,
                  "/* %s.h -- generated by bench/reference/lint_corpus.c (make bench). */\n"
                  "#ifndef %s_H\n#define %s_H\n\n"
                  "#include <stddef.h>\n#include <stdint.h>\n#include <eh/eh.h>\n\n"
                  "#define %s_LIMIT 64\n"
                  "#define %s_SCALE(x) ((x) * 0.5)\n"
                  "#define %s_AT(p, i) ((p)[(i)])\n\n"
                  "typedef float %s_real;\n\n"
                  "typedef struct %s_config {\n"
                  "    int64_t rows, cols;\n"
                  "    double scale, bias;\n"
                  "    int iterations;\n"
                  "    const char *name;\n"
                  "} %s_config;\n\n"
                  "typedef struct %s_stats {\n"
                  "    double mean, spread;\n"
                  "    int64_t count;\n"
                  "} %s_stats;\n\n"
                  "static inline int64_t %s_clamp(int64_t v, int64_t lo, int64_t hi)\n"
                  "{\n"
                  "    return v < lo ? lo : v > hi ? hi : v;\n"
                  "}\n",
                  mod, MOD, MOD, mod, mod, mod, mod, mod, mod, mod, mod, mod);
        sb_printf(&h, "%s\n#endif\n", proto.s ? proto.s : "");
        free(proto.s);
        snprintf(path, sizeof path, "%s/%s.h", mdir, mod);
        long w = h.oom ? -1 : write_file(path, &h, err, cap);
        if (h.oom)
            snprintf(err, cap, "out of memory");
        free(h.s);
        if (w < 0)
            return -1;
        total += w;
    }
    return total;
}

long lint_calls_write(const char *path, int n_calls, char *err, size_t cap)
{
    sbuf c = {0};
    sb_printf(&c, "/* generated by bench/reference/lint_corpus.c (make bench): one function of %d\n"
                  " * call sites, most of them backend calls with a fix (EH102). */\n"
                  "#include <eh/eh.h>\n\n"
                  "eh_tensor *eh_blas_add(const eh_tensor *a, const eh_tensor *b);\n"
                  "eh_tensor *eh_blas_multiply(const eh_tensor *a, const eh_tensor *b);\n"
                  "#define ADD(a, b) eh_blas_add((a), (b))\n\n"
                  "void many_calls(eh_tensor *x, eh_tensor *y);\n"
                  "void many_calls(eh_tensor *x, eh_tensor *y)\n{\n",
              n_calls);
    for (int i = 0; i < n_calls; i++) {
        switch (i % 4) {
        case 0: sb_printf(&c, "    eh_release(eh_blas_add(x, y));\n"); break;
        case 1: sb_printf(&c, "    eh_release(eh_blas_multiply(y, x));\n"); break;
        case 2: sb_printf(&c, "    eh_release(ADD(x, y));\n"); break;
        default: sb_printf(&c, "    eh_release(eh_add(x, y));\n"); break;
        }
    }
    sb_printf(&c, "}\n");
    long w = c.oom ? -1 : write_file(path, &c, err, cap);
    if (c.oom)
        snprintf(err, cap, "out of memory");
    free(c.s);
    return w;
}

int lint_corpus_break(const char *dir, int every, char *err, size_t cap)
{
    char **v = NULL;
    size_t n = 0, vcap = 0;
    if (lint_list_c_files(dir, &v, &n, &vcap) != 0) {
        snprintf(err, cap, "cannot read %s", dir);
        return -1;
    }
    int broken = 0;
    for (size_t i = 0; i < n; i++) {
        if (every > 0 && i % (size_t)every == 0) {
            FILE *f = fopen(v[i], "a");
            if (!f || fputs("\n/* broken on purpose */\nint broken_here(int x {\n", f) < 0) {
                snprintf(err, cap, "cannot write %s: %s", v[i], strerror(errno));
                broken = -1;
            }
            if (f && fclose(f) != 0)
                broken = -1;
            if (broken < 0)
                break;
            broken++;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    return broken;
}
