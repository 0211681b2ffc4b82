/* lint/base/progname.h -- the name the shared lint code prints before its
 * messages: "emberlint", or "ember-migrate" when the migrator runs the
 * same engine (so every message names the tool the user ran). */
#ifndef EL_PROGNAME_H
#define EL_PROGNAME_H

extern const char *el_progname;

/* What emberlint's messages say it does with a file ("not linted", "add
 * it to lint them"): the default of the texts the tools share, which
 * ember-migrate gives its own ("scanned", "scan"). */
#define EL_LINTED "linted"
#define EL_LINT "lint"

#endif
