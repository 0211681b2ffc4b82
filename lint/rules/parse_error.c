/* lint/rules/parse_error.c -- EH000 parse-error: a file that does not
 * parse, reported at its first real error (clang's message, and how many
 * more errors the file has).
 *
 * Per TU: the errors are sorted into the linted files they are in; an
 * error inside an external header counts at the #include of a linted
 * file that leads to it; clang's "too many errors emitted" (no place of
 * its own) is not an error of any file.  A .c file's errors are reported
 * at once.  A header's are not: the TU records, as facts, the first
 * error of each linted header it saw failing, and -- when the whole TU
 * parses -- each linted header it read.  The project hook then reports a header once, at
 * the header, when it failed wherever it was parsed; a header that parses
 * in some TU (alone, or in another includer) is not blamed -- each TU it
 * failed in is reported instead, at the #include of its main file that
 * leads to it (that file includes the header without what it needs),
 * unless the main file has errors of its own, reported already.  A
 * header that fails only in headers parsed on their own (no source file of
 * this configuration reaches it) is not reported when it parses in
 * another file, or when a linted file or a source file next to it
 * #includes it, even where the preprocessor skipped it (written to follow
 * other includes, never compiled in this configuration). */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clang_util.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "rule.h"

#define FACT_FAIL "EH000.fail"
#define FACT_OK "EH000.ok"
/* How far up a chain of headers (each failing in the other's parse) an
 * includer that is not linted may excuse them. */
#define CHAIN_DEPTH 4

typedef struct file_errors {
    CXFile file;               /* the linted file the errors count in */
    unsigned offset;           /* of its first error */
    CXSourceLocation at;
    CXSourceLocation subject;  /* where the first error's expression starts */
    char first[700];
    unsigned count;
    char hint[300];            /* what the first error comes from, or "" */
} file_errors;


typedef struct include_site {
    CXFile file;
    CXSourceLocation at;       /* where the first linted file on its stack includes it */
    bool found;
    CXSourceLocation in_main;  /* where the main file includes it (stack bottom) */
    bool has_main;
} include_site;

typedef struct inclusions {
    el_ctx *ctx;
    include_site *v;
    size_t n, cap;
} inclusions;

static void on_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    inclusions *in = d;
    el_grow(&in->v, &in->cap, in->n + 1, sizeof *in->v);
    include_site *s = &in->v[in->n++];
    memset(s, 0, sizeof *s);
    s->file = f;
    for (unsigned i = 0; i < n && !s->found; i++) {
        if (el_is_linted(in->ctx, stack[i])) {
            s->at = stack[i];
            s->found = true;
        }
    }
    if (n > 0) {
        s->in_main = stack[n - 1];
        s->has_main = true;
    }
}

static const include_site *site_of(const inclusions *in, CXFile f)
{
    for (size_t k = 0; k < in->n; k++)
        if (clang_File_isEqual(in->v[k].file, f))
            return &in->v[k];
    return NULL;
}

/* clang's own notice that it stopped: not an error of the code. */
static bool is_stop_notice(const char *msg)
{
    return strstr(msg, "too many errors emitted") != NULL;
}

static file_errors *errors_of(file_errors **v, size_t *n, size_t *cap, CXFile f)
{
    for (size_t k = 0; k < *n; k++)
        if (clang_File_isEqual((*v)[k].file, f))
            return &(*v)[k];
    el_grow(v, cap, *n + 1, sizeof **v);
    file_errors *e = &(*v)[(*n)++];
    memset(e, 0, sizeof *e);
    e->file = f;
    return e;
}

/* "does not parse: MSG (and N more errors); HINT" into buf. */
static void describe(const file_errors *e, char *buf, size_t n)
{
    if (e->count > 1)
        snprintf(buf, n, "%s (and %u more error%s)%s%s", e->first, e->count - 1,
                 e->count > 2 ? "s" : "", e->hint[0] ? "; " : "", e->hint);
    else
        snprintf(buf, n, "%s%s%s", e->first, e->hint[0] ? "; " : "", e->hint);
}

static bool token_is(CXTranslationUnit tu, CXToken t, const char *text)
{
    char s[4];
    elc_string(clang_getTokenSpelling(tu, t), s, sizeof s);
    return strcmp(s, text) == 0;
}

