/* lint/engine/skipped_bodies.h -- which functions of a TU parsed without
 * their bodies had one.
 *
 * libclang gives a function whose body the parse skipped the cursor and
 * the extent of a prototype (clang_isCursorDefinition is false for both);
 * only its indexer tells them apart (CXIdxDeclFlag_Skipped, clang's
 * FunctionDecl::hasSkippedBody).  Indexing walks every declaration of the
 * TU, so it is asked only where the text cannot tell: a macro use that
 * writes both definitions and declarations (rule_api.c). */
#ifndef EL_SKIPPED_BODIES_H
#define EL_SKIPPED_BODIES_H

#include <stdbool.h>
#include "clang_api.h"

typedef struct el_skipped_bodies el_skipped_bodies;

/* The functions of tu whose bodies were skipped; NULL when libclang's
 * indexer failed (then nothing is known). */
el_skipped_bodies *el_skipped_bodies_of(CXTranslationUnit tu);
/* Was fn's body skipped (fn is a definition)? */
bool el_skipped_bodies_has(const el_skipped_bodies *s, CXCursor fn);
void el_skipped_bodies_free(el_skipped_bodies *s);

#endif
