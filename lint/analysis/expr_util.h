/* lint/analysis/expr_util.h -- small libclang helpers for expressions the
 * rules share.  Operators are read from the tokens between the operands
 * where that is cheap (see sf_binary_operator), else through clang_util.h. */
#ifndef EL_EXPR_UTIL_H
#define EL_EXPR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

/* Up to max children of c into out; returns how many c has. */
unsigned sf_children(CXCursor c, CXCursor *out, unsigned max);
/* The operator of a BinaryOperator or CompoundAssignOperator: the one
 * token between its operands where they are spelled (in the file, or a
 * macro's argument or body), else elc_binary_operator's answer.  The
 * fast path matters: elc_binary_operator goes through
 * clang_getLocationForOffset, whose first call in a TU makes libclang map
 * every macro argument expansion of the file (millions of instructions
 * in a macro-heavy file). */
bool sf_binary_operator(CXCursor c, char *op, size_t n);
/* The operator of a UnaryOperator the same way (else
 * elc_unary_operator's answer); *postfix (may be NULL) for x++ and x--. */
bool sf_unary_operator(CXCursor u, char *op, size_t n, bool *postfix);
/* Through parentheses and implicit conversions (UnexposedExpr with one
 * child); with casts, also through explicit casts. */
CXCursor sf_strip(CXCursor e, bool casts);
/* The last child of c (a cast's operand), or a null cursor. */
CXCursor sf_last_child(CXCursor c);
/* op (an operator's spelling) is relational: <, >, <= or >=. */
bool sf_is_relational(const char *op);
/* op is a comparison: relational, == or !=. */
bool sf_is_comparison(const char *op);

#endif
