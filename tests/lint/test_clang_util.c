/* tests/lint/test_clang_util.c -- the libclang helpers rules share
 * (lint/engine/clang_util.h): operators (libclang 14 has no opcode API),
 * callees through macros, aliases and typedefs, locations, types. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "clang_api.h"

#include "lint_test.h"
#include "clang_util.h"

typedef struct parsed {
    CXIndex idx;
    CXTranslationUnit tu;
} parsed;

static parsed parse(const char *code)
{
    parsed p;
    p.idx = clang_createIndex(0, 0);
    struct CXUnsavedFile f = {"/virtual/t.c", code, (unsigned long)strlen(code)};
    const char *args[] = {"-std=c11", "-w"};
    enum CXErrorCode e = clang_parseTranslationUnit2(p.idx, "/virtual/t.c", args, 2, &f, 1,
                                                     CXTranslationUnit_DetailedPreprocessingRecord, &p.tu);
    assert_int_equal(e, CXError_Success);
    return p;
}

static void dispose(parsed *p)
{
    clang_disposeTranslationUnit(p->tu);
    clang_disposeIndex(p->idx);
}

typedef struct collect {
    enum CXCursorKind kind, kind2;
    CXCursor found[64];
    unsigned n;
} collect;

static enum CXChildVisitResult collect_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    collect *col = d;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == col->kind || k == col->kind2) && col->n < 64)
        col->found[col->n++] = c;
    return CXChildVisit_Recurse;
}

/* Cursors of a kind (or two) in tree preorder. */
static collect find2(parsed *p, enum CXCursorKind kind, enum CXCursorKind kind2)
{
    collect col;
    memset(&col, 0, sizeof col);
    col.kind = kind;
    col.kind2 = kind2;
    clang_visitChildren(clang_getTranslationUnitCursor(p->tu), collect_visit, &col);
    return col;
}

static collect find(parsed *p, enum CXCursorKind kind)
{
    return find2(p, kind, kind);
}

/* The operators of every binary/compound-assign operator, in tree
 * preorder, joined by spaces ("?" when unknown). */
static void binary_ops(parsed *p, char *out, size_t n)
{
    out[0] = '\0';
    collect all = find2(p, CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator);
    for (unsigned i = 0; i < all.n; i++) {
        char op[8];
        if (!elc_binary_operator(all.found[i], op, sizeof op))
            strcpy(op, "?");
        strncat(out, out[0] ? " " : "", n - strlen(out) - 1);
        strncat(out, op, n - strlen(out) - 1);
    }
}

/* check_binary with the TU's macro spans in use, as in the engine's walk. */
static void check_binary_spans(const char *code, const char *want)
{
    parsed p = parse(code);
    elc_macro_spans *m = elc_macro_spans_new(p.tu);
    elc_macro_spans_use(m);
    char got[512];
    binary_ops(&p, got, sizeof got);
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    if (strcmp(got, want) != 0) {
        print_error("code: %s\ngot:  [%s]\nwant: [%s]\n", code, got, want);
        fail();
    }
    dispose(&p);
}

static void check_binary(const char *code, const char *want)
{
    parsed p = parse(code);
    char got[512];
    binary_ops(&p, got, sizeof got);
    if (strcmp(got, want) != 0) {
        print_error("code: %s\ngot:  [%s]\nwant: [%s]\n", code, got, want);
        fail();
    }
    dispose(&p);
}

