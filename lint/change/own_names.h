/* lint/change/own_names.h -- the names a file's text defines itself, for
 * reading the code the preprocessor skipped (inactive.c).
 *
 * Where code is compiled, the parser tells a project's own `struct
 * fftw_config` from the library's `fftwf_plan`; in skipped code only the
 * text is there.  A name the text defines -- a struct, union or enum with
 * a body, a typedef, a #define, a variable (a local, a parameter, a
 * file-scope one: `fftw_plan fftw_fwd;`, which EH102 does not report
 * where compiled) -- is the project's own for a use in a
 * skipped range when a definition of it is compiled, or lies in an arm
 * of the same conditions as the use (`#ifdef WITH_FFTW` around both, not
 * `#ifdef NO_FFTW`; never an `#if 0`), and none of those stands for a
 * library's name: `#define
 * fftw_malloc fftwf_malloc`, `typedef fftwf_plan fftw_plan_t;`, a
 * variable initialized with one alone (`fn fftw_free_fn = fftw_free;`), a
 * fallback `#ifndef FFTW_ESTIMATE / #define FFTW_ESTIMATE ...`, or a
 * definition built on such a name (`#define fftw_alloc fftw_malloc`).
 * A prototype defines nothing: code declares the Fortran BLAS names
 * (dgemm_) itself and still calls the library. */
#ifndef EL_OWN_NAMES_H
#define EL_OWN_NAMES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct el_own_names el_own_names;

/* Does `name` name a library's symbol (by the configuration)? */
typedef bool (*el_library_name_fn)(const char *name, void *ud);

/* The definitions in text t (n bytes) of a file whose skipped ranges in
 * this TU are [skip_b[k], skip_e[k]).  A file the TU enters more than
 * once: libclang gives the first entry's skipped ranges only, and
 * cursors[0..n_cursors) (sorted offsets) are where some entry has a
 * cursor: a definition on such a line is compiled (none: NULL, 0).  NULL
 * when out of memory. */
el_own_names *el_own_names_new(const char *t, size_t n, const size_t *skip_b,
                               const size_t *skip_e, size_t n_skip, const size_t *cursors,
                               size_t n_cursors, el_library_name_fn library, void *ud);
/* The offset of the use the next questions are about (its #if arms). */
void el_own_names_at(el_own_names *o, size_t off);
/* Is `name`, used there, the file's own? */
bool el_own_names_own(el_own_names *o, const char *name);
/* Does the text declare a variable named `name` at offset off (its
 * declarator: a declaration alone uses nothing, also where the variable
 * stands for a library's name, `fn fftw_free_fn = fftw_free;`)? */
bool el_own_names_declares_at(const el_own_names *o, const char *name, size_t off);
void el_own_names_free(el_own_names *o);
/* Is the line before the one holding offset i of text t `#ifndef NAME`
 * or `#if !defined(NAME)` for the name at [nb, ne) of t: a fallback
 * definition of a library's macro (`#ifndef FFTW_ESTIMATE / #define
 * FFTW_ESTIMATE ...`)? */
bool el_own_names_guarded_by_ifndef(const char *t, size_t i, size_t nb, size_t ne);

#endif
