/* lint/engine/args_policy.c -- the allow-list of compiler arguments
 * (args_policy.h). */
#include "args_policy.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

typedef enum form {
    F_FLAG,        /* exactly this */
    F_JOINED,      /* this prefix, value attached ("-std=c11") */
    F_SEP,         /* exactly this, value in the next argument */
    F_JOINED_SEP,  /* "-Idir" or "-I dir" */
} form;

typedef struct spec {
    const char *name;
    form form;
    el_arg_fate fate;
    bool path;
} spec;

#define KEEP EL_ARG_KEEP
#define DROP EL_ARG_DROP
#define QUIET EL_ARG_DROP_QUIET

/* Looked up in order, so a longer name comes before its prefix
 * ("-include-pch" before "-include"). */
static const spec specs[] = {
    /* include search and macros */
    {"-include-pch", F_SEP, DROP, true},
    {"-isystem-after", F_JOINED_SEP, KEEP, true},
    /* relative to -iprefix or the sysroot, not to the directory */
    {"-iwithprefixbefore", F_JOINED_SEP, KEEP, false},
    {"-iwithprefix", F_JOINED_SEP, KEEP, false},
    {"-iwithsysroot", F_JOINED_SEP, KEEP, false},
    {"-iframework", F_JOINED_SEP, KEEP, true},
    {"-idirafter", F_JOINED_SEP, KEEP, true},
    {"-cxx-isystem", F_JOINED_SEP, KEEP, true},
    {"-isysroot", F_JOINED_SEP, KEEP, true},
    {"-isystem", F_JOINED_SEP, KEEP, true},
    {"-iprefix", F_JOINED_SEP, KEEP, true},
    {"-iquote", F_JOINED_SEP, KEEP, true},
    {"-imacros", F_JOINED_SEP, KEEP, true},
    {"-include", F_JOINED_SEP, KEEP, true},
    {"--sysroot=", F_JOINED, KEEP, true},
    {"--sysroot", F_SEP, KEEP, true},
    {"-I", F_JOINED_SEP, KEEP, true},
    {"-F", F_JOINED_SEP, KEEP, true},
    {"-D", F_JOINED_SEP, KEEP, false},
    {"-U", F_JOINED_SEP, KEEP, false},
    {"-nostdinc++", F_FLAG, KEEP, false},
    {"-nostdinc", F_FLAG, KEEP, false},
    {"-nostdlibinc", F_FLAG, KEEP, false},
    {"-nobuiltininc", F_FLAG, KEEP, false},
    {"-undef", F_FLAG, KEEP, false},
    /* language, dialect, target */
    {"-std=", F_JOINED, KEEP, false},
    {"--std=", F_JOINED, KEEP, false},
    {"-ansi", F_FLAG, KEEP, false},
    {"-trigraphs", F_FLAG, KEEP, false},
    {"-pedantic-errors", F_FLAG, KEEP, false},
    {"-pedantic", F_FLAG, KEEP, false},
    {"--target=", F_JOINED, KEEP, false},
    {"-target", F_SEP, KEEP, false},
    {"-arch", F_SEP, KEEP, false},
    {"--gcc-toolchain=", F_JOINED, KEEP, true},
    {"-pthread", F_FLAG, KEEP, false},
    {"-fsyntax-only", F_FLAG, KEEP, false},
    {"-w", F_FLAG, KEEP, false},
    {"-C", F_FLAG, KEEP, false},
    {"-CC", F_FLAG, KEEP, false},
    /* dropped with their value, so the value is not taken for an input */
    {"-Xclang", F_SEP, DROP, false},
    {"-mllvm", F_SEP, DROP, false},
    {"-Xpreprocessor", F_SEP, DROP, false},
    {"-Xassembler", F_SEP, DROP, false},
    {"-Xlinker", F_SEP, DROP, false},
    {"-Xanalyzer", F_SEP, DROP, false},
    {"-Xopenmp-target", F_SEP, DROP, false},
    {"-Xcuda-ptxas", F_SEP, DROP, false},
    {"-Xcuda-fatbinary", F_SEP, DROP, false},
    {"--serialize-diagnostics", F_SEP, DROP, false},
    {"-dependency-file", F_SEP, DROP, false},
    {"-dependency-dot", F_SEP, DROP, false},
    {"-ivfsoverlay", F_SEP, DROP, false},
    {"-load", F_SEP, DROP, false},
    {"--config", F_SEP, DROP, false},
    {"-B", F_JOINED_SEP, DROP, false},
    {"-T", F_JOINED_SEP, DROP, false},
    {"-u", F_JOINED_SEP, DROP, false},
    {"-z", F_JOINED_SEP, DROP, false},
    /* what every build's command carries: outputs, dependency files,
     * debug information, linking */
    {"-c", F_FLAG, QUIET, false},
    {"-S", F_FLAG, QUIET, false},
    {"-E", F_FLAG, QUIET, false},
    {"-P", F_FLAG, QUIET, false},
    {"-pipe", F_FLAG, QUIET, false},
    {"-o", F_JOINED_SEP, QUIET, false},
    {"-MD", F_FLAG, QUIET, false},
    {"-MMD", F_FLAG, QUIET, false},
    {"-MP", F_FLAG, QUIET, false},
    {"-MG", F_FLAG, QUIET, false},
    {"-MV", F_FLAG, QUIET, false},
    {"-MM", F_FLAG, QUIET, false},
    {"-M", F_FLAG, QUIET, false},
    {"-MF", F_JOINED_SEP, QUIET, false},
    {"-MT", F_JOINED_SEP, QUIET, false},
    {"-MQ", F_JOINED_SEP, QUIET, false},
    {"-MJ", F_JOINED_SEP, QUIET, false},
    {"-L", F_JOINED_SEP, QUIET, false},
    {"-l", F_JOINED_SEP, QUIET, false},
    {"-shared", F_FLAG, QUIET, false},
    {"-static", F_FLAG, QUIET, false},
    {"-rdynamic", F_FLAG, QUIET, false},
    {"--param", F_SEP, QUIET, false},
    {"--param=", F_JOINED, QUIET, false},
    /* libclang's database reader adds it after a c++ or g++ driver
     * (--driver-mode=g++): the language is told from the driver, -x,
     * -std= and the file (language.c), not from a mode */
    {"--driver-mode=", F_JOINED, QUIET, false},
    {"--", F_FLAG, QUIET, false},
};