static void test_binary_operators(void **state)
{
    (void)state;
    check_binary("int f(int a, int b) { return a + b; }", "+");
    check_binary("int f(int a, int b) { return a - b * a / b % a; }", "- % / *");
    check_binary("int f(int a, int b) { return (a) * (b); }", "*");
    check_binary("int f(int a, int b) { return a < b && a >= b || a != b; }", "|| && < >= !=");
    check_binary("int f(int a, int b) { return a << 2 >> b & 1 ^ a | b; }", "| ^ & >> <<");
    check_binary("void f(int a, int b) { a = b; a += b; a -= 1; a *= 2; a /= 3; a %= 4; a <<= 1; a |= b; }",
                 "= += -= *= /= %= <<= |=");
    check_binary("int f(int a, int b) { return -a + -b; }", "+");
    check_binary("int f(int *p, int b) { return *p * *p - b; }", "- *");
    check_binary("int f(int *x, int i) { return x[i + 1] * 2; }", "* +");
    check_binary("struct s { int x; }; int f(struct s v, struct s *p) { return v.x + p->x; }", "+");
    check_binary("int f(float a, int b) { return (int)a / b; }", "/");
    check_binary("int g(int); int f(int a) { return g(a - 1) + g(a); }", "+ -");
    check_binary("int f(int a, int b) { a = b = 3; return a, b; }", "= = ,");
    /* through macros */
    check_binary("#define ADD(a, b) ((a) + (b))\nint f(int x, int y) { return ADD(x, y); }", "+");
    check_binary("#define ID(x) (x)\nint f(int x, int y) { return ID(x * y); }", "*");
    check_binary("#define TWICE(x) x + x\nint f(int a, int b) { return TWICE(a * b); }", "+ * *");
    check_binary("#define SCALE(x) ((x) * 2)\nint f(int *p) { return SCALE(p[0]); }", "*");
    check_binary("#define INC(v) v += 1\nvoid f(int a) { INC(a); }", "+=");
    check_binary("#define OP +\nint f(int a, int b) { return a OP b; }", "+");
    /* several different operators in one macro body: each in its place,
     * found by the operands beside it */
    check_binary("#define MIX(a, b) ((a) + (b) * 2)\nint f(int x, int y) { return MIX(x, y); }", "+ *");
    check_binary("#define HALF_SUM(a, b) ((float)((a) / 2) + (float)((b) / 2))\n"
                 "float f(int x, int y) { return HALF_SUM(x, y); }", "+ / /");
    check_binary("#define SCALED(a) ((float)(a) / 2 - 1)\nfloat f(int x) { return SCALED(x); }", "- /");
    check_binary("#define NEG_SUM(a, b) (-(a) + -(b))\nint f(int x, int y) { return NEG_SUM(x, y); }", "+");
    check_binary("#define ACC(s, v) s += (v) * 2\nvoid f(int a, int b) { ACC(a, b); }", "+= *");
    /* operands alike but for the arguments they come from */
    check_binary("#define CLIP(x, lo, hi) (((x) < (lo)) ? (lo) : (((x) > (hi)) ? (hi) : (x)))\n"
                 "int f(int v, int a, int b) { return CLIP(v, a, b); }", "< >");
    /* the same variable as two arguments: told apart by where each is written */
    check_binary("#define CLIP2(x, lo, hi) (((x) < (lo)) ? (lo) : (((x) > (hi)) ? (hi) : (x)))\n"
                 "int f(int v, int a) { return CLIP2(v, a, a); }", "< >");
    /* a variadic macro; an argument with commas inside its parentheses */
    check_binary("#define CALLSUB(a, ...) (g(__VA_ARGS__) - (a) * 3)\nint g(int, int);\n"
                 "int f(int x, int y) { return CALLSUB(x, y, (x, y)); }", "- , *");
    check_binary("#define DIFF(p, i) (p[i] - p[(i) + 1] < 0)\nint f(int *q) { return DIFF(q, 0); }", "< - +");
    /* other macros used in the body are expanded in it: their operators
     * are read in their own tokens (IN's + is not OUT's /) */
    check_binary("#define IN(a, b) ((a) + (b))\n#define OUT(x) IN(x, x / 2)\n"
                 "int f(int x) { return OUT(x); }", "+ /");
    check_binary("#define ADD(a, b) ((a) + (b))\n#define M(x) (ADD(x, 1) * 3 + (x) / (1))\n"
                 "int f(int i) { return M(i); }", "+ * ? ?"); /* ADD's (x) + (1), (x) / (1): alike */
    check_binary("#define UNIT (1 << 4)\n#define NORM(x, n) ((x) * UNIT * 1 + (x) / n)\n"
                 "int f(int i, int k) { return NORM(i, k); }", "+ * * << /");
    check_binary("#define HALF(v) ((v) / 2)\n#define SCALED_HALF(x) (HALF(x) * 3)\n"
                 "int f(int i) { return SCALED_HALF(i); }", "* /");
    check_binary("#define SET(a, b) ((a) = (b))\n#define SET_AND_TEST(p) (SET(p, 1), (p) == (1))\n"
                 "int v; int f(void) { return SET_AND_TEST(v); }", ", ? ?"); /* (p) = (1), (p) == (1) */
    /* a body using a macro defined twice (which one a use sees is not known here) */
    check_binary("#define OP(a, b) ((a) + (b))\n#define USE(x) (OP(x, 1) * 2)\nint f(int i) { return USE(i); }\n"
                 "#undef OP\n#define OP(a, b) ((a) - (b))\nint g(int i) { return USE(i); }", "? ? ? ?");
    /* a body using a macro that pastes: unknown */
    check_binary("#define CAT(a, b) a##b\n#define M2(x) (CAT(x, 1) * 3 + (x) / 2)\n"
                 "int x1; int f(int x) { return M2(x); }", "? ? ?");
    /* an object-like macro in the body: read as what it expands to */
    check_binary("#define SCALE (4)\n#define PER_UNIT(x) ((x) / SCALE)\n"
                 "int f(int i) { return PER_UNIT(i); }", "/");
    /* an operand the matcher does not read (sizeof): a body with one kind
     * of binary operator gives it */
    check_binary("#define COUNT(a) (sizeof(a) / sizeof((a)[0]))\n"
                 "unsigned long f(void) { int v[4]; return COUNT(v); }", "/");
    check_binary("#define SZ(x, n) ((int)(sizeof(x) * n) + (int)x / n)\n"
                 "int f(int i, int k) { return SZ(i, k); }", "? ? /");
    /* the comma between two arguments is not the operator */
    check_binary("#define DIV(a, b) (a / b)\nint f(int i, int k) { return DIV(i, k); }", "/");
    check_binary("#define SUB(a, b) (a - b)\nint f(int i, int k) { return SUB(i + 1, k); }", "- +");
    /* ... nor when the use is in another macro's argument (a wrapper),
     * with the TU's macro spans as the engine has them; an operator in
     * one argument of the inner use is the file's */
    check_binary_spans("#define CALL(x) do { x; } while (0)\n#define DIV(a, b) (a / b)\n"
                       "void f(int i, int k, int r) { CALL(r = DIV(i, k)); }", "= /");
    check_binary_spans("#define CALL(x) do { x; } while (0)\n#define ID(a) (a)\n"
                       "void f(int i, int k, int r) { CALL(r = ID(i - k)); }", "= -");
    check_binary_spans("#define CALL(x) do { x; } while (0)\n"
                       "void f(int i, int k, int r) { CALL(r = i / k + k / i); }", "= + / /");
    /* a body that pastes tokens: its tokens are not the expansion's */
    check_binary("#define PASTE(a, b) (a##b - a + 1)\nint f(int xy, int x) { return PASTE(x, y); }", "? ?");
    /* a macro used in another's argument: Q's << is Q's, not DIV's / (the
     * only operator of DIV's body); one that only starts in K is TWICE's */
    check_binary("#define Q(c) ((long)(c) << 4)\n#define DIV(a, b) ((int)((a) / (b)))\n"
                 "int f(int k) { return DIV(Q(3), k); }", "/ <<");
    check_binary("#define K 3\n#define TWICE(x) x + x\nint f(int b) { return TWICE(K * b); }", "+ * *");
}

