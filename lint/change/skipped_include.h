/* lint/change/skipped_include.h -- whether an #include must stay for the
 * code its file's preprocessor skipped, decided once for emberlint --fix
 * (fix.c) and ember-migrate (plan.c).
 *
 * A name the skipped code uses (EL_FACT_INACTIVE_NAMES: any name, with a
 * backend prefix or not) that the header's text declares -- all of it,
 * the arms its own preprocessor skips too (darknet's cuda.h declares its
 * functions only under #ifdef GPU), and the files its #includes name,
 * read the same way (beside it, else any of `files`, the tree's, whose
 * path ends as spelled: darknet.h from -Iinclude) -- keeps the include: the configuration that
 * compiles the skipped code reads that declaration through it.  Reading
 * text, not a parse, the answer leans to keeping: any name of the
 * header's text outside comments, literals, the parameter lists of its
 * declarators and the bodies of its structs, unions and functions counts
 * as declared. */
#ifndef EL_SKIPPED_INCLUDE_H
#define EL_SKIPPED_INCLUDE_H

#include "inactive.h"

/* Why the #include of `header` (a path, absolute) must stay in `path`
 * (absolute, real) for the code `in` says path's preprocessor skipped
 * (and no TU compiles): "line 19 uses dev_make_array, which dev.h
 * declares (in code it may skip too)" (malloc'd), or NULL.  rewritten
 * (NULL: none is): is the use x going to be rewritten (ember-migrate's
 * proven renames in skipped code), so that it needs nothing? */
char *el_skipped_include_needed(const el_inactive *in, const char *path, const char *header,
                                const char *const *files, size_t n_files,
                                bool (*rewritten)(void *ud, const el_inactive_name *x),
                                void *ud);

/* The header the quoted #include on line `line` of `file` names, found
 * beside file (malloc'd, real), or NULL: emberlint's EH101 findings point
 * at their include. */
char *el_skipped_include_header(const char *file, unsigned line);

/* Does the text of `header` (and of the files its #includes name, every
 * arm) declare `name`?  Not reading `user` (real path, or NULL), the file
 * of the use, which writes the name whatever declares it. */
bool el_header_text_declares(const char *header, const char *name, const char *const *files,
                             size_t n_files, const char *user);

#endif