/* -f options (without "-f" and "no-") that only change the language or
 * the predefined macros.  A name ending in '=' or '-' is a prefix. */
static const char *const f_language[] = {
    "ms-extensions", "ms-compatibility", "ms-compatibility-version=", "ms-volatile",
    "delayed-template-parsing", "borland-extensions", "declspec", "blocks", "gnu-keywords",
    "gnu89-inline", "gnu-inline-asm", "asm", "builtin", "builtin-", "freestanding", "hosted",
    "signed-char", "unsigned-char", "short-enums", "short-wchar", "wchar-type=", "common",
    "wrapv", "trapv", "exceptions", "cxx-exceptions", "rtti", "rtti-data",
    "threadsafe-statics", "operator-names", "dollars-in-identifiers", "trigraphs", "digraphs",
    "char8_t", "sized-deallocation", "aligned-new", "aligned-new=", "aligned-allocation",
    "coroutines-ts", "concepts-ts", "access-control", "elide-constructors",
    "implicit-templates", "permissive", "openmp", "openmp=", "openmp-simd", "openmp-version=",
    "openacc", "fast-math", "finite-math-only", "math-errno", "signed-zeros", "honor-nans",
    "honor-infinities", "unsafe-math-optimizations", "associative-math", "reciprocal-math",
    "fp-contract=", "denormal-fp-math=", "PIC", "pic", "PIE", "pie", "stack-protector",
    "stack-protector-strong", "stack-protector-all", "sanitize=", "lax-vector-conversions",
    "lax-vector-conversions=", "double-square-bracket-attributes", "extended-identifiers",
    "input-charset=", "exec-charset=", "wide-exec-charset=", "pack-struct", "pack-struct=",
    "max-type-align=", "template-depth=", "template-backtrace-limit=", "constexpr-depth=",
    "constexpr-steps=", "bracket-depth=", "error-limit=", "macro-backtrace-limit=",
    "message-length=", "diagnostics-", "color-diagnostics", "caret-diagnostics",
    "show-column", "show-source-location", "spell-checking", "elide-type", "tabstop=",
    "strict-aliasing", "strict-overflow", "inline", "inline-functions", "zvector",
    "altivec", "objc-arc", "objc-runtime=", "modules-ts",
    "char-signedness=", "emulated-tls", "new-alignment=", "signed-bitfields",
    "unsigned-bitfields", "keep-static-consts", "apple-kext", "fixed-point", "gnu-runtime",
};

/* -f options that only change code generation: irrelevant to parsing,
 * dropped without a note. */