/* The function whose call the error's expression (starting at `at`) is,
 * when C declared it implicitly (clang 14 only warns, and the parse runs
 * with -w): the call starts there, after opening parentheses only
 * (`v = F(p)`, `(F(p))`: the int it returns is what does not fit).  Its
 * declaration is where a call first names it, where no written
 * declaration is.  A call elsewhere on the line is not the error's. */
static bool implicit_at(CXTranslationUnit tu, CXSourceLocation at, char *name, size_t n)
{
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(at, &f, &line, &col, NULL);
    if (!f || !line)
        return false;
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocation(tu, f, line, col),
                                      clang_getLocation(tu, f, line + 1, 1)),
                   &toks, &nt);
    unsigned i = 0;
    while (i < nt && clang_getTokenKind(toks[i]) == CXToken_Punctuation && token_is(tu, toks[i], "("))
        i++;
    bool found = false;
    if (i + 1 < nt && clang_getTokenKind(toks[i]) == CXToken_Identifier &&
        token_is(tu, toks[i + 1], "(")) {
        CXSourceLocation tl = clang_getTokenLocation(tu, toks[i]);
        CXCursor use = clang_getCursor(tu, tl);
        CXCursor fn = clang_getCursorReferenced(use);
        /* (implicit: returning int, declared where a call names it, this
         * one or an earlier one: an expression is there, not a written
         * declaration nor a macro that writes one, as <math.h>'s do) */
        CXCursor at_decl = clang_getCursor(tu, clang_getCursorLocation(fn));
        if (clang_getCursorKind(use) != CXCursor_FunctionDecl &&
            clang_getCursorKind(fn) == CXCursor_FunctionDecl &&
            clang_getCursorResultType(fn).kind == CXType_Int &&
            clang_isExpression(clang_getCursorKind(at_decl))) {
            elc_spelling(fn, name, n);
            found = name[0] != '\0';
        }
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return found;
}

/* The family of a compiler's intrinsics header that only one kind of
 * target has, by its name ("ARM" for arm_neon.h), or NULL. */
static const char *intrinsics_family(const char *base)
{
    static const char *const arm[] = {"arm_neon.h", "arm_sve.h", "arm_mve.h", "arm_fp16.h",
                                      "arm_bf16.h", "arm_acle.h", "arm_cde.h", "arm_cmse.h",
                                      "arm_neon_sve_bridge.h", NULL};
    for (const char *const *a = arm; *a; a++)
        if (strcmp(base, *a) == 0)
            return "ARM";
    if (strcmp(base, "altivec.h") == 0 || strcmp(base, "htmintrin.h") == 0)
        return "PowerPC";
    if (strcmp(base, "riscv_vector.h") == 0)
        return "RISC-V";
    if (strcmp(base, "msa.h") == 0)
        return "MIPS";
    if (strcmp(base, "wasm_simd128.h") == 0)
        return "WebAssembly";
    size_t n = strlen(base);
    if (strcmp(base, "x86intrin.h") == 0 || strcmp(base, "cpuid.h") == 0 ||
        (n >= 10 && strcmp(base + n - 10, "mmintrin.h") == 0) ||
        (n > 8 && strncmp(base, "avx", 3) == 0 && strcmp(base + n - 8, "intrin.h") == 0))
        return "x86";
    return NULL;
}

/* Does the TU's target (its triple's architecture) belong to family? */
static bool target_is(const char *arch, const char *family)
{
    if (strcmp(family, "ARM") == 0)
        return strncmp(arch, "arm", 3) == 0 || strncmp(arch, "aarch64", 7) == 0 ||
               strncmp(arch, "thumb", 5) == 0;
    if (strcmp(family, "PowerPC") == 0)
        return strncmp(arch, "powerpc", 7) == 0 || strncmp(arch, "ppc", 3) == 0;
    if (strcmp(family, "RISC-V") == 0)
        return strncmp(arch, "riscv", 5) == 0;
    if (strcmp(family, "MIPS") == 0)
        return strncmp(arch, "mips", 4) == 0;
    if (strcmp(family, "WebAssembly") == 0)
        return strncmp(arch, "wasm", 4) == 0;
    return strcmp(arch, "x86_64") == 0 || (arch[0] == 'i' && strcmp(arch + 2, "86") == 0);
}

