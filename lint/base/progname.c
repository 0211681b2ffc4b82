/* lint/base/progname.c -- see progname.h. */
#include "progname.h"

const char *el_progname = "emberlint";