/* The macro whose body holds each operator ("-" when the file has it),
 * in tree preorder. */
static void check_operator_macros(const char *code, const char *want)
{
    parsed p = parse(code);
    collect all = find2(&p, CXCursor_BinaryOperator, CXCursor_CompoundAssignOperator);
    collect un = find(&p, CXCursor_UnaryOperator);
    char got[256] = "";
    for (unsigned i = 0; i < all.n + un.n; i++) {
        char name[32];
        const char *m = elc_operator_macro(i < all.n ? all.found[i] : un.found[i - all.n], name,
                                           sizeof name);
        strncat(got, got[0] ? " " : "", sizeof got - strlen(got) - 1);
        strncat(got, m ? m : "-", sizeof got - strlen(got) - 1);
    }
    if (strcmp(got, want) != 0) {
        print_error("code: %s\ngot:  [%s]\nwant: [%s]\n", code, got, want);
        fail();
    }
    dispose(&p);
}

static void test_operator_macro(void **state)
{
    (void)state;
    /* binary ones first, then unary ones */
    check_operator_macros("#define HALF(a) ((a) / 2)\n#define ID(x) (x)\n"
                          "int f(int x, int y) { return HALF(x) + ID(x * y); }", "- HALF -");
    /* the left operand from an argument, the operator in the body */
    check_operator_macros("#define ACC(s, v) s += (v)\nvoid f(int a, int b) { ACC(a, b); }", "ACC");
    check_operator_macros("#define NEG(v) (-(v))\nint f(int a) { return NEG(a) + -a; }", "- NEG -");
    check_operator_macros("#define OP +\nint f(int a, int b) { return a OP b; }", "-");
    check_operator_macros("#define HALF(a) ((a) / 2)\n#define ID(x) (x)\n"
                          "int f(int x) { return ID(HALF(x)) + ID(x) / 2; }", "- HALF -");
    check_operator_macros("#define Q(c) ((long)(c) << 4)\n#define DIV(a, b) ((int)((a) / (b)))\n"
                          "int f(int k) { return DIV(Q(3), k); }", "DIV Q");
}

/* A long chain a + a + ... : every operator found, in linear time. */
static void test_long_chain(void **state)
{
    (void)state;
    enum { TERMS = 3000 };
    char *code = malloc(TERMS * 4 + 64);
    strcpy(code, "int f(int a) { return a");
    for (int i = 0; i < TERMS; i++)
        strcat(code, " + a");
    strcat(code, "; }");
    parsed p = parse(code);
    collect first = find(&p, CXCursor_BinaryOperator); /* the 64 outermost */
    assert_int_equal(first.n, 64);
    for (unsigned i = 0; i < first.n; i++) {
        char op[8];
        assert_true(elc_binary_operator(first.found[i], op, sizeof op));
        assert_string_equal(op, "+");
    }
    dispose(&p);
    free(code);
}

static void check_unary(const char *code, const char *want)
{
    parsed p = parse(code);
    collect u = find(&p, CXCursor_UnaryOperator);
    char got[256] = "";
    for (unsigned i = 0; i < u.n; i++) {
        char op[8];
        bool post = false;
        if (!elc_unary_operator(u.found[i], op, sizeof op, &post))
            strcpy(op, "?");
        strncat(got, got[0] ? " " : "", sizeof got - strlen(got) - 1);
        strncat(got, op, sizeof got - strlen(got) - 1);
        if (post)
            strncat(got, "(post)", sizeof got - strlen(got) - 1);
    }
    if (strcmp(got, want) != 0) {
        print_error("code: %s\ngot:  [%s]\nwant: [%s]\n", code, got, want);
        fail();
    }
    dispose(&p);
}

static void test_unary_operators(void **state)
{
    (void)state;
    check_unary("int f(int a) { return -a; }", "-");
    check_unary("int f(int a) { return !~a; }", "! ~");
    check_unary("int f(int *p) { return *p++; }", "* ++(post)");
    check_unary("int f(int a) { int *q = &a; return ++*q + a--; }", "& ++ * --(post)");
    check_unary("int f(int a) { return - (a); }", "-");
    check_unary("#define NEG(x) (-(x))\nint f(int a) { return NEG(a); }", "-");
    check_unary("#define ID(x) (x)\nint f(int a) { return ID(-a); }", "-");
    /* several in one body, prefix and postfix */
    check_unary("#define NOT_NEG(x) (!-(x))\nint f(int a) { return NOT_NEG(a); }", "! -");
    check_unary("#define BUMP(p) (*(p)++)\nint f(int *q) { return BUMP(q); }", "* ++(post)");
    /* -(w) and ~(w) are written alike: which is which is unknown, never a guess */
    check_unary("#define ADDR_NEG(v, w) (&(v) != 0 ? -(w) : ~(w))\nint f(int a, int b) { return ADDR_NEG(a, b); }",
                "& ? ?");
    /* another macro's, expanded in the body */
    check_unary("#define NEG(v) (-(v))\n#define M(x) (NEG(x) + ~(x))\nint f(int i) { return M(i); }",
                "? ?"); /* -(x) and ~(x): alike */
    check_unary("#define NEG(v) (-(v))\n#define M(x) (NEG(x) + ~(x + 1))\nint f(int i) { return M(i); }",
                "- ~");
    check_unary("#define INC(p) ((p)++)\n#define N(q) (INC(q) + --(q))\nint f(int j) { return N(j); }",
                "? ?"); /* (q)++ and --(q): alike */
    check_unary("#define INC(p) ((p)++)\n#define N(q, r) (INC(q) + --(r))\n"
                "int f(int j, int k) { return N(j, k); }", "++(post) --");
}

