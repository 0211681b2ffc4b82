/* lint/engine/kernels.c -- kernels a library runs are backend code
 * (kernels.h). */
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clang_util.h"
#include "config.h"
#include "mem.h"
#include "metadata.h"

#define FACT_KERNEL "el.kernel"

/* The function an argument names (f, &f, (fn_t)f), or a null cursor. */
static CXCursor named_function(CXCursor arg)
{
    CXCursor e = elc_strip_casts(arg);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator && elc_child_count(e) == 1)
        e = elc_strip_casts(elc_child(e, 0)); /* &f (the only unary operator naming one) */
    CXCursor d = elc_referenced(e);
    if (clang_getCursorKind(d) != CXCursor_FunctionDecl)
        return clang_getNullCursor();
    return d;
}

/* "path\tfirst line\tlast line" of a kernel's definition in this TU. */
static void record(el_ctx *ctx, CXCursor fn)
{
    CXCursor def = clang_getCursorDefinition(fn);
    if (clang_Cursor_isNull(def))
        return; /* defined in another TU: not known here */
    CXSourceRange ext = clang_getCursorExtent(def);
    CXFile f = NULL, g = NULL;
    unsigned first = 0, last = 0;
    clang_getExpansionLocation(clang_getRangeStart(ext), &f, &first, NULL, NULL);
    clang_getExpansionLocation(clang_getRangeEnd(ext), &g, &last, NULL, NULL);
    const char *path = f && f == g ? el_file_path(ctx, f) : NULL;
    if (!path || last < first)
        return;
    char value[4200];
    snprintf(value, sizeof value, "%s\t%u\t%u", path, first, last);
    el_fact(ctx, FACT_KERNEL, value);
}

static void on_call(el_ctx *ctx, void *state, CXCursor call)
{
    (void)state;
    const el_config *cfg = el_ctx_config(ctx);
    if (el_config_list(cfg, EL_KERNEL_REGISTRARS)->n == 0)
        return;
    /* the called name as written (a registrar is called directly; every
     * call of the TU comes here, so nothing more costly) */
    char name[256];
    if (!el_config_list_matches(cfg, EL_KERNEL_REGISTRARS, elc_spelling(call, name, sizeof name)))
        return;
    int n = clang_Cursor_getNumArguments(call);
    for (int i = 0; i < n; i++) {
        CXCursor fn = named_function(clang_Cursor_getArgument(call, (unsigned)i));
        if (!clang_Cursor_isNull(fn))
            record(ctx, fn);
    }
}

static const enum CXCursorKind kinds[] = {CXCursor_CallExpr, EL_KINDS_END};

const el_rule el_kernel_rule = {
    .id = "el-kernels",
    .kinds = kinds,
    .on_cursor = on_call,
    /* a registration in a skipped body names a kernel whose findings only
     * rules that read bodies have; a file they apply to with a function
     * defined in it has the TU's bodies parsed (engine.c) */
    .needs_no_bodies = true,
};

/* ---- the run -------------------------------------------------------------- */

typedef struct kernel {
    char *path;
    unsigned first, last;
} kernel;

/* Does the rule apply to backend code where the finding is (its file's
 * configuration: a project may widen a rule's applies_to)? */
static bool backend_rule(const el_sources *sources, const el_finding *f)
{
    int m = el_meta_index(f->rule);
    if (m < 0)
        return true; /* the engine's own (EH000-EH002 apply everywhere) */
    long s = el_sources_find(sources, f->file);
    unsigned applies = s >= 0 ? sources->v[s].cfg->rules[m].applies : el_meta_at((size_t)m)->applies;
    return applies & EL_APPLIES(EL_FILE_BACKEND);
}

static bool in_kernel(const kernel *k, size_t nk, const el_finding *f)
{
    for (size_t i = 0; i < nk; i++)
        if (f->line >= k[i].first && f->line <= k[i].last && strcmp(f->file, k[i].path) == 0)
            return true;
    return false;
}

void el_forgive_kernels(const el_sources *sources, const el_fact_rec *const *facts, size_t n_facts,
                        el_findings *fs)
{
    size_t nk = 0, cap = 0;
    kernel *k = NULL;
    for (size_t i = 0; i < n_facts; i++) {
        if (strcmp(facts[i]->key, FACT_KERNEL) != 0)
            continue;
        const char *value = facts[i]->value, *tab = strchr(value, '\t');
        unsigned first = 0, last = 0;
        if (!tab || sscanf(tab + 1, "%u\t%u", &first, &last) != 2)
            continue;
        el_grow(&k, &cap, nk + 1, sizeof *k);
        k[nk++] = (kernel){el_xstrndup(value, (size_t)(tab - value)), first, last};
    }
    size_t kept = 0;
    for (size_t j = 0; j < fs->n; j++) {
        if (nk && in_kernel(k, nk, &fs->v[j]) && !backend_rule(sources, &fs->v[j]))
            el_finding_clear(&fs->v[j]);
        else
            fs->v[kept++] = fs->v[j];
    }
    fs->n = kept;
    for (size_t i = 0; i < nk; i++)
        free(k[i].path);
    free(k);
}