static const char *const f_codegen[] = {
    "omit-frame-pointer", "function-sections", "data-sections", "unroll-loops",
    "vectorize", "slp-vectorize", "lto", "lto=", "visibility=", "visibility-inlines-hidden",
    "stack-clash-protection", "strict-vtable-pointers", "plt", "semantic-interposition",
    "unique-section-names", "ident", "debug-prefix-map=", "file-prefix-map=",
    "macro-prefix-map=", "asynchronous-unwind-tables", "unwind-tables", "jump-tables",
    "merge-all-constants", "zero-initialized-in-bss", "align-functions=", "align-loops=",
    "cf-protection", "cf-protection=", "tree-vectorize", "optimize-sibling-calls",
    "inline-small-functions", "delete-null-pointer-checks", "reorder-blocks",
    "stack-usage", "sanitize-recover=", "sanitize-recover", "sanitize-trap=",
    "sanitize-address-use-after-scope", "trivial-auto-var-init=", "split-stack",
    "instrument-functions", "verbose-asm", "exceptions-model=", "pcc-struct-return",
    "reg-struct-return", "short-double", "single-precision-constant", "debug-macro",
};

static bool in_names(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        char last = names[i][l - 1];
        if (last == '=' || last == '-' ? strncmp(s, names[i], l) == 0 : strcmp(s, names[i]) == 0)
            return true;
    }
    return false;
}

#define COUNT(a) (sizeof a / sizeof a[0])

static el_arg_fate f_option(const char *arg)
{
    const char *name = arg + 2;
    if (strncmp(name, "no-", 3) == 0)
        name += 3;
    if (in_names(f_language, COUNT(f_language), name))
        return KEEP;
    if (in_names(f_codegen, COUNT(f_codegen), name))
        return QUIET;
    return DROP; /* -fplugin=, -fprofile-*, -fmodules*, -ftime-trace, ... and the unknown */
}

/* -x LANGUAGE: source languages only (not "ast" or "precompiled-header",
 * which make libclang load a file as a serialized AST). */
static bool source_language(const char *lang)
{
    static const char *const langs[] = {
        "c", "c-header", "cpp-output", "c++", "c++-header", "c++-cpp-output", "objective-c",
        "objective-c-header", "objective-c++", "objective-c++-header", "cuda", "hip", "cl",
        "clcpp", "assembler-with-cpp",
    };
    for (size_t i = 0; i < COUNT(langs); i++)
        if (strcmp(lang, langs[i]) == 0)
            return true;
    return false;
}

static el_arg_info info(el_arg_fate fate, size_t span)
{
    el_arg_info r = {.fate = fate, .span = span};
    return r;
}

/* An option's own spelling is plain: letters, digits and a few
 * punctuation characters (values, such as paths, are not options). */
static bool plain_spelling(const char *a)
{
    for (; *a; a++)
        if (!((*a >= 'a' && *a <= 'z') || (*a >= 'A' && *a <= 'Z') || (*a >= '0' && *a <= '9') ||
              strchr("-_=+.,:/", *a)))
            return false;
    return true;
}

/* Options recognized by their shape rather than by name. */
static el_arg_info shaped(char *const *args, size_t n, size_t i)
{
    const char *a = args[i];
    if (!plain_spelling(a) || strncmp(a, "-mllvm", 6) == 0)
        return info(DROP, 1);
    if (strcmp(a, "-x") == 0 || (strncmp(a, "-x", 2) == 0 && a[2])) {
        bool sep = a[2] == '\0';
        if (sep && i + 1 >= n)
            return info(DROP, 1);
        return info(source_language(sep ? args[i + 1] : a + 2) ? KEEP : DROP, sep ? 2 : 1);
    }
    if (a[1] == 'W') /* warnings; -Wp,..., -Wa,..., -Wl,... hand options on */
        return info(!strchr(a, ',') ? KEEP
                    : strncmp(a, "-Wl,", 4) == 0 || strncmp(a, "-Wa,", 4) == 0 ? QUIET : DROP, 1);
    if (a[1] == 'f' && a[2])
        return info(f_option(a), 1);
    if (a[1] == 'm' && a[2]) /* target features (-mavx2 defines __AVX2__) */
        return info(KEEP, 1);
    if (a[1] == 'O') /* -O2 defines __OPTIMIZE__ */
        return info(KEEP, 1);
    if (a[1] == 'g') /* debug information: irrelevant */
        return info(strcmp(a, "-gmodules") == 0 ? DROP : QUIET, 1);
    return info(DROP, 1);
}

