/* lint/engine/finding_alternatives.h -- the names one place's merged
 * findings gave, kept in the finding that stays.
 *
 * A line compiled more than once (a template included once per element
 * type, a file built once per precision in TUs of its own) gives a finding
 * per compilation, whose messages differ in what they name: "call to
 * backend function 'sgemv_'" and "... 'dgemv_'".  The engine keeps one
 * finding per place (finding.h); its message then names the others too:
 * "call to backend function 'dgemv_' (or 'sgemv_', where this line is
 * compiled again)", so a reader of the one finding knows every routine
 * the line calls. */
#ifndef EL_FINDING_ALTERNATIVES_H
#define EL_FINDING_ALTERNATIVES_H

#include <stddef.h>

/* The message `kept` with the quoted names that the messages others[0..n)
 * give in its stead: at the first quoted name where they differ from
 * kept, the others' names there (and the ones an earlier merge listed) are
 * added after kept's, sorted, each once.  A message whose text outside
 * its quoted names is not kept's (another kind of message) adds nothing.
 * NULL when nothing is added (kept stays as it is); else a new string. */
char *el_message_with_alternatives(const char *kept, const char *const *others, size_t n);

#endif
