/* lint/engine/clang_util.h -- helpers for looking at C through libclang 14,
 * shared by the rules.  Every function takes and returns plain libclang
 * values; none needs the engine (the macro spans below make elc_in_macro
 * fast when set up).  Strings are copied into caller buffers
 * (truncated to fit, always NUL-terminated), so no CXString escapes.
 *
 * libclang 14 has no API for an operator's opcode: elc_binary_operator
 * and elc_unary_operator read it from the tokens (and, for an operator
 * written inside a macro body, from the macro's definition). */
#ifndef EL_CLANG_UTIL_H
#define EL_CLANG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"
#include "file_stamp.h"

/* ---- the process ------------------------------------------------------ */

/* Called first in main, before any thread: libclang is told to parse on
 * the calling thread (LIBCLANG_NOTHREADS) instead of a new thread with an
 * 8 MiB stack per translation unit, a tenth of a cold lint's CPU time
 * beyond parsing.  Only when this thread's stack may grow to 8 MiB (the
 * engine's workers have more) and the user has not set it either way. */
void elc_parse_in_caller_thread(void);

/* Called first in main, before any thread: the heap a translation unit
 * freed stays for the next one (glibc's M_TOP_PAD, 32 MiB;
 * setting it also turns off glibc's dynamic mmap threshold).  By default a
 * worker thread's malloc arena gives its memory back after each TU and
 * takes it again page by page in the next: 1 400 mprotect calls and as
 * many page faults on this tree's 84 TUs (-j 1), against 24 calls with it.  Not
 * when the user set the top pad (GLIBC_TUNABLES, MALLOC_TOP_PAD_). */
void elc_keep_heap(void);

/* ---- cursor kinds ----------------------------------------------------- */

/* clang_isStatement, clang_isExpression, clang_isDeclaration,
 * clang_isAttribute and clang_isPreprocessing as the ranges of Index.h
 * they test: the walk asks them of every cursor, and each libclang call
 * goes through the loaded library's table (clang_api.h).  test_clang_util
 * checks them against libclang's for every kind. */
static inline bool elc_kind_is_statement(enum CXCursorKind k)
{
    return k >= CXCursor_FirstStmt && k <= CXCursor_LastStmt;
}
static inline bool elc_kind_is_expression(enum CXCursorKind k)
{
    return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr;
}
static inline bool elc_kind_is_declaration(enum CXCursorKind k)
{
    return (k >= CXCursor_FirstDecl && k <= CXCursor_LastDecl) ||
           (k >= CXCursor_FirstExtraDecl && k <= CXCursor_LastExtraDecl);
}
static inline bool elc_kind_is_attribute(enum CXCursorKind k)
{
    return k >= CXCursor_FirstAttr && k <= CXCursor_LastAttr;
}
static inline bool elc_kind_is_preprocessing(enum CXCursorKind k)
{
    return k >= CXCursor_FirstPreprocessing && k <= CXCursor_LastPreprocessing;
}

/* ---- the TU --------------------------------------------------------- */

/* Has the TU a diagnostic of error severity or worse? */
bool elc_tu_has_errors(CXTranslationUnit tu);
/* fn on every preprocessing cursor of tu (every file's directives, macro
 * definitions and expansions, in the order libclang keeps them) until fn
 * returns false; the declarations after them are not visited
 * (ELC_PREPROCESSING_FIRST, below). */
void elc_visit_preprocessing(CXTranslationUnit tu,
                             bool (*fn)(CXCursor c, enum CXCursorKind kind, void *ud), void *ud);

/* ---- a TU parsed with a shared prefix (prefix_pch.h) ----------------- */

/* The engine names the TU this thread lints that lacks the cursors of a
 * precompiled prefix (its system headers' directives, macros and
 * declarations are not visited), NULL for none. */
void elc_tu_partial(CXTranslationUnit tu);
/* Asked before a walk over every file of tu (all its directives or
 * declarations): false when tu lacks some -- the engine then lints the
 * file again without the prefix, so the caller may skip its walk. */
bool elc_tu_whole(CXTranslationUnit tu);
/* Did a caller ask for the whole of this thread's partial TU? */
bool elc_tu_whole_wanted(void);

/* ---- a TU parsed without function bodies ---------------------------- */

/* The engine names the TU this thread lints whose function bodies it did
 * not parse (CXTranslationUnit_SkipFunctionBodies: a backend or core file
 * where no rule reads them, docs/emberlint.md), NULL for none.  libclang
 * then takes such a definition for a declaration (el_is_definition knows
 * better) and has no cursor below it. */
