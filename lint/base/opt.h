/* lint/base/opt.h -- the command-line pieces emberlint (lint/cli.c) and
 * ember-migrate (migrate/main.c) share, so that their common options
 * (-p, -j, --format, ...) are spelled and checked the same way. */
#ifndef EL_OPT_H
#define EL_OPT_H

#include <stdbool.h>
#include <stddef.h>

/* Does arg name option `name`, exactly or with its value joined
 * ("--opt=VALUE", "-xVALUE")? */
bool el_opt_is(const char *arg, const char *name);
/* The value of option `name` at argv[*i]: "--opt=VALUE", "--opt VALUE",
 * "-xVALUE" or "-x VALUE" (then *i moves past it).  NULL with *err
 * (malloc'd) when it is missing. */
const char *el_opt_value(int argc, char **argv, int *i, const char *name, char **err);
/* A non-negative decimal size; -1 when s is not one. */
int el_opt_size(const char *s, size_t *out);
/* The value of -j/--jobs (`name`): 1 to 1024; -1 with *err (malloc'd). */
int el_opt_jobs(const char *name, const char *v, int *out, char **err);

#endif
