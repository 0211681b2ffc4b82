/* lint/change/plan_ops.c -- whether the plans a translation unit makes
 * have a libeh op.  FFTW runs every plan with one function
 * (fftwf_execute), whose replacement can only name the ops some plans
 * map to (eh_rfft or eh_irfft); a file whose plans are complex DFTs
 * (fftwf_plan_dft_1d) or real-to-real transforms, which no op does, gets
 * advice naming them instead.  Read from the calls of the translation
 * unit outside system headers -- the file and the templates it includes
 * (`spectrum.proto.c` included once per precision) -- through macros too
 * (`#define FFT_CREATE_PLAN fftwf_plan_dft_1d`). */
#include "plan_ops.h"

#include <stdio.h>
#include <string.h>

#include "clang_util.h"
#include "rule.h"

typedef struct plan_walk {
    const el_config *cfg;
    char prefix[96];        /* "<lib>_plan_" */
    size_t plen;
    bool with_op;           /* a planner an op replaces */
    char without[128];      /* the first planner none replaces */
} plan_walk;

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData ud)
{
    plan_walk *w = ud;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
        clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    char name[128], use[256];
    if (elc_callee_name(c, name, sizeof name) && strncmp(name, w->prefix, w->plen) == 0) {
        if (el_symbol_replacement(w->cfg, name, use, sizeof use))
            w->with_op = true;
        else if (!w->without[0])
            snprintf(w->without, sizeof w->without, "%s", name);
    }
    return w->with_op ? CXChildVisit_Break : CXChildVisit_Recurse;
}

bool el_plans_without_op(CXTranslationUnit tu, const el_config *cfg, const char *executor,
                         char *planner, size_t n)
{
    static const char suffix[] = "_execute";
    size_t len = strlen(executor), sl = sizeof suffix - 1;
    planner[0] = '\0';
    if (!tu || len <= sl || strcmp(executor + len - sl, suffix) != 0 || len - sl + 7 > 90)
        return false;
    plan_walk w = {.cfg = cfg};
    snprintf(w.prefix, sizeof w.prefix, "%.*s_plan_", (int)(len - sl), executor);
    w.plen = strlen(w.prefix);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &w);
    if (w.with_op || !w.without[0])
        return false;
    snprintf(planner, n, "%s", w.without);
    return true;
}
