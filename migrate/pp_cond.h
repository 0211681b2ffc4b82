/* migrate/pp_cond.h -- conditionals whose value needs no macro: `#if 0`,
 * `#if (0)`, `#if 0L`, `#if !1`, `#if 1 - 1`, the `#else` of `#if 1`.
 * Code under such a branch is switched off in every build configuration
 * (no --define-sets can compile it); a condition that names a macro
 * (or `true`) is never taken as constant, since a macro may expand to
 * any tokens.  `defined NAME` is 0 or 1 and regroups nothing: it decides
 * nothing alone, but `#if defined(HAVE_CBLAS) && 0` is constant 0. */
#ifndef EM_PP_COND_H
#define EM_PP_COND_H

#include <stdbool.h>
#include <stddef.h>

/* The condition c[0..n) of an #if or #elif (after its keyword, to the end
 * of the directive; comments and line continuations allowed), read as
 * tokens: an integer constant expression of literals (decimal, octal,
 * hex, binary; u/l suffixes), parentheses and the unary, binary and
 * ?: operators, evaluated as the preprocessor does (intmax_t /
 * uintmax_t), with `defined NAME` / `defined(NAME)` as an unknown 0 or
 * 1 that only a known operand of && (0) or || (not 0) decides?  True
 * with its value in *value; false when it names a macro, holds another
 * token (a character, string or floating literal, a comma), cannot be
 * evaluated (a division by zero) or depends on what is defined. */
bool em_pp_const(const char *c, size_t n, long long *value);

/* Is the byte at site of the file text d[0..len) in a branch that no
 * configuration takes: under an #if / #elif whose condition is constant
 * 0, or an #elif / #else after a branch whose condition is constant and
 * not 0 (walking the directives from the start of the file)?  True with
 * a description of the outermost such branch in why (cut to cap):
 * "#if 0" for a literal `#if 0`, else the directive quoted with its line
 * and why it is never taken. */
bool em_pp_dead_branch(const char *d, size_t len, size_t site, char *why, size_t cap);

/* The same for many sites of one text, in one walk of it when they come
 * in increasing order (an earlier site than the last starts it over):
 * em_pp_dead_branch per site read the file from its top each time, and
 * thousands of sites in one file made that quadratic.  d is borrowed. */
typedef struct em_pp_walk em_pp_walk;
em_pp_walk *em_pp_walk_new(const char *d, size_t len);
bool em_pp_walk_dead_at(em_pp_walk *w, size_t site, char *why, size_t cap);
void em_pp_walk_free(em_pp_walk *w);
/* The lines read so far, over all sites: the work, for tests that check
 * it grows with the text, not with the text times the sites. */
size_t em_pp_walk_work(const em_pp_walk *w);

#endif
