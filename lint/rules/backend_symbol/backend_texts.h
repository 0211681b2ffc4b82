/* lint/rules/backend_symbol/backend_texts.h -- the functions and types
 * backends define, from the run's facts and from the text of the files it
 * does not parse.
 *
 * EH102 reports a frontend's call of a function a backend's file defines
 * (darknet's cuda_make_array(), defined in its CUDA backend alone).  A
 * function that two backends define under the same name is no one
 * backend's: it is the interface the build links one backend's version
 * of (OSQP's algebra API, OSQPVectorf_ew_prod() defined by
 * algebra/builtin/, algebra/mkl/ and algebra/cuda/); so is a struct,
 * union or enum that two backends define under one tag (OSQP's
 * `struct OSQPVectorf_`, which a shared header names in `typedef struct
 * OSQPVectorf_ OSQPVectorf;`).  The backends a run parses tell through
 * the facts their translation units record (bs_backend_texts_note); the
 * others -- not built, so not in compile_commands.json, or C++ and CUDA
 * files a C run leaves alone -- are read from the text of their files
 * under the backend_dirs directories and those anchored backend_files
 * patterns name (el_text_each_definition: file-scope
 * definitions that are not static, outside `#if 0`, not CUDA device
 * code), once a run and only when a question comes.  The project hook
 * uses it: verdicts that depend on other files are never cached. */
#ifndef EL_BACKEND_TEXTS_H
#define EL_BACKEND_TEXTS_H

#include <stdbool.h>

#include "config.h"

typedef struct bs_backend_texts bs_backend_texts;

bs_backend_texts *bs_backend_texts_new(void);
/* The backend directories of configuration c are read (once for each
 * configuration and directory): the built-in backend_dirs pattern from
 * the project's root, not the current directory's. */
void bs_backend_texts_add_config(bs_backend_texts *t, const el_config *c);
/* path is parsed by the run: its definitions come as facts, not text. */
void bs_backend_texts_skip(bs_backend_texts *t, const char *path);
/* path is parsed by the run and is no backend's file: a function its
 * text defines (bs_backend_texts_own_defines) is the project's own. */
void bs_backend_texts_own(bs_backend_texts *t, const char *path);
/* Does the text of a file given to bs_backend_texts_own define a
 * function `name`, in any #if arm (the frontend's fallback where the
 * backend's version is not built)?  Read once, at the first question. */
bool bs_backend_texts_own_defines(bs_backend_texts *t, const char *name);
/* A function (tag false) or a struct, union or enum (tag true) that a
 * file of `backend` defines; `backend` must outlive t. */
void bs_backend_texts_note(bs_backend_texts *t, bool tag, const char *name, const char *backend);
/* Read the directories now, if not yet. */
void bs_backend_texts_read(bs_backend_texts *t);
/* Does a backend other than `backend` define a function `name` that is
 * not static?  A struct, union or enum `tag`?  (read first if need be) */
bool bs_backend_texts_other_defines(bs_backend_texts *t, const char *name, const char *backend);
bool bs_backend_texts_other_defines_tag(bs_backend_texts *t, const char *tag, const char *backend);
/* The one backend whose files' text defines a function `name` (not
 * static), or NULL: none, or several (the interface). */
const char *bs_backend_texts_defined_by(bs_backend_texts *t, const char *name);
void bs_backend_texts_free(bs_backend_texts *t);

#endif