/* The callee names of every call, in order. */
static void check_callees(const char *code, const char *want)
{
    parsed p = parse(code);
    collect calls = find(&p, CXCursor_CallExpr);
    char got[512] = "";
    for (unsigned i = 0; i < calls.n; i++) {
        char name[128];
        const char *nm = elc_callee_name(calls.found[i], name, sizeof name);
        strncat(got, got[0] ? " " : "", sizeof got - strlen(got) - 1);
        strncat(got, nm ? nm : "?", sizeof got - strlen(got) - 1);
    }
    if (strcmp(got, want) != 0) {
        print_error("code: %s\ngot:  [%s]\nwant: [%s]\n", code, got, want);
        fail();
    }
    dispose(&p);
}

static void test_callee(void **state)
{
    (void)state;
    const char *decl = "void cblas_sscal(int n, float a, float *x, int inc);\n";
    char code[2048];
    snprintf(code, sizeof code, "%svoid f(float *x) { cblas_sscal(4, 2.0f, x, 1); }", decl);
    check_callees(code, "cblas_sscal");
    snprintf(code, sizeof code, "%s#define SCAL cblas_sscal\nvoid f(float *x) { SCAL(4, 2.0f, x, 1); }", decl);
    check_callees(code, "cblas_sscal");
    snprintf(code, sizeof code, "%s#define SCAL2(x) cblas_sscal(4, 2.0f, x, 1)\nvoid f(float *x) { SCAL2(x); }", decl);
    check_callees(code, "cblas_sscal");
    snprintf(code, sizeof code, "%svoid f(float *x) { void (*s)(int, float, float *, int) = cblas_sscal; s(4, 2.0f, x, 1); }", decl);
    check_callees(code, "cblas_sscal");
    snprintf(code, sizeof code, "%stypedef void (*scal_fn)(int, float, float *, int);\n"
                                "static const scal_fn table_entry = &cblas_sscal;\n"
                                "void f(float *x) { scal_fn g = table_entry; (*g)(4, 2.0f, x, 1); }", decl);
    check_callees(code, "cblas_sscal");
    snprintf(code, sizeof code, "%stypedef void scal_t(int, float, float *, int);\n"
                                "void f(float *x) { scal_t *h = cblas_sscal; h(4, 2.0f, x, 1); }", decl);
    check_callees(code, "cblas_sscal");
    /* unknowable statically: a parameter, a struct member */
    check_callees("void f(void (*cb)(void)) { cb(); }", "?");
    check_callees("struct ops { void (*run)(void); }; void f(struct ops *o) { o->run(); }", "?");
    /* nested calls, in order */
    check_callees("int g(int); int h(int); int f(int a) { return g(h(a)); }", "g h");
}

static void test_locations_and_tree(void **state)
{
    (void)state;
    parsed p = parse("#define M(x) (x)\nint f(int a)\n{\n  return M(a) + a;\n}\n");
    collect refs = find(&p, CXCursor_DeclRefExpr);
    assert_int_equal(refs.n, 2);
    CXFile file;
    unsigned line, col;
    assert_true(elc_cursor_location(refs.found[0], &file, &line, &col));
    assert_int_equal(line, 4);
    assert_int_equal(col, 10); /* the macro use */
    char name[256];
    assert_string_equal(elc_file_name(file, name, sizeof name), "/virtual/t.c");
    assert_true(elc_in_macro(refs.found[0]));
    assert_false(elc_in_macro(refs.found[1]));
    assert_string_equal(elc_spelling(refs.found[1], name, sizeof name), "a");
    assert_string_equal(elc_spelling(elc_referenced(refs.found[1]), name, sizeof name), "a");

    collect bin = find(&p, CXCursor_BinaryOperator);
    assert_int_equal(elc_child_count(bin.found[0]), 2);
    assert_true(clang_Cursor_isNull(elc_child(bin.found[0], 2)));
    CXCursor rhs = elc_strip(elc_child(bin.found[0], 1));
    assert_int_equal(clang_getCursorKind(rhs), CXCursor_DeclRefExpr);
    dispose(&p);

    p = parse("double f(int *q) { float *x = (float *)q; return (double)x[0]; }");
    collect casts = find(&p, CXCursor_CStyleCastExpr);
    assert_int_equal(casts.n, 2);
    CXCursor inner = elc_strip_casts(casts.found[0]);
    assert_int_equal(clang_getCursorKind(inner), CXCursor_DeclRefExpr);
    assert_true(elc_type_is_pointer(clang_getCursorType(casts.found[0])));
    assert_true(elc_type_is_floating(clang_getCursorType(casts.found[1])));
    assert_false(elc_type_is_integer(clang_getCursorType(casts.found[1])));
    assert_true(elc_is_arithmetic_op("%"));
    assert_false(elc_is_arithmetic_op("<<"));
    assert_true(elc_is_compound_assign_op("+="));
    assert_true(elc_is_compound_assign_op(">>="));
    assert_false(elc_is_compound_assign_op("="));
    assert_false(elc_is_compound_assign_op("<="));
    dispose(&p);
}

