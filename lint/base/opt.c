/* lint/base/opt.c -- shared command-line pieces (opt.h). */
#include "opt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

bool el_opt_is(const char *arg, const char *name)
{
    size_t ln = strlen(name);
    if (strncmp(arg, name, ln) != 0)
        return false;
    if (arg[ln] == '\0')
        return true;
    if (name[1] == '-')
        return arg[ln] == '=';
    return true; /* short option with a joined value */
}

const char *el_opt_value(int argc, char **argv, int *i, const char *name, char **err)
{
    const char *a = argv[*i];
    size_t ln = strlen(name);
    if (a[ln] == '=' && name[1] == '-')
        return a + ln + 1;
    if (a[ln] != '\0' && name[1] != '-')
        return a + ln; /* -j4, -pbuild, -oout */
    if (*i + 1 >= argc) {
        *err = el_xasprintf("option %s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

int el_opt_size(const char *s, size_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *out = (size_t)v;
    return 0;
}

int el_opt_jobs(const char *name, const char *v, int *out, char **err)
{
    size_t n;
    if (el_opt_size(v, &n) < 0 || n < 1 || n > 1024) {
        *err = el_xasprintf("%s: expected a number of jobs from 1 to 1024, got '%s'", name, v);
        return -1;
    }
    *out = (int)n;
    return 0;
}
