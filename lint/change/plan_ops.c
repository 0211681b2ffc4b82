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

typedef struct call_walk {
    const el_config *cfg;
    char prefix[96];        /* "<lib>_plan_" */
    size_t plen;
    CXCursor target;        /* the variable or member the call's argument names */
    CXFile call_file;
    unsigned call_off;
    bool in_fn;             /* the top-level cursor being walked holds the call */
    bool off_path;          /* in a branch or loop body that does not hold the call */
    bool last;              /* an assignment before the call in its function */
    unsigned last_off;
    int last_kind;          /* its plan: 1 no op, 0 an op, -1 not known */
    char last_name[128];
    bool with_op, without;  /* over every assignment of the target */
    bool other;             /* a value no planner made (a wrapper's, another plan's) */
    char first_without[128];
} call_walk;

static bool offset_of(CXCursor c, CXFile *f, unsigned *off)
{
    clang_getExpansionLocation(clang_getCursorLocation(c), f, NULL, NULL, off);
    return *f != NULL;
}

/* A null pointer constant (NULL, 0, nullptr): no plan yet. */
static bool null_constant(CXCursor e)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    return k == CXCursor_IntegerLiteral || k == CXCursor_GNUNullExpr ||
           k == CXCursor_CXXNullPtrLiteralExpr;
}

/* value is assigned to w->target: note its planner (a value no planner
 * makes, but a null one, leaves the plan not known) */
static void assigned(call_walk *w, CXCursor where, CXCursor value)
{
    value = elc_strip_casts(value);
    char name[128], use[256];
    int kind = -1;
    if (clang_getCursorKind(value) == CXCursor_CallExpr &&
        elc_callee_name(value, name, sizeof name) && strncmp(name, w->prefix, w->plen) == 0)
        kind = el_symbol_replacement(w->cfg, name, use, sizeof use) ? 0 : 1;
    else if (null_constant(value))
        return;
    if (kind == 0)
        w->with_op = true;
    else if (kind < 0)
        w->other = true;
    else if (!w->without) {
        w->without = true;
        snprintf(w->first_without, sizeof w->first_without, "%s", name);
    }
    CXFile f;
    unsigned off;
    if (w->in_fn && !w->off_path && offset_of(where, &f, &off) &&
        clang_File_isEqual(f, w->call_file) && off < w->call_off && (!w->last || off > w->last_off)) {
        w->last = true;
        w->last_off = off;
        w->last_kind = kind;
        snprintf(w->last_name, sizeof w->last_name, "%s", kind > 0 ? name : "");
    }
}

/* Does c's text hold the call? */
static bool holds_call(const call_walk *w, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb, fe;
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    return fb && clang_File_isEqual(fb, w->call_file) && b <= w->call_off && w->call_off < e;
}

static enum CXChildVisitResult visit_branch(CXCursor c, CXCursor parent, CXClientData ud);

static enum CXChildVisitResult visit_assign(CXCursor c, CXCursor parent, CXClientData ud)
{
    (void)parent;
    call_walk *w = ud;
    enum CXCursorKind k = clang_getCursorKind(c);
    char op[8];
    if (k == CXCursor_BinaryOperator && elc_binary_operator(c, op, sizeof op) &&
        strcmp(op, "=") == 0 &&
        clang_equalCursors(elc_referenced(elc_child(c, 0)), w->target))
        assigned(w, c, elc_child(c, 1));
    else if (k == CXCursor_VarDecl && clang_equalCursors(c, w->target)) {
        unsigned n = elc_child_count(c);
        if (n)
            assigned(w, c, elc_child(c, n - 1));
    }
    if (k == CXCursor_IfStmt || k == CXCursor_SwitchStmt || k == CXCursor_ForStmt ||
        k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_ConditionalOperator) {
        /* an assignment in a part that does not hold the call (the other
         * branch, a loop body before it) may not run before it */
        clang_visitChildren(c, visit_branch, w);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/* c, a part of a branch or loop */
static enum CXChildVisitResult visit_branch(CXCursor c, CXCursor parent, CXClientData ud)
{
    call_walk *w = ud;
    bool was = w->off_path;
    w->off_path = was || !holds_call(w, c);
    if (visit_assign(c, parent, ud) == CXChildVisit_Recurse)
        clang_visitChildren(c, visit_assign, w);
    w->off_path = was;
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData ud)
{
    call_walk *w = ud;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    w->in_fn = holds_call(w, c);
    w->off_path = false;
    if (visit_assign(c, parent, ud) == CXChildVisit_Recurse)
        clang_visitChildren(c, visit_assign, w);
    return CXChildVisit_Continue;
}

int el_call_plans_without_op(CXTranslationUnit tu, const el_config *cfg, const char *executor,
                             CXCursor call, char *planner, size_t n)
{
    static const char suffix[] = "_execute";
    size_t len = strlen(executor), sl = sizeof suffix - 1;
    planner[0] = '\0';
    if (!tu || len <= sl || strcmp(executor + len - sl, suffix) != 0 || len - sl + 7 > 90 ||
        clang_getCursorKind(call) != CXCursor_CallExpr || elc_child_count(call) < 2)
        return -1;
    call_walk w = {.cfg = cfg};
    w.target = elc_referenced(elc_child(call, 1));
    enum CXCursorKind tk = clang_getCursorKind(w.target);
    if (tk != CXCursor_VarDecl && tk != CXCursor_ParmDecl && tk != CXCursor_FieldDecl)
        return -1;
    if (!offset_of(call, &w.call_file, &w.call_off))
        return -1;
    snprintf(w.prefix, sizeof w.prefix, "%.*s_plan_", (int)(len - sl), executor);
    w.plen = strlen(w.prefix);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &w);
    if (w.last) {
        if (w.last_kind <= 0)
            return w.last_kind;
        snprintf(planner, n, "%s", w.last_name);
        return 1;
    }
    if (w.other || w.with_op == w.without)
        return -1; /* a plan not known, planners of both kinds, or none */
    if (w.with_op)
        return 0;
    snprintf(planner, n, "%s", w.first_without);
    return 1;
}