/* elc_written_location: a name in a macro's argument where the file
 * writes it (two in one use are two places, one on a continuation line on
 * that line); a name in a macro's body at the macro's use. */
static void test_written_location(void **state)
{
    (void)state;
    parsed p = parse("int g(int);\n"
                     "#define CALL(x) do { x; } while (0)\n"
                     "#define G(v) g(v)\n"
                     "void f(int a)\n"
                     "{\n"
                     "  CALL(a = g(1) + g(2));\n"
                     "  CALL(a =\n"
                     "       g(3));\n"
                     "  CALL(G(a));\n"
                     "}\n");
    collect refs = find(&p, CXCursor_DeclRefExpr);
    /* the g of each call: two on line 6, one on the continuation line 8,
     * and G's body's at G's use on line 9 */
    unsigned want_line[] = {6, 6, 8, 9}, want_col[] = {12, 19, 8, 8}, k = 0;
    for (unsigned i = 0; i < refs.n; i++) {
        CXCursor d = elc_referenced(refs.found[i]);
        char name[64];
        if (strcmp(elc_spelling(d, name, sizeof name), "g") != 0)
            continue;
        CXFile file = NULL;
        unsigned line = 0, col = 0, off = 0;
        assert_true(elc_written_location(clang_getCursorLocation(refs.found[i]), &file, &line, &col, &off));
        assert_true(k < 4);
        assert_int_equal(line, want_line[k]);
        assert_int_equal(col, want_col[k]);
        assert_string_equal(elc_file_name(file, name, sizeof name), "/virtual/t.c");
        k++;
    }
    assert_int_equal(k, 4);
    /* NULL outputs are fine */
    assert_true(elc_written_location(clang_getCursorLocation(refs.found[0]), NULL, NULL, NULL, NULL));
    dispose(&p);
}

/* elc_operator_location, then elc_written_location: an operator in a
 * macro's argument where its expression is written (two in one use are
 * two places, one on a continuation line on that line); one in a macro's
 * body at that macro's use, also when its operands are the use's
 * arguments on the next line, and for a macro used in another's argument
 * at the inner use. */
static void test_operator_location(void **state)
{
    (void)state;
    parsed p = parse("#define CALL(x) do { x; } while (0)\n"
                     "#define RATIO(a, b) (a / b)\n"
                     "#define HALF(v) ((v) / 2)\n"
                     "void f(int a, int b, int r)\n"
                     "{\n"
                     "  CALL(r = a / b + b / a);\n"
                     "  CALL(r =\n"
                     "       a / b);\n"
                     "  r = RATIO(\n"
                     "      a, b);\n"
                     "  CALL(r = HALF(a));\n"
                     "}\n");
    collect ops = find(&p, CXCursor_BinaryOperator);
    unsigned want_line[] = {6, 6, 8, 9, 11}, want_col[] = {12, 20, 8, 7, 12}, k = 0;
    for (unsigned i = 0; i < ops.n; i++) {
        char op[8];
        if (!elc_binary_operator(ops.found[i], op, sizeof op) || strcmp(op, "/") != 0)
            continue;
        CXFile file = NULL;
        unsigned line = 0, col = 0;
        assert_true(elc_written_location(elc_operator_location(ops.found[i]), &file, &line, &col, NULL));
        assert_true(k < 5);
        assert_int_equal(line, want_line[k]);
        assert_int_equal(col, want_col[k]);
        k++;
    }
    assert_int_equal(k, 5);
    dispose(&p);
}

/* Every binary operator asked about as EH302 asks: its operator, its
 * macro, where its finding goes. */
static enum CXChildVisitResult ask_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        char op[8], macro[32];
        if (elc_binary_operator(c, op, sizeof op) && strcmp(op, "/") == 0) {
            (void)elc_operator_macro(c, macro, sizeof macro);
            CXFile file = NULL;
            unsigned line = 0, col = 0;
            if (elc_written_location(elc_operator_location(c), &file, &line, &col, NULL))
                (*(unsigned *)d)++;
        }
    }
    return CXChildVisit_Recurse;
}

/* One wrapper use holding n divisions (and n / 4 uses of RAW in it): the
 * uses tokenized for their arguments while every operator is asked about,
 * with the TU's spans as the engine has them; *placed: divisions placed. */
static unsigned long use_reads_for(unsigned n, unsigned *placed)
{
    size_t cap = 256 + (size_t)n * 16;
    char *code = malloc(cap);
    assert_non_null(code);
    size_t len = (size_t)snprintf(code, cap,
                                  "#define CALL(x) do { x; } while (0)\n"
                                  "#define RAW(a, b) (a / b)\n"
                                  "void f(int a, int b, double r)\n{\n  CALL(r += 0");
    for (unsigned i = 0; i < n; i++)
        len += (size_t)snprintf(code + len, cap - len, i % 4 ? " + a / b" : " + RAW(a, b)");
    snprintf(code + len, cap - len, ");\n}\n");
    parsed p = parse(code);
    elc_macro_spans *m = elc_macro_spans_new(p.tu);
    elc_macro_spans_use(m);
    *placed = 0;
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), ask_visit, placed);
    unsigned long reads = elc_macro_spans_use_reads(m);
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    dispose(&p);
    free(code);
    return reads;
}