/* The architecture of the TU's target triple ("x86_64"), or "". */
static void target_arch(CXTranslationUnit tu, char *arch, size_t n)
{
    arch[0] = '\0';
    CXTargetInfo ti = clang_getTranslationUnitTargetInfo(tu);
    if (!ti)
        return;
    char triple[128];
    elc_string(clang_TargetInfo_getTriple(ti), triple, sizeof triple);
    clang_TargetInfo_dispose(ti);
    snprintf(arch, n, "%.*s", (int)strcspn(triple, "-"), triple);
}

/* main_failed: the TU's main file has errors of its own, which explain
 * the header's (no blame needed). */
static void record_header(el_ctx *ctx, const inclusions *in, const file_errors *e, bool main_failed)
{
    char path[PATH_MAX], msg[1100];
    const char *real = el_file_path(ctx, e->file);
    if (!real)
        elc_file_name(e->file, path, sizeof path);
    unsigned line = 0, col = 0, il = 0, ic = 0;
    elc_location(e->at, NULL, &line, &col);
    const include_site *s = site_of(in, e->file);
    if (s && s->has_main && !main_failed)
        clang_getExpansionLocation(s->in_main, NULL, &il, &ic, NULL);
    describe(e, msg, sizeof msg);
    char *value = el_xasprintf("%s\t%u\t%u\t%u\t%u\t%d\t%s", real ? real : path, line, col, il, ic,
                               el_main_is_header(ctx), msg);
    el_fact(ctx, FACT_FAIL, value);
    free(value);
}

/* A TU without errors: the linted headers it read parse. */
static void all_clean(el_ctx *ctx)
{
    const CXFile *files = NULL;
    size_t n = el_tu_files(ctx, &files);
    for (size_t k = el_main_is_header(ctx) ? 0 : 1; k < n; k++) {
        const char *real = el_file_path(ctx, files[k]);
        if (real && el_file_class_of(ctx, files[k], NULL) != EL_FILE_EXTERNAL)
            el_fact(ctx, FACT_OK, real);
    }
}

