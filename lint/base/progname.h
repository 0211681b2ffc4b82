/* lint/base/progname.h -- the name the shared lint code prints before its
 * messages: "emberlint", or "ember-migrate" when the migrator runs the
 * same engine (so every message names the tool the user ran). */
#ifndef EL_PROGNAME_H
#define EL_PROGNAME_H

extern const char *el_progname;

#endif
