/* lint/change/macro_expand.h -- a small C preprocessor's macro expansion,
 * for code the preprocessor skipped (inactive.c): the macros come from a
 * lookup the caller gives (the TU's definitions), the tokens from text.
 * No libclang.
 *
 * It follows C11 6.10.3: a function-like macro's arguments are
 * macro-expanded before substitution, except as operands of # or ##, each
 * once whatever the number of its uses; ## joins tokens (an empty
 * argument a placemarker); # makes a string; the replacement is rescanned
 * with the rest of the text, a macro's name met in its own replacement
 * painted blue and never expanded again.
 *
 * Beyond it, a use is given up (em_expand returns false): a variadic
 * macro, more than EM_ARGS parameters, arguments nested more than
 * max_depth deep, a '(' never closed.  So is a use past a budget: a
 * tower of macros each using the next several times grows exponentially.
 * The budgets count, all levels together, the tokens read (read_budget)
 * and the tokens made or copied -- arguments collected, bodies
 * substituted, results (made_budget); `exhausted` then says a budget, not
 * the form of the use, stopped it. */
#ifndef EL_MACRO_EXPAND_H
#define EL_MACRO_EXPAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EM_ARGS 16
#define EM_READ_BUDGET 1024
#define EM_MADE_BUDGET (4 * EM_READ_BUDGET)
#define EM_DEPTH 64

/* A macro's definition: its tokens after the name (a function-like one's
 * parameter list first). */
typedef struct em_macro {
    char **tok;
    size_t n_tok;
    bool fn_like;
} em_macro;

/* The macro named `name` where the text is (NULL: none, or one not to
 * follow). */
typedef const em_macro *(*em_lookup_fn)(void *ud, const char *name);

#define EM_NO_ORIGIN SIZE_MAX
typedef struct em_tok {
    const char *s;            /* its spelling ("": a placemarker); owned by the
                               * expander's arena or the macro's definition */
    size_t origin;            /* the byte offset of the token it copies, or EM_NO_ORIGIN */
    bool blue;                /* painted blue (C11 6.10.3.4p2) */
    bool paste;               /* a ## of a macro's body (not one an argument brings) */
    bool space;               /* written after a blank (# keeps one there) */
    const char *by;           /* the macro whose ## made it, or NULL */
} em_tok;

typedef struct em_list {
    em_tok *v;
    size_t n, cap;
} em_list;

typedef struct em_chunk em_chunk;

typedef struct em_expander {
    em_lookup_fn lookup;
    void *ud;
    size_t read_budget;       /* tokens it may still read */
    size_t made_budget;       /* tokens it may still make or copy */
    unsigned max_depth;       /* arguments nested at most so deep */
    size_t made;              /* tokens made or copied since em_init (tests read it) */
    bool exhausted;           /* the last em_expand stopped at a budget */
    size_t *strz;             /* origins of the tokens # made a string of */
    size_t n_strz, cap_strz;
    em_chunk *arena;          /* the strings it made (freed by em_free) */
} em_expander;

/* A fresh expander with the default budgets. */
void em_init(em_expander *x, em_lookup_fn lookup, void *ud);
/* Budgets back to the defaults, the strings # made forgotten. */
void em_reset(em_expander *x);
/* The strings made forgotten (the tokens of the lists lexed or expanded
 * so far are gone). */
void em_release(em_expander *x);
void em_free(em_expander *x);

/* Parse a function-like macro's parameter list: tok[0] is "(".  Their
 * names into params (`...` as __VA_ARGS__, at most max), their number
 * into *n, the index of the body's first token into *body, *variadic.
 * false when it is no parameter list (or has more than max). */
bool em_params(const char *const *tok, size_t n_tok, const char **params, size_t max, size_t *n,
               size_t *body, bool *variadic);

/* Append the token t[0..len) (copied into the arena), from byte origin. */
void em_add(em_expander *x, em_list *l, const char *t, size_t len, size_t origin);
void em_list_free(em_list *l);

/* Lex the macro use at t[i..]: its name t[i..k), then its arguments from
 * the '(' at t[open] to the matching ')', into use, each token with its
 * offset; the end of the use (past its ')'), or 0 when it is not closed
 * within n, holds a directive, or has more than the read budget. */
size_t em_lex_use(em_expander *x, const char *t, size_t n, size_t i, size_t k, size_t open,
                  em_list *use);
/* Lex all of t[0..n) into l (comments and directives are not expected). */
void em_lex(em_expander *x, const char *t, size_t n, em_list *l);

/* Expand the macros in `in` into out; false when given up. */
bool em_expand(em_expander *x, const em_list *in, em_list *out);

#endif