static void begin(el_ctx *ctx, void *state)
{
    (void)state;
    CXTranslationUnit tu = el_tu(ctx);
    if (!elc_tu_has_errors(tu)) {
        all_clean(ctx); /* (the common case: no include stacks to read) */
        return;
    }
    unsigned nd = clang_getNumDiagnostics(tu);
    inclusions in = {ctx, NULL, 0, 0};
    clang_getInclusions(tu, on_inclusion, &in);
    file_errors *errs = NULL;
    size_t n_errs = 0, cap_errs = 0;
    CXFile main = clang_getFile(tu, el_main_file(ctx));
    char arch[32] = "";
    bool arch_read = false;

    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error) {
            clang_disposeDiagnostic(d);
            continue;
        }
        char msg[512];
        elc_string(clang_getDiagnosticSpelling(d), msg, sizeof msg);
        CXSourceLocation loc = clang_getDiagnosticLocation(d);
        /* the expression the error is about: its first range (`v = F(p)`
         * points at the `=` and ranges over `F(p)`), else its place */
        CXSourceLocation subject =
            clang_getDiagnosticNumRanges(d) ? clang_getRangeStart(clang_getDiagnosticRange(d, 0)) : loc;
        clang_disposeDiagnostic(d);
        CXFile f = NULL;
        unsigned off = 0;
        clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
        if (!f && is_stop_notice(msg))
            continue;
        CXSourceLocation at = loc;
        char text[700], hint[300] = "";
        snprintf(text, sizeof text, "%s", msg);
        if (!f || !el_is_linted(ctx, loc)) {
            /* In an external file, or no file (a bad compiler argument):
             * where a linted file includes it, else the top of the main
             * file. */
            const include_site *s = f ? site_of(&in, f) : NULL;
            if (s && s->found)
                at = s->at;
            else
                at = clang_getLocation(tu, main, 1, 1);
            subject = at; /* (the error's expression is not in a linted file) */
            if (f) {
                /* Shown relative to the current directory: safe, since the
                 * cache's keys include it. */
                char name[PATH_MAX];
                const char *real = el_file_path(ctx, f);
                char *shown = real ? el_path_display(real) : NULL;
                elc_file_name(f, name, sizeof name);
                snprintf(text, sizeof text, "in included file '%.300s': %.370s",
                         shown ? shown : name, msg);
                free(shown);
                /* a compiler's intrinsics header of another kind of target
                 * (arm_neon.h parsed for x86_64): its own message advises
                 * flags of that target */
                const char *family = clang_Location_isInSystemHeader(loc)
                                         ? intrinsics_family(el_path_base(name))
                                         : NULL;
                if (family && !arch_read) {
                    target_arch(tu, arch, sizeof arch);
                    arch_read = true;
                }
                if (family && arch[0] && !target_is(arch, family))
                    snprintf(hint, sizeof hint,
                             "'%s' is an intrinsics header for %s targets and this parse is for "
                             "%s: lint the file with its target's flags (-- --target=..., and "
                             "that target's headers) or leave it out (exclude)",
                             el_path_base(name), family, arch);
            }
            f = NULL;
            clang_getExpansionLocation(at, &f, NULL, NULL, &off);
            if (!f)
                continue;
        }
        if (!hint[0] && strstr(msg, "'omp.h' file not found"))
            snprintf(hint, sizeof hint,
                     "<omp.h> is OpenMP's header, which libclang takes from clang's own "
                     "(Debian: apt-get install libomp-14-dev; emberlint parses OpenMP code as "
                     "plain C, docs/emberlint.md)");
        file_errors *e = errors_of(&errs, &n_errs, &cap_errs, f);
        if (e->count == 0 || off < e->offset) {
            e->offset = off;
            e->at = at;
            e->subject = subject;
            snprintf(e->first, sizeof e->first, "%s", text);
            snprintf(e->hint, sizeof e->hint, "%s", hint);
        }
        e->count++;
    }
    /* A first error about a call C declared implicitly (returning int):
     * that call is its cause. */
    for (size_t k = 0; k < n_errs; k++) {
        file_errors *e = &errs[k];
        char fn[128];
        if (!e->hint[0] && implicit_at(tu, e->subject, fn, sizeof fn))
            snprintf(e->hint, sizeof e->hint,
                     "'%.90s' is not declared in this configuration (C declared it implicitly, "
                     "returning int): a misspelled name, a missing #include, or an intrinsic "
                     "or macro the build's flags provide (-m..., -D..., -I...)",
                     fn);
    }
    /* Each linted file: reported now (a .c file), or facts (headers). */
    bool main_header = el_main_is_header(ctx), main_failed = false;
    for (size_t k = 0; k < n_errs; k++)
        main_failed |= clang_File_isEqual(errs[k].file, main);
    for (size_t k = 0; k < n_errs; k++) {
        file_errors *e = &errs[k];
        if (clang_File_isEqual(e->file, main) && !main_header) {
            char msg[1100];
            describe(e, msg, sizeof msg);
            el_report_loc(ctx, e->at, "does not parse: %s", msg);
        } else {
            record_header(ctx, &in, e, main_failed);
        }
    }
    /* The headers this TU shows to parse: only a TU without any error
     * says so (after a missing include, clang does not repeat the error
     * in the next header that includes the same file). */
    CXFile *clean = el_xcalloc(in.n + 2, sizeof *clean);
    size_t n_clean = 0;
    if (n_errs)
        in.n = 0;
    if (main_header)
        clean[n_clean++] = main;
    /* (by file, not by location: a location makes libclang map the
     * lines of every included file) */
    for (size_t k = 0; k < in.n; k++)
        if (in.v[k].has_main && el_file_class_of(ctx, in.v[k].file, NULL) != EL_FILE_EXTERNAL)
            clean[n_clean++] = in.v[k].file;
    for (size_t c = 0; c < n_clean; c++) {
        bool failed = false;
        for (size_t k = 0; k < n_errs && !failed; k++)
            failed = clang_File_isEqual(errs[k].file, clean[c]);
        const char *real = el_file_path(ctx, clean[c]);
        if (!failed && real)
            el_fact(ctx, FACT_OK, real);
    }
    free(clean);
    free(errs);
    free(in.v);
}

static void parse_failed(el_ctx *ctx, const char *reason)
{
    el_report_at(ctx, el_main_file(ctx), 1, 1, "does not parse: %s", reason);
}

/* ---- the project: headers ------------------------------------------------------- */

/* path, opened for reading when it is a regular file: the directory's
 * other entries are read, and a FIFO named *.c would block the run (the
 * open does not wait for a writer; the check is on what was opened). */
static FILE *open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fcntl(fd, F_SETFL, 0) == 0)
        f = fdopen(fd, "r");
    if (!f)
        close(fd);
    return f;
}

