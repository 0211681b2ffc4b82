/* lint/rules/backend_symbol/backend_texts.h -- the functions backends
 * define, read from the text of their directories' files.
 *
 * EH102 reports a frontend's call of a function a backend's file defines
 * (darknet's cuda_make_array(), defined in its CUDA backend alone).  A
 * function that two backends define under the same name is no one
 * backend's: it is the interface the build links one backend's version
 * of (OSQP's algebra API, OSQPVectorf_ew_prod() defined by
 * algebra/builtin/, algebra/mkl/ and algebra/cuda/); so is a struct
 * that two backends define under one tag, which a shared header
 * declares (OSQP's `typedef struct OSQPVectorf_ OSQPVectorf;`).  A run parses the
 * backends it builds only; the others are read here, from the text of
 * every C, C++ and CUDA file under their directories (backend_dirs),
 * once a run and only when a question comes. */
#ifndef EL_BACKEND_TEXTS_H
#define EL_BACKEND_TEXTS_H

#include <stdbool.h>

#include "config.h"

typedef struct bs_backend_texts bs_backend_texts;

bs_backend_texts *bs_backend_texts_new(void);
/* The backend directories of configuration c are read (once each). */
void bs_backend_texts_add_config(bs_backend_texts *t, const el_config *c);
/* Read the directories now (the questions below then only read t, so
 * threads may share it). */
void bs_backend_texts_read(bs_backend_texts *t);
/* Does the text of a backend other than `backend` define a function
 * `name` that is not static?  (reads the directories on the first call) */
bool bs_backend_texts_other_defines(bs_backend_texts *t, const char *name, const char *backend);
/* Does it define struct, union or enum `tag` (with a body)?  t must have
 * been read. */
bool bs_backend_texts_other_defines_tag(const bs_backend_texts *t, const char *tag,
                                        const char *backend);
void bs_backend_texts_free(bs_backend_texts *t);

#endif