/* The helpers read each macro use's arguments once however many
 * operators it holds (they were read again for every one: quadratic in
 * the use's size); counted, not timed. */
static void test_operator_helpers_read_each_use_once(void **state)
{
    (void)state;
    unsigned small = 0, large = 0;
    unsigned long r40 = use_reads_for(40, &small), r400 = use_reads_for(400, &large);
    assert_int_equal(small, 40);
    assert_int_equal(large, 400);
    /* at most CALL's use and each RAW use, once */
    assert_true(r40 <= 1 + 10);
    assert_true(r400 <= 1 + 100);
}

/* elc_in_macro answered from the TU's macro spans: the same answers for
 * macro bodies, macro arguments and plain code; and which byte ranges a
 * fix may replace. */
static void test_macro_spans(void **state)
{
    (void)state;
    const char *code = "int g(int);\n"              /* 12 bytes */
                       "#define CALL g(1)\n"        /* 18 */
                       "#define ID(x) (x)\n"        /* 18 */
                       "int f(int a)\n{\n"          /* 15: line 5 starts at offset 63 */
                       "  return CALL + ID(g(a)) + g(a);\n}\n";
    parsed p = parse(code);
    elc_macro_spans *m = elc_macro_spans_new(p.tu);
    collect calls = find(&p, CXCursor_CallExpr);
    assert_int_equal(calls.n, 3);
    bool without[3];
    for (unsigned i = 0; i < 3; i++)
        without[i] = elc_in_macro(calls.found[i]);
    elc_macro_spans_use(m);
    assert_true(elc_in_macro(calls.found[0]));  /* CALL's body */
    assert_true(elc_in_macro(calls.found[1]));  /* ID's argument */
    assert_false(elc_in_macro(calls.found[2])); /* plain */
    /* Asking libclang (clang_getCursor at the location) agrees on the
     * argument and the plain call, but takes the call CALL expands to for
     * plain code: it finds the CallExpr there, not the expansion. */
    assert_false(without[0]);
    assert_int_equal(without[1], true);
    assert_int_equal(without[2], false);
    CXFile f = clang_getFile(p.tu, "/virtual/t.c");
    assert_non_null(f);
    unsigned call = (unsigned)(strstr(code, "CALL +") - code);
    unsigned id = (unsigned)(strstr(code, "ID(g") - code);
    unsigned end = (unsigned)(strstr(code, " + g(a);") - code);
    assert_true(elc_macro_spans_cut(m, f, call, call + 2));      /* inside CALL */
    assert_true(elc_macro_spans_cut(m, f, call + 2, call + 6));  /* crosses its end */
    assert_true(elc_macro_spans_cut(m, f, call, call + 4));      /* exactly CALL */
    assert_false(elc_macro_spans_cut(m, f, call - 1, call + 4)); /* around it */
    assert_false(elc_macro_spans_cut(m, f, call, end));          /* whole expansions */
    assert_true(elc_macro_spans_cut(m, f, id + 3, id + 4));      /* in ID's argument */
    assert_true(elc_macro_spans_cut(m, f, id + 1, id + 1));      /* an insertion inside */
    assert_false(elc_macro_spans_cut(m, f, id, id));             /* an insertion before */
    assert_false(elc_macro_spans_cut(m, f, end + 3, end + 7));   /* plain g(a) */
    /* inside an argument (the g of ID(g(a))), holding no expansion */
    assert_true(elc_macro_spans_within_argument(m, f, id + 3, id + 4));
    assert_false(elc_macro_spans_within_argument(m, f, id, id + 2));       /* ID's name */
    assert_false(elc_macro_spans_within_argument(m, f, call, call + 4));   /* all of CALL */
    assert_false(elc_macro_spans_within_argument(m, f, id + 3, id + 10));  /* past ID's ) */
    assert_false(elc_macro_spans_within_argument(m, f, end + 3, end + 4)); /* plain g(a) */
    /* the innermost use at an offset */
    char name[16];
    assert_string_equal(elc_spelling(elc_macro_expansion_at(p.tu, f, id + 3), name, sizeof name), "ID");
    assert_true(clang_Cursor_isNull(elc_macro_expansion_at(p.tu, f, end + 3)));
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    dispose(&p);
}

typedef struct dirs {
    char text[512];
} dirs;

static bool on_directive(void *ud, CXTranslationUnit tu, const char *name, const CXToken *toks,
                         unsigned n, unsigned line)
{
    dirs *d = ud;
    char buf[64];
    snprintf(buf, sizeof buf, "%s%u:%s:", d->text[0] ? " " : "", line, name);
    strncat(d->text, buf, sizeof d->text - strlen(d->text) - 1);
    for (unsigned i = 0; i < n; i++) {
        char t[32];
        strncat(d->text, elc_string(clang_getTokenSpelling(tu, toks[i]), t, sizeof t),
                sizeof d->text - strlen(d->text) - 1);
    }
    return true;
}

static void test_directives(void **state)
{
    (void)state;
    parsed p = parse("#ifdef EH_HAVE_BLAS\n"
                     "int a;\n"
                     "#elif defined(EH_BACKEND_X) && EH_HAVE_LAZY\n"
                     "#endif\n"
                     "#if 0\n"
                     "  #  ifndef SKIPPED\n"
                     "  #  endif\n"
                     "#endif\n"
                     "#define LONG(x) \\\n"
                     "    ((x) + \\\n"
                     "     1)\n"
                     "int b = LONG(2); /* # not a directive */\n"
                     "#pragma once\n");
    CXFile f = clang_getFile(p.tu, "/virtual/t.c");
    dirs d;
    d.text[0] = '\0';
    elc_each_directive(p.tu, f, on_directive, &d);
    assert_string_equal(d.text, "1:ifdef:EH_HAVE_BLAS 3:elif:defined(EH_BACKEND_X)&&EH_HAVE_LAZY 4:endif: "
                                "5:if:0 6:ifndef:SKIPPED 7:endif: 8:endif: 9:define:LONG(x)((x)+1) "
                                "13:pragma:once");
    dispose(&p);
}