void elc_tu_bodiless(CXTranslationUnit tu);
bool elc_tu_is_bodiless(CXTranslationUnit tu);
/* Asked before reading a function's body: false when tu is this thread's
 * TU without bodies -- the engine then lints it again with them, so the
 * caller may stop and conclude nothing. */
bool elc_tu_has_bodies(CXTranslationUnit tu);
/* Did a caller need a body this TU lacks? */
bool elc_bodies_wanted(void);

/* ---- strings and locations ------------------------------------------ */

/* Copy s into buf[n], dispose s; returns buf. */
const char *elc_string(CXString s, char *buf, size_t n);
/* The cursor's spelling (a name for declarations and references). */
const char *elc_spelling(CXCursor c, char *buf, size_t n);
/* The expansion location (where a macro is used, for code from a macro):
 * file, 1-based line and byte column.  false when not in a file. */
bool elc_location(CXSourceLocation loc, CXFile *file, unsigned *line, unsigned *col);
bool elc_cursor_location(CXCursor c, CXFile *file, unsigned *line, unsigned *col);
/* Where the file writes what is at loc: for a name in a macro's argument
 * (`CALL_BLAS("dot", r = BLASdot_(...) - BLASdot_(...))`), the argument's
 * own place, so two calls in one macro use are two places, each on its
 * line; for a name in a macro's body, the macro's use (where it expands).
 * libclang's file location when it is in the file the expansion is in,
 * else the expansion location.  file, line, col, offset may be NULL;
 * false when not in a file.  (A CXSourceLocation libclang makes of such
 * a place, clang_getLocation, is the macro's expansion again: keep the
 * file and position.) */
bool elc_written_location(CXSourceLocation loc, CXFile *file, unsigned *line, unsigned *col,
                          unsigned *offset);
/* The file's name as libclang has it. */
const char *elc_file_name(CXFile f, char *buf, size_t n);
/* The stamp libclang saw f with (device, inode, modification time);
 * el_file_stamp_none when it has none. */
el_file_stamp elc_file_stamp(CXFile f);
/* True when the cursor comes from a macro expansion (its spelling and
 * expansion locations differ, or it lies inside a macro expansion's
 * range).  Answered from the TU's macro spans when they are in use on
 * this thread (below; the engine does so for the TU it walks), else by
 * asking libclang, which searches from the top of the TU each time. */
bool elc_in_macro(CXCursor c);
/* The expansion of the macro whose use is at c's expansion location (the
 * macro that wrote c), or a null cursor. */
CXCursor elc_macro_expansion_of(CXCursor c);
/* The innermost macro use of file f whose text holds offset off (its
 * name or its arguments), or a null cursor. */
CXCursor elc_macro_expansion_at(CXTranslationUnit tu, CXFile f, unsigned off);
/* Is name a macro of tu: 0 no, 1 object-like, 2 function-like, -1 not
 * known (defined twice; or not among the file's own while a precompiled
 * prefix holds its system headers' -- the engine then lints the file
 * again without it).  Read once a TU with the macro spans in use. */
int elc_macro_named(CXTranslationUnit tu, const char *name);
/* The same, but a name that is none of the file's own macros while a
 * precompiled prefix holds its system headers' is -2 (a system header's
 * macro or none; the file is not linted again without the prefix for
 * it): enough to ask whether a name is a macro of the project. */
int elc_macro_named_here(CXTranslationUnit tu, const char *name);
/* The tokens of macro definition def (free with clang_disposeTokens);
 * *first: the index of its body's first token (after the name, and the
 * parameter list of a function-like macro), at most *nt. */
CXToken *elc_macro_tokens(CXTranslationUnit tu, CXCursor def, unsigned *nt, unsigned *first);
/* The definition of macro name in tu (as elc_macro_named knows it), or a
 * null cursor. */
CXCursor elc_macro_definition(CXTranslationUnit tu, const char *name);
/* The same, but not a system header's macro a precompiled prefix holds
 * (a null cursor: the TU is not wanted whole for it, elc_macro_named_here). */
CXCursor elc_macro_definition_here(CXTranslationUnit tu, const char *name);
/* The argument of function-like macro use exp whose text holds offset
 * off of file f (the arguments split at the commas outside parentheses:
 * only parentheses group them): its index, and its text [*b, *e); -1 for
 * none. */
