/* lint/change/reparse.c -- a file's errors from a fresh parse (reparse.h). */
#include "reparse.h"

#include <stdlib.h>
#include <string.h>
#include "clang_api.h"

#include "flags.h"
#include "mem.h"
#include "path.h"

/* Errors only: no preprocessing record, but the same recovery as the
 * engine so the same errors come out. */
#define REPARSE_OPTIONS (CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles)

static void add(el_errlist *l, const char *msg)
{
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = el_xstrdup(msg);
}

/* The place of the error just added (a diagnostic's location). */
static void add_where(el_errlist *l, CXDiagnostic d)
{
    char *w = NULL;
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
    if (f && line) {
        CXString s = clang_getFileName(f);
        const char *name = clang_getCString(s);
        if (name && name[0]) {
            char *abs = el_path_abs(name);
            char *shown = el_path_display(abs);
            w = el_xasprintf("%s:%u:%u", shown, line, col);
            free(shown);
            free(abs);
        }
        clang_disposeString(s);
    }
    while (l->n_where + 1 < l->n) { /* (errors added without a place) */
        el_grow(&l->where, &l->cap_where, l->n_where + 1, sizeof *l->where);
        l->where[l->n_where++] = NULL;
    }
    el_grow(&l->where, &l->cap_where, l->n_where + 1, sizeof *l->where);
    l->where[l->n_where++] = w;
}

int el_reparse_errors(const el_compdb *db, const el_source *src, char *const *extra,
                      size_t n_extra, el_errlist *out)
{
    return el_reparse_errors_with(db, src, src->path, extra, n_extra, NULL, 0, false, out);
}

/* Warnings that are errors for a changed file: code that compiled before
 * and now calls something undeclared is broken, whatever C allows. */
static const char *const strict_flags[] = {
    "-Wno-everything",
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=int-conversion",
    "-Werror=incompatible-pointer-types",
    "-Werror=incompatible-function-pointer-types",
};

/* args with its trailing "-w" (el_flags_for) replaced by strict_flags. */
static char **make_strict(char **args, size_t *n)
{
    size_t k = *n;
    if (k && strcmp(args[k - 1], "-w") == 0)
        free(args[--k]);
    size_t ns = sizeof strict_flags / sizeof strict_flags[0];
    args = el_xrealloc(args, (k + ns + 1) * sizeof *args);
    for (size_t i = 0; i < ns; i++)
        args[k++] = el_xstrdup(strict_flags[i]);
    *n = k;
    return args;
}

int el_reparse_errors_with(const el_compdb *db, const el_source *args_src, const char *path,
                           char *const *extra, size_t n_extra,
                           struct CXUnsavedFile *unsaved, unsigned n_unsaved, bool strict,
                           el_errlist *out)
{
    size_t n_args = 0;
    char **args = el_flags_for(db, args_src, extra, n_extra, &n_args, NULL, NULL);
    if (strict)
        args = make_strict(args, &n_args);
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(idx, path, (const char *const *)args,
                                                      (int)n_args, unsaved, n_unsaved,
                                                      REPARSE_OPTIONS, &tu);
    int rc = 0;
    if (ec != CXError_Success || !tu) {
        add(out, "libclang could not parse it");
        rc = -1;
    } else {
        unsigned nd = clang_getNumDiagnostics(tu);
        for (unsigned i = 0; i < nd; i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
                CXString s = clang_getDiagnosticSpelling(d);
                CXString opt = clang_getDiagnosticOption(d, NULL);
                const char *m = clang_getCString(s), *w = clang_getCString(opt);
                /* one of strict_flags': C compiles it, with a warning, so
                 * "does not compile" says why it counts */
                char *said = NULL;
                if (strict && w && w[0])
                    said = el_xasprintf("%s (%s: a warning that a change may not introduce)",
                                        m ? m : "", w);
                add(out, said ? said : m ? m : "");
                add_where(out, d);
                free(said);
                clang_disposeString(opt);
                clang_disposeString(s);
            }
            clang_disposeDiagnostic(d);
        }
        clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(idx);
    el_args_free(args, n_args);
    return rc;
}

/* The index in `after` of its first new error, after->n when none. */
static size_t new_error_index(const el_errlist *before, const el_errlist *after)
{
    bool *used = el_xcalloc(before->n + 1, sizeof *used);
    size_t found = after->n;
    for (size_t i = 0; i < after->n && found == after->n; i++) {
        bool matched = false;
        for (size_t j = 0; j < before->n && !matched; j++) {
            if (!used[j] && strcmp(before->v[j], after->v[i]) == 0) {
                used[j] = true;
                matched = true;
            }
        }
        if (!matched)
            found = i;
    }
    free(used);
    return found;
}

const char *el_errlist_new_error(const el_errlist *before, const el_errlist *after)
{
    size_t i = new_error_index(before, after);
    return i < after->n ? after->v[i] : NULL;
}

const char *el_errlist_new_error_where(const el_errlist *before, const el_errlist *after)
{
    size_t i = new_error_index(before, after);
    return i < after->n && i < after->n_where ? after->where[i] : NULL;
}

void el_errlist_free(el_errlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
    for (size_t i = 0; i < l->n_where; i++)
        free(l->where[i]);
    free(l->where);
    l->where = NULL;
    l->n_where = l->cap_where = 0;
}
