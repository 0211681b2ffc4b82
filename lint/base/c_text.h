/* lint/base/c_text.h -- reading C source text where there is no parse:
 * the code the preprocessor skipped (inactive.c), the names a file's text
 * defines (own_names.c), what follows a declarator whose body libclang
 * skipped (rule_api.c).  Tokens only: identifiers, comments and literals,
 * lines with their continuations, #define. */
#ifndef EL_C_TEXT_H
#define EL_C_TEXT_H

#include <stdbool.h>
#include <stddef.h>

bool el_text_ident_start(char c);
bool el_text_ident_char(char c);

/* The identifier starting at t[i] (not inside a longer one): true with
 * its end in *e. */
bool el_text_ident_at(const char *t, size_t n, size_t i, size_t *e);

/* Does t[i..] spell name with a line continuation inside it (`eh_ref_\`,
 * newline, `abs`)?  The preprocessor joins the lines: one name. */
bool el_text_spells_split(const char *t, size_t n, size_t i, const char *name);

/* Is the word t[w..e) one a declarator never follows -- an operator or
 * statement word (return x, case x, sizeof(x), if (x), defined(X)) --
 * rather than a type or qualifier that may precede a declared name? */
bool el_text_operator_word(const char *t, size_t w, size_t e);

/* Is the name at t[i] declared rather than used: a type -- an identifier
 * that is no operator word, or such an identifier and `*`s that a
 * statement's start or another type word precedes -- before it, as
 * before a declarator (`float cblas_sdot(`, `static eh_tensor *f(`,
 * `fftw_plan p;`), where a use follows an operator, a '(' or ',',
 * `return`, or starts a statement?  b: where the text read starts (no
 * look further back); a directive's word (`#ifdef X` on the line
 * before) is no type. */
bool el_text_declared_at(const char *t, size_t b, size_t i);

/* Past a comment, literal or number at t[i] (i itself when there is none),
 * as lint/base/c_lexeme.h reads them; a quote left open ends with its line. */
size_t el_text_skip_lexeme(const char *t, size_t n, size_t i);

/* Past blanks, newlines and comments from i (not past a literal). */
size_t el_text_skip_blanks(const char *t, size_t n, size_t i);

/* Back from i past blanks, newlines, line continuations and comments
 * (a block comment, a line comment on an earlier line), never before b:
 * the end of the token before i. */
size_t el_text_back_blanks(const char *t, size_t b, size_t i);

/* The end of the line at i, continuation lines included (backslash-LF
 * and backslash-CR-LF). */
size_t el_text_line_end(const char *t, size_t n, size_t i);

/* Is t[i] the '#' that starts a directive (only blanks before it on its
 * line)? */
bool el_text_directive_at(const char *t, size_t i);

/* The next directive's '#' at or after i, comments and literals skipped,
 * with *le its line's end (el_text_line_end); n when there is none. */
size_t el_text_next_directive(const char *t, size_t n, size_t i, size_t *le);

/* A `#define NAME body` on t[i..le) (i at the '#'): the body's start, the
 * macro's name into name (cut to cap) and its start into *name_at (may be
 * NULL); 0 when it is another directive. */
size_t el_text_define_body(const char *t, size_t i, size_t le, char *name, size_t cap,
                           size_t *name_at);

#endif