int elc_macro_argument_at(CXTranslationUnit tu, CXCursor exp, CXFile f, unsigned off,
                          unsigned *b, unsigned *e);

/* ---- macro expansions ------------------------------------------------ */

/* ELC_PREPROCESSING_FIRST: clang_visitChildren on a translation unit
 * visits every preprocessing cursor (directives, macro definitions and
 * expansions, of every file) before the first declaration, so a walk
 * that wants only those stops at the first cursor that is not one
 * (libclang's CursorVisitor with VisitPreprocessorLast false; the
 * declarations of the system headers are most of a TU's top level).
 * test_clang_util checks it. */

/* The macro expansions of a TU as byte ranges of the files they are
 * written in, read in one walk over the TU's preprocessing cursors on the
 * first question, then answered by binary search: what keeps a file's
 * time linear in its call sites. */
typedef struct elc_macro_spans elc_macro_spans;
elc_macro_spans *elc_macro_spans_new(CXTranslationUnit tu);
void elc_macro_spans_free(elc_macro_spans *m);
/* Would replacing bytes [b, e) of f edit inside an expansion (lie within
 * one, or cross its boundary)?  A range that strictly contains whole
 * expansions replaces them as written, which is fine; for b == e, whether
 * b is strictly inside one. */
bool elc_macro_spans_cut(elc_macro_spans *m, CXFile f, unsigned b, unsigned e);
/* Does [b, e) of f lie inside macro uses (their arguments: the caller
 * knows) and hold no expansion of its own? */
bool elc_macro_spans_within_argument(elc_macro_spans *m, CXFile f, unsigned b, unsigned e);
/* The engine's walk visits every expansion of the linted files anyway:
 * it names those files, feeds their expansions, then says it is done, and
 * questions about them need no walk of their own.  A question asked
 * before that, or about another file, walks as without feeding. */
void elc_macro_spans_feed_files(elc_macro_spans *m, const CXFile *files, size_t n);
void elc_macro_spans_feed(elc_macro_spans *m, CXCursor expansion);
void elc_macro_spans_feed_done(elc_macro_spans *m);
/* Likewise every macro definition of the TU (the engine's walk passes
 * them all, every file's, before the first declaration): the table
 * elc_macro_named and elc_macro_definition answer from, its names read
 * the first time one is asked after elc_macro_spans_feed_done.  A
 * question before that reads the table in a walk of its own. */
void elc_macro_spans_feed_definition(elc_macro_spans *m, CXCursor def);
/* How many times m's macro table was read in a walk of its own (not fed,
 * or asked before the feeding was done): 0 when the feeding served. */
unsigned elc_macro_spans_table_walks(const elc_macro_spans *m);
/* How many macro uses were tokenized for their arguments while m was in
 * use: each use once (m keeps their arguments), however many operators
 * in it are asked about -- for tests that check the work stays linear. */
unsigned long elc_macro_spans_use_reads(const elc_macro_spans *m);
/* Does a macro use of f end at offset off (from the spans in use on this
 * thread for tu)?  Then the outermost such use begins at *begin. */
bool elc_macro_use_ending_at(CXTranslationUnit tu, CXFile f, unsigned off, unsigned *begin);
/* What text[0..n) (a macro use as written, at offset `at` of f) may
 * write, with the macros it names (a use's definition in effect there)
 * and those their bodies name (not their parameters): ELC_WRITES_* bits. */
#define ELC_WRITES_BRACE 1u     /* a `{` */
#define ELC_WRITES_SEMICOLON 2u /* a `;` outside braces: a declaration ends */
unsigned elc_macros_write(CXTranslationUnit tu, CXFile f, unsigned at, const char *text, size_t n);
/* Use m for elc_in_macro and the operator helpers on this thread (NULL:
 * stop; do so before the TU is disposed). */
void elc_macro_spans_use(elc_macro_spans *m);

/* ---- tree ------------------------------------------------------------ */

unsigned elc_child_count(CXCursor c);
/* The i-th child, or a null cursor. */
CXCursor elc_child(CXCursor c, unsigned i);
/* Through parentheses and implicit conversions (UnexposedExpr). */
CXCursor elc_strip(CXCursor e);
/* Also through explicit casts: (float *)p -> p. */
CXCursor elc_strip_casts(CXCursor e);
/* The declaration an expression names after elc_strip_casts
 * (DeclRefExpr, MemberRefExpr), else a null cursor. */
CXCursor elc_referenced(CXCursor e);

/* ---- calls ----------------------------------------------------------- */