/* The file #includes a header named base (even in a skipped #if). */
static bool file_includes(const char *path, const char *base)
{
    FILE *f = open_regular(path);
    if (!f)
        return false;
    size_t bl = strlen(base);
    char line[4096];
    bool hit = false;
    while (!hit && fgets(line, sizeof line, f)) {
        const char *q = line + strspn(line, " \t");
        if (*q != '#')
            continue;
        q += 1 + strspn(q + 1, " \t");
        if (strncmp(q, "include", 7) != 0)
            continue;
        for (const char *m = strstr(q, base); m && !hit; m = strstr(m + 1, base)) {
            char before = m > q ? m[-1] : ' ', after = m[bl];
            hit = (before == '"' || before == '<' || before == '/') && (after == '"' || after == '>');
        }
    }
    fclose(f);
    return hit;
}

/* A C, C++ or CUDA source or header, by its name. */
static bool source_name(const char *name)
{
    return el_path_has_ext(name, ".c") || el_path_is_header(name) || el_path_is_cxx(name) ||
           el_path_has_ext(name, ".cu") || el_path_has_ext(name, ".cuh");
}

/* Who may give a header the context it was written for: its includers,
 * except a header parsed on its own in which the header failed too --
 * such an includer counts only when it has an includer of its own (a
 * chain of headers written for a file that is not linted).  Two C++
 * headers linted as C, one including the other, are then reported, not
 * each excused by the other. */
typedef struct context_query {
    const el_project *p;
    const char *header, *base;
    const char *const *failed_in;  /* the TUs (header main files) it failed in */
    size_t n_failed_in;
    int depth;
} context_query;

static bool has_includer(const el_project *p, const char *header, const char *const *failed_in,
                         size_t n_failed_in, int depth);

static bool gives_context(const context_query *q, const char *path)
{
    if (strcmp(path, q->header) == 0 || !file_includes(path, q->base))
        return false;
    for (size_t k = 0; k < q->n_failed_in; k++)
        if (strcmp(path, q->failed_in[k]) == 0)
            /* (the same TUs up the chain: an include cycle or a longer
             * chain of such headers excuses nothing either) */
            return q->depth > 0 &&
                   has_includer(q->p, path, q->failed_in, q->n_failed_in, q->depth - 1);
    return true;
}

/* A C or C++ source or header in dir (not under it) gives the context. */
static bool dir_includes(const context_query *q, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool hit = false;
    struct dirent *e;
    while (!hit && (e = readdir(d))) {
        if (strcmp(e->d_name, q->base) == 0 || !source_name(e->d_name))
            continue;
        char *path = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (path) {
            sprintf(path, "%s/%s", dir, e->d_name);
            hit = gives_context(q, path);
            free(path);
        }
    }
    closedir(d);
    return hit;
}

/* Does a linted file other than the header, or a source file next to it
 * (linted or not: a .cu file, a source the build leaves out), #include it
 * by its name, even where the preprocessor skipped it?  A header written
 * to be included after others -- and reached by no TU in this
 * configuration -- is not blamed for failing on its own. */
static bool has_includer(const el_project *p, const char *header, const char *const *failed_in,
                         size_t n_failed_in, int depth)
{
    const char *slash = strrchr(header, '/');
    context_query q = {p, header, slash ? slash + 1 : header, failed_in, n_failed_in, depth};
    for (size_t i = 0; i < el_project_file_count(p); i++)
        if (gives_context(&q, el_project_file(p, i)))
            return true;
    /* the sources next to it, and one directory up (src/x/vendors/h.h
     * included by src/x/common.cuh) */
    char *dir = slash ? strndup(header, (size_t)(slash - header)) : NULL;
    bool hit = dir && dir_includes(&q, dir);
    char *up = dir ? strrchr(dir, '/') : NULL;
    if (!hit && up && up != dir) {
        *up = '\0';
        hit = dir_includes(&q, dir);
    }
    free(dir);
    return hit;
}

typedef struct failure {
    const char *tu;            /* the TU's main file */
    char *header;
    unsigned line, col, il, ic;
    bool in_header_tu;         /* the TU is a header parsed on its own */
    const char *msg;           /* points into header's buffer */
} failure;

