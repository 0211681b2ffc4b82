/* lint/base/c_lexeme.h -- the C and C++ lexemes inside which brackets,
 * quotes and a call template's $N are not code: comments, string and
 * character literals (encoding prefixes, C++ raw strings R"d(...)d"),
 * and numbers whose digits a quote separates (C23 and C++14: 1'000),
 * read from text with no parse (call templates, a call's arguments). */
#ifndef EL_C_LEXEME_H
#define EL_C_LEXEME_H

#include <stddef.h>

typedef enum {
    EL_LX_OTHER,    /* punctuation, a blank, a '$': one character */
    EL_LX_IDENT,    /* an identifier (one not prefixing a literal) */
    EL_LX_NUMBER,   /* a pp-number: 1.5e-3f, 0x1p+4, 1'000 */
    EL_LX_LITERAL,  /* "..", '.', L"..", u8"..", R"d(..)d" */
    EL_LX_COMMENT,  /* block or line comment */
} el_lexeme;

/* The lexeme starting at t[i] (i < n) and its end in *end: past it, i + 1
 * for EL_LX_OTHER, n + 1 for a literal or block comment that does not
 * close within t[0..n) (a literal closes on its line). */
el_lexeme el_lexeme_at(const char *t, size_t n, size_t i, size_t *end);

#endif
