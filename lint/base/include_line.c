/* lint/base/include_line.c -- #include directives read as text
 * (include_line.h). */
#include "include_line.h"

#include <string.h>

static size_t blanks(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

bool el_include_line(const char *s, size_t n, bool *angled, const char **name, size_t *name_len)
{
    size_t i = blanks(s, n, 0);
    if (i >= n || s[i] != '#')
        return false;
    i = blanks(s, n, i + 1);
    if (n - i < 7 || strncmp(s + i, "include", 7) != 0)
        return false;
    i = blanks(s, n, i + 7);
    if (i >= n || (s[i] != '"' && s[i] != '<'))
        return false;
    char close = s[i] == '"' ? '"' : '>';
    size_t j = i + 1;
    while (j < n && s[j] != close && s[j] != '\n')
        j++;
    if (j >= n || s[j] != close)
        return false;
    *angled = close == '>';
    *name = s + i + 1;
    *name_len = j - i - 1;
    return true;
}