/* The function a CallExpr calls: through macros (`#define GEMM
 * cblas_sgemm`), parentheses, casts, `*fp` and `&f`, and through pointer
 * variables whose initializer names a function, typedef'd or not
 * (`gemm_fn g = cblas_sgemm; g(...)`, a few levels deep).  A null cursor
 * when it cannot be known statically (a struct member, a parameter, a
 * pointer assigned later). */
CXCursor elc_callee(CXCursor call);
/* Its name into buf, or NULL. */
const char *elc_callee_name(CXCursor call, char *buf, size_t n);

/* ---- operators ------------------------------------------------------- */

/* The operator of a CXCursor_BinaryOperator ("+", "<", "&&", "=", ...) or
 * CXCursor_CompoundAssignOperator ("+=", ...).  false when it cannot be
 * determined: one written in a macro body whose operands match the
 * body's tokens at operators of several kinds (`-(w) : ~(w)`), or none
 * (an expression of another macro's body, expanded inside this one).
 * Needs the TU's macro spans in use (elc_macro_spans_use) for a use
 * inside a wrapper's argument, `CALL(r = DIV(i, k))` with `DIV(a, b)
 * (a / b)`: without them, finding the use at i asks clang_getCursor,
 * which answers the expression there, not the expansion, so DIV's comma
 * between i and k is taken for the operator.  emberlint always has them
 * (the engine puts each TU's in use before its rules run); with them,
 * the uses' arguments are read once per use, and this helper,
 * elc_operator_macro and elc_operator_location asked in a row about one
 * operator read it once. */
bool elc_binary_operator(CXCursor c, char *op, size_t n);
/* The operator of a CXCursor_UnaryOperator ("-", "!", "~", "*", "&",
 * "++", "--", "+"); *postfix for x++ / x--. */
bool elc_unary_operator(CXCursor c, char *op, size_t n, bool *postfix);
/* The name of the macro whose body an operator (binary or unary) c has
 * is written in -- the outermost one expanded where c is, at whose use
 * findings are reported -- into buf; NULL when the file has the operator
 * (a macro argument's text included). */
const char *elc_operator_macro(CXCursor c, char *buf, size_t n);
/* Where a finding about operator c (binary or unary) goes, to be given
 * to elc_written_location: c's own location (its expression's start)
 * when the file has the operator, a macro argument's text included, so
 * that two in one argument (`WRAP(a / b + c / d)`, or on a continuation
 * line of the use) are two places; else the use of the macro whose body
 * has it, the one elc_operator_macro names (`SAME(HALVE(n))`: HALVE's). */
CXSourceLocation elc_operator_location(CXCursor c);
/* + - * / % (the arithmetic binary operators). */
bool elc_is_arithmetic_op(const char *op);
/* The compound assignments: += -= *= /= %= <<= >>= &= ^= |=. */
bool elc_is_compound_assign_op(const char *op);

/* ---- preprocessor directives ------------------------------------------ */

/* Called for each directive; name is the directive ("if", "ifdef",
 * "ifndef", "elif", "else", "endif", "define", "include", "pragma", ...),
 * toks[0..n) the tokens after it on its logical line (continuation lines
 * included), line the directive's line.  Return false to stop. */
typedef bool (*elc_directive_fn)(void *ud, CXTranslationUnit tu, const char *name,
                                 const CXToken *toks, unsigned n, unsigned line);
/* Every preprocessor directive of a file of the TU, in order -- also those
 * in #if branches the compiler skipped, which libclang has no cursors
 * for (#if, #ifdef, #elif never are cursors). */
void elc_each_directive(CXTranslationUnit tu, CXFile file, elc_directive_fn fn, void *ud);

/* A function declaration of C or C++: a function, a member function, a
 * constructor, a destructor, a conversion function, a function template
 * (the list, for a rule's kinds: ELC_FUNCTION_KINDS). */
#define ELC_FUNCTION_KINDS                                                                    \
    CXCursor_FunctionDecl, CXCursor_CXXMethod, CXCursor_Constructor, CXCursor_Destructor,     \
        CXCursor_ConversionFunction, CXCursor_FunctionTemplate
bool elc_is_function_kind(enum CXCursorKind k);

/* ---- types ----------------------------------------------------------- */

/* On the canonical type: float, double, long double, half, _Float16. */
bool elc_type_is_floating(CXType t);
/* Integers, char, _Bool and enums. */
bool elc_type_is_integer(CXType t);
bool elc_type_is_pointer(CXType t);

#endif
