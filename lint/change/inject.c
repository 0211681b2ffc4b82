/* lint/change/inject.c -- failure injection for tests (inject.h). */
#include "inject.h"

#include <signal.h>
#include <stdlib.h>

static long fail_at, writes, kill_at, steps;
static int kill_sig = SIGKILL;

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : 0;
}

void el_inject_reset(void)
{
    fail_at = env_long("EL_TEST_FAIL_WRITE");
    kill_at = env_long("EL_TEST_KILL_AT");
    long s = env_long("EL_TEST_KILL_SIGNAL");
    kill_sig = s > 0 ? (int)s : SIGKILL;
    writes = steps = 0;
}

bool el_inject_write_fails(void)
{
    writes++;
    return fail_at > 0 && writes == fail_at;
}

void el_inject_step(void)
{
    steps++;
    if (kill_at > 0 && steps == kill_at)
        raise(kill_sig);
}