/* ELC_PREPROCESSING_FIRST (clang_util.h): the top level of a TU gives
 * every preprocessing cursor before the first declaration, even those
 * written after declarations -- the engine's walk and the walks that stop
 * at the first declaration rely on it. */
typedef struct order {
    unsigned preprocessing_after_decl, decls, includes, defines, expansions;
} order;

static enum CXChildVisitResult order_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    order *o = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!clang_isPreprocessing(k)) {
        o->decls++;
        return CXChildVisit_Continue;
    }
    if (o->decls)
        o->preprocessing_after_decl++;
    o->includes += k == CXCursor_InclusionDirective;
    bool mine = clang_Location_isFromMainFile(clang_getCursorLocation(c));
    o->defines += k == CXCursor_MacroDefinition && mine;
    o->expansions += k == CXCursor_MacroExpansion && mine;
    return CXChildVisit_Continue;
}

static void test_preprocessing_first(void **state)
{
    (void)state;
    parsed p = parse("#include <stddef.h>\n"
                     "int f(void) { return 0; }\n"
                     "#define LATE 2\n"
                     "#include <stdint.h>\n"
                     "int g(void) { return LATE; }\n"
                     "#define LATER 3\n");
    order o = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), order_visit, &o);
    assert_true(o.decls >= 2);
    assert_int_equal(o.preprocessing_after_decl, 0);
    assert_true(o.includes >= 2);
    assert_int_equal(o.defines, 2);
    assert_int_equal(o.expansions, 1);
    dispose(&p);
}

/* The engine feeds the spans of its linted files from its own walk; a
 * question about such a file is answered from them, one asked before the
 * feeding is done or about another file walks the TU as without it. */
static enum CXChildVisitResult feed_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_MacroExpansion)
        elc_macro_spans_feed(d, c);
    return CXChildVisit_Continue;
}

static void test_macro_spans_fed(void **state)
{
    (void)state;
    const char *code = "#define CALL g(1)\nint g(int);\nint f(void) { return CALL; }\n";
    parsed p = parse(code);
    CXFile f = clang_getFile(p.tu, "/virtual/t.c");
    assert_non_null(f);
    unsigned call = (unsigned)(strstr(code, "CALL;") - code);
    /* fed by a walk: the expansion is there */
    elc_macro_spans *m = elc_macro_spans_new(p.tu);
    elc_macro_spans_feed_files(m, &f, 1);
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_visit, m);
    elc_macro_spans_feed_done(m);
    assert_true(elc_macro_spans_cut(m, f, call + 1, call + 2));
    assert_false(elc_macro_spans_cut(m, f, call - 2, call - 1));
    elc_macro_spans_free(m);
    /* fed nothing for f: the answer comes from the (empty) feed, no walk */
    m = elc_macro_spans_new(p.tu);
    elc_macro_spans_feed_files(m, &f, 1);
    elc_macro_spans_feed_done(m);
    assert_false(elc_macro_spans_cut(m, f, call + 1, call + 2));
    elc_macro_spans_free(m);
    /* asked before the feeding is done: a walk of its own, then the feed
     * is ignored */
    m = elc_macro_spans_new(p.tu);
    elc_macro_spans_feed_files(m, &f, 1);
    assert_true(elc_macro_spans_cut(m, f, call + 1, call + 2));
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_visit, m);
    elc_macro_spans_feed_done(m);
    assert_true(elc_macro_spans_cut(m, f, call + 1, call + 2));
    elc_macro_spans_free(m);
    /* another file than the fed ones: a walk of its own */
    m = elc_macro_spans_new(p.tu);
    CXFile other = (CXFile)&m; /* never a file of the TU */
    elc_macro_spans_feed_files(m, &other, 1);
    elc_macro_spans_feed_done(m);
    assert_true(elc_macro_spans_cut(m, f, call + 1, call + 2));
    elc_macro_spans_free(m);
    dispose(&p);
}

/* The macro table (elc_macro_named, elc_macro_definition) is likewise
 * fed the TU's macro definitions by the engine's walk, so it is not read
 * in a walk of its own; one asked before the feeding is done walks. */
static enum CXChildVisitResult feed_definitions(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_MacroDefinition)
        elc_macro_spans_feed_definition(d, c);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult feed_first_definition(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    char name[64];
    if (strcmp(elc_spelling(c, name, sizeof name), "ONE") != 0)
        return CXChildVisit_Continue;
    elc_macro_spans_feed_definition(d, c);
    return CXChildVisit_Break;
}

static void expect_whole_table(CXTranslationUnit tu)
{
    assert_int_equal(elc_macro_named(tu, "ONE"), 1);
    assert_int_equal(elc_macro_named(tu, "TWO"), 2);
    assert_int_equal(elc_macro_named(tu, "TWICE"), -1); /* defined twice */
    assert_int_equal(elc_macro_named(tu, "LATE"), 1);   /* after its use: still the TU's */
    assert_int_equal(elc_macro_named(tu, "f"), 0);
    assert_int_equal(elc_macro_named(tu, "NULL"), 1);  /* a system header's */
    assert_false(clang_Cursor_isNull(elc_macro_definition(tu, "TWO")));
    assert_true(clang_Cursor_isNull(elc_macro_definition(tu, "TWICE")));
}

