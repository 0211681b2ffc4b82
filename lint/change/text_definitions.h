/* lint/change/text_definitions.h -- the functions and tags a C file's
 * text defines, read without a parse: for the files of a backend a run
 * does not build (EH102, lint/rules/backend_symbol/backend_texts.h). */
#ifndef EL_TEXT_DEFINITIONS_H
#define EL_TEXT_DEFINITIONS_H

#include <stdbool.h>
#include <stddef.h>

/* What el_text_each_definition found. */
typedef enum el_text_def_kind {
    EL_TEXT_FUNCTION,        /* name(...) { */
    EL_TEXT_STATIC_FUNCTION, /* the same, with `static` before it in its declaration */
    EL_TEXT_TAG,             /* struct, union or enum name { */
} el_text_def_kind;

/* Each definition at file scope (or in an `extern "C" { }` block) in
 * text t: a function -- a name, `(...)`, perhaps `__attribute__((...))`,
 * then `{`; static when `static` comes before it in its declaration or
 * in an earlier prototype of it -- and each struct, union or enum with a
 * body: fn(name, its length, kind, ud).  Not read: what is inside a
 * function, struct, class or namespace, a C++ member (`A::f`, a
 * constructor's member initializers), CUDA device code (`__global__`,
 * `__device__` without `__host__`), `#if 0` blocks (their `#else` is
 * read), a parameter list longer than 16 KiB.  A reading, not a parse:
 * a definition a macro writes is not seen, and other `#if` branches are
 * all read. */
void el_text_each_definition(const char *t, size_t n,
                             void (*fn)(const char *name, size_t len, el_text_def_kind kind,
                                        void *ud),
                             void *ud);

#endif
