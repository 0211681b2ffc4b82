/* The thread-local error record (DESIGN.md 3). */
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

#define EH_MESSAGE_MAX 512

static _Thread_local eh_status last_status = EH_OK;
static _Thread_local char last_message[EH_MESSAGE_MAX];

eh_status eh_last_error(void) { return last_status; }

const char *eh_error_message(void) { return last_message; }

void eh_clear_error(void)
{
    last_status = EH_OK;
    last_message[0] = '\0';
}

eh_status eh_set_error(eh_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_status = status;
    return status;
}

const char *eh_status_name(eh_status status)
{
    switch (status) {
#define EH_STATUS_NAME(code) case code: return #code;
    EH_STATUS_NAME(EH_OK)
    EH_STATUS_NAME(EH_ERR_NULL_ARG)
    EH_STATUS_NAME(EH_ERR_DTYPE)
    EH_STATUS_NAME(EH_ERR_SHAPE)
    EH_STATUS_NAME(EH_ERR_AXIS)
    EH_STATUS_NAME(EH_ERR_NEGATIVE_SIZE)
    EH_STATUS_NAME(EH_ERR_OVERFLOW)
    EH_STATUS_NAME(EH_ERR_NOMEM)
    EH_STATUS_NAME(EH_ERR_INVALID_ARG)
    EH_STATUS_NAME(EH_ERR_INDEX)
    EH_STATUS_NAME(EH_ERR_BACKEND)
    EH_STATUS_NAME(EH_ERR_UNSUPPORTED)
    EH_STATUS_NAME(EH_ERR_DEVICE)
    EH_STATUS_NAME(EH_ERR_LINALG)
    EH_STATUS_NAME(EH_ERR_SCOPE)
    EH_STATUS_NAME(EH_ERR_INTERNAL)
#undef EH_STATUS_NAME
    }
    return "EH_ERR_UNKNOWN";
}

int eh__require(const char *op, const eh_tensor *t, const char *arg)
{
    if (t)
        return 1;
    if (last_status == EH_OK)
        eh_set_error(EH_ERR_NULL_ARG, "%s: argument '%s' is NULL", op, arg);
    return 0;
}

const char *eh_shape_str(int ndim, const int64_t *shape)
{
    static _Thread_local char bufs[4][16 * EH_MAX_DIMS + 8];
    static _Thread_local int next;
    char *buf = bufs[next];
    next = (next + 1) % 4;
    size_t cap = sizeof bufs[0], len = 0;
    len += (size_t)snprintf(buf + len, cap - len, "(");
    for (int d = 0; d < ndim && len < cap; d++)
        len += (size_t)snprintf(buf + len, cap - len, d ? ", %lld" : "%lld",
                                (long long)shape[d]);
    if (len < cap)
        snprintf(buf + len, cap - len, ndim == 1 ? ",)" : ")");
    return buf;
}