static int split_failure(const char *tu, const char *value, failure *f)
{
    memset(f, 0, sizeof *f);
    f->tu = tu;
    f->header = strdup(value);
    if (!f->header)
        return -1;
    char *fields[7];
    char *p = f->header;
    for (int k = 0; k < 7; k++) {
        fields[k] = p;
        char *tab = k < 6 ? strchr(p, '\t') : NULL;
        if (k < 6 && !tab) {
            free(f->header);
            return -1;
        }
        if (tab) {
            *tab = '\0';
            p = tab + 1;
        }
    }
    f->line = (unsigned)strtoul(fields[1], NULL, 10);
    f->col = (unsigned)strtoul(fields[2], NULL, 10);
    f->il = (unsigned)strtoul(fields[3], NULL, 10);
    f->ic = (unsigned)strtoul(fields[4], NULL, 10);
    f->in_header_tu = fields[5][0] == '1';
    f->msg = fields[6];
    return 0;
}

static void project(el_project *p)
{
    size_t n = el_project_fact_count(p);
    failure *fails = calloc(n + 1, sizeof *fails);
    const char **oks = calloc(n + 1, sizeof *oks);
    size_t n_fails = 0, n_oks = 0;
    for (size_t i = 0; i < n && fails && oks; i++) {
        const char *file = NULL, *key = NULL, *value = NULL;
        el_project_fact(p, i, &file, &key, &value);
        if (strcmp(key, FACT_OK) == 0)
            oks[n_oks++] = value;
        else if (strcmp(key, FACT_FAIL) == 0 && split_failure(file, value, &fails[n_fails]) == 0)
            n_fails++;
    }
    for (size_t i = 0; i < n_fails; i++) {
        const failure *f = &fails[i];
        bool parses_elsewhere = false;
        for (size_t k = 0; k < n_oks && !parses_elsewhere; k++)
            parses_elsewhere = strcmp(oks[k], f->header) == 0;
        if (parses_elsewhere) {
            /* blame the file that includes it without what it needs */
            if (f->il) {
                char *shown = el_path_display(f->header);
                el_project_report(p, f->tu, f->il, f->ic, "does not parse: in included file "
                                  "'%s': %s (the header parses elsewhere: this file lacks "
                                  "what it needs before the #include)", shown, f->msg);
                free(shown);
            }
            continue;
        }
        /* parsed only in headers parsed on their own (no source file of
         * this configuration reaches it), and written for an includer */
        bool alone = true;
        const char **failed_in = calloc(n_fails + 1, sizeof *failed_in);
        size_t n_failed_in = 0;
        for (size_t k = 0; k < n_fails && alone; k++) {
            if (strcmp(fails[k].header, f->header) != 0)
                continue;
            alone = fails[k].in_header_tu;
            if (failed_in)
                failed_in[n_failed_in++] = fails[k].tu;
        }
        /* (a header named on the command line is asked about: no excuse) */
        bool includer = alone && has_includer(p, f->header, failed_in, n_failed_in, CHAIN_DEPTH);
        bool excused = includer && !el_project_file_named(p, f->header);
        free(failed_in);
        if (excused)
            continue;
        /* once, at the header: its first error, the earliest TU's on a tie */
        bool first = true;
        for (size_t k = 0; k < n_fails && first; k++) {
            const failure *g = &fails[k];
            if (k == i || strcmp(g->header, f->header) != 0)
                continue;
            first = g->line > f->line || (g->line == f->line && (g->col > f->col || (g->col == f->col && k > i)));
        }
        /* parsed alone, a header for another platform or build (inline
         * asm for another CPU) fails: say how it was parsed */
        if (first)
            el_project_report(p, f->header, f->line, f->col, "does not parse: %s%s", f->msg,
                              !alone     ? ""
                              : includer ? " (parsed on its own: the files that include it do "
                                           "not reach it in this build; lint it through them, "
                                           "with the flags of a build that does)"
                                         : " (parsed on its own, as no linted source file "
                                           "includes it: give the flags of a build that "
                                           "compiles it, or exclude it)");
    }
    for (size_t i = 0; i < n_fails; i++)
        free(fails[i].header);
    free(fails);
    free(oks);
}

const el_rule el_rule_parse_error = {
    .id = "EH000",
    .begin = begin,
    .parse_failed = parse_failed,
    .project = project,
    /* the errors libclang finds: inside a skipped body it finds none, and
     * no rule's finding depends on them (docs/rules/EH000.md) */
    .needs_no_bodies = true,
};