static void test_macro_table_fed(void **state)
{
    (void)state;
    parsed p = parse("#include <stddef.h>\n"
                     "#define ONE 1\n"
                     "#define TWO(x) (x + ONE)\n"
                     "#define TWICE 1\n"
                     "#undef TWICE\n"
                     "#define TWICE 2\n"
                     "int f(void) { return TWO(ONE); }\n"
                     "#define LATE 3\n");
    /* no table in use: read for each question */
    expect_whole_table(p.tu);
    /* fed every definition by a walk, then done */
    elc_macro_spans *m = elc_macro_spans_new(p.tu);
    elc_macro_spans_use(m);
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_definitions, m);
    elc_macro_spans_feed_done(m);
    expect_whole_table(p.tu);
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    /* the fed table is the one asked, not one read again: fed ONE only */
    m = elc_macro_spans_new(p.tu);
    elc_macro_spans_use(m);
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_first_definition, m);
    elc_macro_spans_feed_done(m);
    assert_int_equal(elc_macro_named(p.tu, "ONE"), 1);
    assert_int_equal(elc_macro_named(p.tu, "TWO"), 0);
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    /* asked before the feeding is done: a walk of its own, and what is
     * fed after it is ignored */
    m = elc_macro_spans_new(p.tu);
    elc_macro_spans_use(m);
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_first_definition, m);
    expect_whole_table(p.tu);
    clang_visitChildren(clang_getTranslationUnitCursor(p.tu), feed_definitions, m);
    elc_macro_spans_feed_done(m);
    expect_whole_table(p.tu);
    elc_macro_spans_use(NULL);
    elc_macro_spans_free(m);
    dispose(&p);
}

/* ---- elc_parse_in_caller_thread ------------------------------------------ */

enum { ENV_UNSET = 10, ENV_ONE, ENV_OTHER, NO_LIMIT };

/* In a child: LIBCLANG_NOTHREADS as `preset` (NULL: unset) and a stack
 * limit of `limit` bytes, then elc_parse_in_caller_thread; what the
 * variable is afterwards (NO_LIMIT when the limit could not be set). */
static int nothreads_after(const char *preset, rlim_t limit)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_STACK, &rl) != 0)
            _exit(NO_LIMIT);
        rl.rlim_cur = limit;
        if (setrlimit(RLIMIT_STACK, &rl) != 0)
            _exit(NO_LIMIT);
        if (preset)
            setenv("LIBCLANG_NOTHREADS", preset, 1);
        else
            unsetenv("LIBCLANG_NOTHREADS");
        elc_parse_in_caller_thread();
        const char *v = getenv("LIBCLANG_NOTHREADS");
        _exit(!v ? ENV_UNSET : strcmp(v, "1") == 0 ? ENV_ONE : ENV_OTHER);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void test_parse_in_caller_thread(void **state)
{
    (void)state;
    struct rlimit rl;
    assert_int_equal(getrlimit(RLIMIT_STACK, &rl), 0);
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < ((rlim_t)16 << 20))
        skip();
    /* room for libclang's parse: parse on this thread */
    assert_int_equal(nothreads_after(NULL, (rlim_t)16 << 20), ENV_ONE);
    assert_int_equal(nothreads_after(NULL, (rlim_t)8 << 20), ENV_ONE);
    /* a smaller stack than libclang's threads: leave libclang its threads */
    assert_int_equal(nothreads_after(NULL, (rlim_t)1 << 20), ENV_UNSET);
    /* the user's setting wins */
    assert_int_equal(nothreads_after("0", (rlim_t)16 << 20), ENV_OTHER);
    if (rl.rlim_max == RLIM_INFINITY)
        assert_int_equal(nothreads_after(NULL, RLIM_INFINITY), ENV_ONE);
}

/* The walk's kind classes are libclang's, for every kind. */
static void test_kind_classes(void **state)
{
    (void)state;
    for (int k = 0; k < 1000; k++) {
        enum CXCursorKind kind = (enum CXCursorKind)k;
        assert_int_equal(elc_kind_is_statement(kind), clang_isStatement(kind) != 0);
        assert_int_equal(elc_kind_is_expression(kind), clang_isExpression(kind) != 0);
        assert_int_equal(elc_kind_is_declaration(kind), clang_isDeclaration(kind) != 0);
        assert_int_equal(elc_kind_is_attribute(kind), clang_isAttribute(kind) != 0);
        assert_int_equal(elc_kind_is_preprocessing(kind), clang_isPreprocessing(kind) != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_classes),
        cmocka_unit_test(test_binary_operators),
        cmocka_unit_test(test_long_chain),
        cmocka_unit_test(test_unary_operators),
        cmocka_unit_test(test_operator_macro),
        cmocka_unit_test(test_callee),
        cmocka_unit_test(test_locations_and_tree),
        cmocka_unit_test(test_written_location),
        cmocka_unit_test(test_operator_location),
        cmocka_unit_test(test_operator_helpers_read_each_use_once),
        cmocka_unit_test(test_macro_spans),
        cmocka_unit_test(test_preprocessing_first),
        cmocka_unit_test(test_macro_spans_fed),
        cmocka_unit_test(test_macro_table_fed),
        cmocka_unit_test(test_directives),
        cmocka_unit_test(test_parse_in_caller_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