el_arg_info el_arg_inspect(char *const *args, size_t n, size_t i)
{
    const char *a = args[i];
    if (a[0] != '-' || a[1] == '\0') {
        el_arg_info r = info(a[0] ? DROP : QUIET, 1);
        r.bare = true;
        return r;
    }
    for (size_t k = 0; k < COUNT(specs); k++) {
        const spec *s = &specs[k];
        size_t l = strlen(s->name);
        bool exact = strcmp(a, s->name) == 0;
        bool joined = !exact && strncmp(a, s->name, l) == 0;
        el_arg_info r = info(s->fate, 1);
        r.path = s->path;
        r.searched = strcmp(s->name, "-include") == 0 || strcmp(s->name, "-imacros") == 0;
        switch (s->form) {
        case F_FLAG:
            if (!exact)
                continue;
            return r;
        case F_JOINED:
            if (!joined && !exact)
                continue;
            r.value_off = l;
            return r;
        case F_SEP:
            if (!exact)
                continue;
            break;
        case F_JOINED_SEP:
            if (joined) {
                r.value_off = l;
                return r;
            }
            if (!exact)
                continue;
            break;
        }
        /* the value is the next argument */
        if (i + 1 >= n) { /* missing: nothing to keep */
            r.fate = r.fate == KEEP ? DROP : r.fate;
            return r;
        }
        r.span = 2;
        return r;
    }
    /* "-mllvm" is a spec; any other -m is a target option */
    return shaped(args, n, i);
}

/* ---- OpenMP ------------------------------------------------------------ */

/* _OPENMP as gcc 6 to 13 define it (OpenMP 4.5), whatever the version
 * asked: clang 14's own <omp.h>, which libclang finds first, declares
 * OpenMP 5.0's device functions twice from 201811 on and keeps them apart
 * with `#pragma omp begin declare variant`, which only OpenMP itself
 * reads. */
#define OPENMP_MACRO "-D_OPENMP=201511"

/* How many arguments at args[i] are an OpenMP option (0: none); *on
 * tells what it turns OpenMP into (1 on, 0 off, -1 neither: a version,
 * or the simd-only mode, which defines nothing). */
static size_t openmp_option(char *const *args, size_t n, size_t i, int *on)
{
    const char *a = args[i];
    *on = -1;
    if ((strcmp(a, "-Xclang") == 0 || strcmp(a, "-Xpreprocessor") == 0) && i + 1 < n &&
        strcmp(args[i + 1], "-fopenmp") == 0) {
        *on = 1; /* Apple clang's spellings */
        return 2;
    }
    if (strcmp(a, "-fopenmp") == 0 || strcmp(a, "-fopenmp=libomp") == 0 ||
        strcmp(a, "-fopenmp=libiomp5") == 0 || strcmp(a, "-qopenmp") == 0 ||
        strcmp(a, "-fiopenmp") == 0) /* (the last two: Intel's icx) */
        *on = 1;
    else if (strncmp(a, "-fopenmp=", 9) == 0 || strcmp(a, "-fno-openmp") == 0)
        *on = 0; /* (clang 14 runs no other runtime's OpenMP: -fopenmp=libgomp is off) */
    else if (strncmp(a, "-fopenmp-version=", 17) != 0 && strcmp(a, "-fopenmp-simd") != 0 &&
             strcmp(a, "-fno-openmp-simd") != 0)
        return 0;
    return 1;
}

size_t el_args_openmp_as_c(char **args, size_t n)
{
    int on = 0;
    bool any = false;
    for (size_t i = 0; i < n; i += el_arg_inspect(args, n, i).span) {
        int o;
        if (openmp_option(args, n, i, &o)) {
            any = true;
            on = o >= 0 ? o : on;
        }
    }
    if (!any)
        return n;
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        int o;
        size_t k = openmp_option(args, n, i, &o);
        if (k) {
            for (size_t j = 0; j < k; j++)
                free(args[i + j]);
            i += k;
            continue;
        }
        for (size_t span = el_arg_inspect(args, n, i).span; span && i < n; span--)
            args[out++] = args[i++];
    }
    if (on) { /* first, as the compiler's own macros come before any -D or -U */
        memmove(args + 1, args, out * sizeof *args);
        args[0] = el_xstrdup(OPENMP_MACRO);
        out++;
    }
    return out;
}

size_t el_args_filter(char **args, size_t n, char ***notes, size_t *n_notes)
{
    size_t out = 0, cap = notes ? *n_notes : 0;
    for (size_t i = 0; i < n;) {
        el_arg_info k = el_arg_inspect(args, n, i);
        if (k.fate == KEEP) {
            for (size_t j = 0; j < k.span; j++)
                args[out++] = args[i + j];
        } else {
            if (k.fate == DROP && notes) {
                el_grow(notes, &cap, *n_notes + 1, sizeof **notes);
                (*notes)[(*n_notes)++] = k.span == 2 ? el_xasprintf("%s %s", args[i], args[i + 1])
                                                     : el_xstrdup(args[i]);
            }
            for (size_t j = 0; j < k.span; j++)
                free(args[i + j]);
        }
        i += k.span;
    }
    return out;
}
