/* lint/engine/language.c -- C or C++ from a compile command (language.h). */
#include "language.h"

#include <string.h>

#include "path.h"

static const char *const cxx_sources[] = {".cpp", ".cc", ".cxx", ".c++", ".C"};
static const char *const cxx_headers[] = {".hpp", ".hh", ".hxx", ".h++"};

static bool has_any(const char *path, const char *const *ext, size_t n)
{
    for (size_t i = 0; path && i < n; i++)
        if (el_path_has_ext(path, ext[i]))
            return true;
    return false;
}

bool el_path_is_cxx(const char *path)
{
    return has_any(path, cxx_sources, sizeof cxx_sources / sizeof *cxx_sources) ||
           has_any(path, cxx_headers, sizeof cxx_headers / sizeof *cxx_headers);
}

bool el_path_is_header(const char *path)
{
    return el_path_has_ext(path, ".h") ||
           has_any(path, cxx_headers, sizeof cxx_headers / sizeof *cxx_headers);
}

bool el_path_is_unit(const char *path)
{
    return el_path_has_ext(path, ".c") ||
           has_any(path, cxx_sources, sizeof cxx_sources / sizeof *cxx_sources);
}

bool el_is_cxx_std_header(const char *name)
{
    /* C's headers all end in .h; <cmath>, <vector>, <cstddef> have no
     * extension at all */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    return *base && !strchr(base, '.');
}

/* g++, clang++-14, x86_64-linux-gnu-g++-12, c++, CC-style wrappers ending
 * in ++ (ccache's first argument is the real compiler). */
static bool cxx_driver(const char *driver)
{
    if (!driver)
        return false;
    const char *base = el_path_base(driver);
    return strstr(base, "++") != NULL;
}

bool el_args_have_language(char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(args[i], "-x") == 0 || strncmp(args[i], "-x", 2) == 0)
            return true;
    return false;
}

const char *el_args_language(char *const *args, size_t n)
{
    const char *x = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(args[i], "-x") == 0 && i + 1 < n)
            x = args[++i];
        else if (strncmp(args[i], "-x", 2) == 0)
            x = args[i] + 2;
    }
    return x;
}

const char *el_parse_language(bool name_is_cxx, char *const *args, size_t n)
{
    const char *x = el_args_language(args, n);
    if (!x)
        return name_is_cxx ? "c++" : "c";
    if (strcmp(x, "c") == 0 || strcmp(x, "c-header") == 0)
        return "c";
    if (strcmp(x, "c++") == 0 || strcmp(x, "c++-header") == 0)
        return "c++";
    return NULL;
}

bool el_language_is_cxx(const char *x)
{
    return strstr(x, "c++") || strcmp(x, "cuda") == 0 || strcmp(x, "hip") == 0;
}

bool el_command_is_cxx(const char *driver, char *const *args, size_t n, const char *file)
{
    const char *x = el_args_language(args, n);
    if (x)
        return el_language_is_cxx(x);
    bool std_cxx = false, std_c = false;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(args[i], "-std=c++", 8) == 0 || strncmp(args[i], "-std=gnu++", 10) == 0)
            std_cxx = true;
        else if (strncmp(args[i], "-std=c", 6) == 0 || strncmp(args[i], "-std=gnu", 8) == 0)
            std_c = true;
    }
    if (std_cxx)
        return true;
    if (std_c)
        return false;
    return cxx_driver(driver) || el_path_is_cxx(file);
}
