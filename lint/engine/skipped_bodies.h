/* lint/engine/skipped_bodies.h -- which functions of a TU parsed without
 * their bodies had one.
 *
 * libclang gives a function whose body the parse skipped the cursor and
 * the extent of a prototype (clang_isCursorDefinition is false for both);
 * only its indexer tells them apart (CXIdxDeclFlag_Skipped, clang's
 * FunctionDecl::hasSkippedBody).  Indexing walks every declaration of the
 * TU, so it is asked only where the text cannot tell which functions a
 * macro use writes have bodies (rule_api.c's skipped_body). */
#ifndef EL_SKIPPED_BODIES_H
#define EL_SKIPPED_BODIES_H

#include "clang_api.h"

typedef struct el_skipped_bodies el_skipped_bodies;

/* The functions of tu the indexer reports, each with whether its body was
 * skipped; NULL when libclang's indexer failed (then nothing is known). */
el_skipped_bodies *el_skipped_bodies_of(CXTranslationUnit tu);
/* 1: fn's body was skipped (fn is a definition); 0: fn is a declaration;
 * -1: not known (s is NULL, or the indexer did not report fn). */
int el_skipped_bodies_state(el_skipped_bodies *s, CXCursor fn);
void el_skipped_bodies_free(el_skipped_bodies *s);

#endif
