/* EH103 true cases: code that asks which backend runs and acts on it. */
#include <stdio.h>
#include <string.h>
#include <eh/eh.h>

#define IS_BACKEND(n) (strcmp(eh_get_backend(), (n)) == 0)

eh_tensor *direct(const eh_tensor *a, const eh_tensor *b)
{
    if (strcmp(eh_get_backend(), "blas") == 0)   // expect: EH103
        return eh_matmul(a, b);
    return eh_dot(a, b);
}

int through_alias(void)
{
    const char *name = eh_get_backend();
    const char *same = name;                     /* an alias of an alias */
    return strncmp(same, "la", 2) == 0;          // expect: EH103
}

int character(void)
{
    const char *b = eh_get_backend();
    if (b[0] == 'r')                             // expect: EH103
        return 1;
    return *b != 'b';                            // expect: EH103
}

int switch_on_char(void)
{
    const char *b = eh_get_backend();
    char first = b[0];
    switch (first) {                             // expect: EH103
    case 'b':
        return 1;
    default:
        return 0;
    }
}

int switch_direct(void)
{
    switch (eh_get_backend()[0]) {               // expect: EH103
    case 'l':
        return 2;
    default:
        return 0;
    }
}

int assigned_later(int n)
{
    const char *b = "none";
    int hits = 0;
    for (int i = 0; i < n; i++) {
        hits += memcmp(b, "ref", 3) == 0;        // expect: EH103
        b = eh_get_backend();
    }
    return hits;
}

int copied(void)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s", eh_get_backend());
    char *dup = strdup(eh_get_backend());
    int r = strcasecmp(buf, "BLAS") == 0;        // expect: EH103
    r += strcmp(dup, "lazy") == 0;               // expect: EH103
    free(dup);
    return r;
}

int through_macro(void)
{
    return IS_BACKEND("blas");                   // expect: EH103
}

int pointer_compare(void)
{
    return eh_get_backend() == (const char *)"ref";  // expect: EH103
}
