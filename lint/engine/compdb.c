/* lint/engine/compdb.c -- compile_commands.json through libclang (compdb.h). */
#include "compdb.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clang_api.h"

#include "args_policy.h"
#include "config_json.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "progname.h"
#include "strbuf.h"
#include "strmap.h"

typedef struct entry {
    char *file;      /* absolute, real when it exists */
    char *dir;       /* its directory */
    char **args;
    size_t n_args;
    char *bad_rsp;   /* a response file left unexpanded: "@NAME" as written */
    char *bad_path;  /* it, absolute */
    char *bad_why;   /* why it could not be read */
    bool bad_told;   /* said by el_compdb_warn_unread */
    char *lang;      /* the -x in effect for the input (the last before it), or NULL */
} entry;

struct el_compdb {
    entry *v;
    size_t n, cap;
    char *dir;                  /* loaded: the directory holding it, absolute */
    char *json;                 /* loaded: its compile_commands.json, as -p named it */
    bool in_memory;             /* el_compdb_new's */
    const el_compdb *from;      /* in memory: the loaded one it was made from */
};

void el_args_free(char **args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(args[i]);
    free(args);
}

static char *absolutize(const char *dir, const char *p)
{
    if (p[0] == '/' || p[0] == '\0' || p[0] == '=')
        return el_xstrdup(p);
    char *j = el_path_join(dir, p);
    char *a = el_path_abs(j);
    free(j);
    return a;
}

static void push(char ***v, size_t *n, size_t *cap, char *s)
{
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = s;
}

static bool is_self(const entry *e, const char *arg)
{
    char *abs = absolutize(e->dir, arg);
    char *real = el_path_real(abs);
    bool self = strcmp(abs, e->file) == 0 || (real && strcmp(real, e->file) == 0);
    free(real);
    free(abs);
    return self;
}

/* A response file (@FILE) is expanded by libclang's database reader as
 * gcc and clang expand it: whitespace-separated arguments with quotes
 * and backslash escapes, a relative name (nested ones too) against the
 * entry's directory.  One still there could not be read: missing (a
 * file the build writes, not built yet), a directory, unreadable, or it
 * names itself through others.  gcc and clang stop on it ("linker input
 * file not found", "no such file or directory"); the entry is parsed
 * without it, and the load says so (say_bad_rsp). */
static bool unexpanded_rsp(entry *e, const char *arg)
{
    if (arg[0] != '@' || arg[1] == '\0')
        return false;
    if (e->bad_rsp)
        return true; /* the first one is told */
    char *abs = absolutize(e->dir, arg + 1);
    struct stat st;
    int why = 0;
    if (stat(abs, &st) != 0)
        why = errno;
    else if (S_ISDIR(st.st_mode))
        why = EISDIR;
    else if (access(abs, R_OK) != 0)
        why = errno;
    if (why)
        e->bad_why = el_xasprintf("%s%s", why == EISDIR ? "is a directory" : strerror(why),
                                  why == ENOENT ? "; a file the build writes? build first" : "");
    else
        e->bad_why = el_xstrdup("it names itself, through the response files it names");
    e->bad_path = abs;
    e->bad_rsp = el_xstrdup(arg);
    return true;
}

static bool same_bad_rsp(const entry *a, const entry *b)
{
    return a->bad_rsp && b->bad_rsp && strcmp(a->bad_path, b->bad_path) == 0 &&
           strcmp(a->bad_why, b->bad_why) == 0;
}

/* The directories a relative -include NAME or -imacros NAME is looked
 * for in after the entry's directory, as gcc does: the #include "..."
 * chain of the command, its -iquote, then -I, then -isystem, then
 * -idirafter directories (each in command-line order), made absolute
 * against the entry's directory.  The compiler's own system directories
 * are left to libclang. */
typedef struct chain {
    char **v;
    size_t n, cap;
} chain;

static void quote_chain(const entry *e, char *const *raw, size_t n, chain *c)
{
    static const char *const opts[] = {"-iquote", "-I", "-isystem", "-idirafter"};
    for (size_t o = 0; o < sizeof opts / sizeof *opts; o++) {
        size_t lo = strlen(opts[o]);
        for (size_t i = 0; i < n;) {
            el_arg_info k = el_arg_inspect(raw, n, i);
            if (k.path && strncmp(raw[i], opts[o], lo) == 0 &&
                ((k.span == 2 && raw[i][lo] == '\0') || (k.span == 1 && k.value_off == lo))) {
                const char *val = k.span == 2 ? raw[i + 1] : raw[i] + lo;
                /* "=dir" is under the sysroot, "-I-" splits the chain */
                if (val[0] && val[0] != '=' && strcmp(val, "-") != 0)
                    push(&c->v, &c->n, &c->cap, absolutize(e->dir, val));
            }
            i += k.span;
        }
    }
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* A path option's value, made absolute against the entry's directory.
 * A relative -include NAME or -imacros NAME is gcc's: the file in the
 * entry's directory, else the first of the #include "..." chain's
 * (quote_chain), passed on absolute -- libclang would look in its own
 * working directory, where emberlint runs, before the chain.  One none
 * of them has is passed on as written (a system directory's). */
static char *path_value(const entry *e, el_arg_info k, const char *value, const chain *c)
{
    char *abs = absolutize(e->dir, value);
    if (!k.searched || value[0] == '/' || value[0] == '\0' || value[0] == '=' || is_file(abs))
        return abs;
    free(abs);
    for (size_t d = 0; d < c->n; d++) {
        char *j = el_path_join(c->v[d], value);
        char *a = el_path_abs(j);
        free(j);
        if (is_file(a))
            return a;
        free(a);
    }
    return el_xstrdup(value);
}

/* One command's arguments (argv[0] excluded), without the input itself
 * and the arguments dropped silently anyway, with the values of path
 * options made absolute.  Which arguments reach
 * libclang is decided later, for every source of arguments alike
 * (args_policy.h). */
static void filter_args(entry *e, CXCompileCommand cmd)
{
    unsigned na = clang_CompileCommand_getNumArgs(cmd);
    char **raw = el_xcalloc(na + 1, sizeof *raw);
    for (unsigned i = 1; i < na; i++) {
        CXString s = clang_CompileCommand_getArg(cmd, i);
        const char *a = clang_getCString(s);
        raw[i - 1] = el_xstrdup(a ? a : "");
        clang_disposeString(s);
    }
    size_t n = na ? na - 1 : 0, cap = 0;
    chain c = {0};
    quote_chain(e, raw, n, &c);
    bool input_seen = false;
    for (size_t i = 0; i < n;) {
        el_arg_info k = el_arg_inspect(raw, n, i);
        const char *x = strcmp(raw[i], "-x") == 0 ? (i + 1 < n ? raw[i + 1] : NULL)
                        : strncmp(raw[i], "-x", 2) == 0 ? raw[i] + 2 : NULL;
        if (k.bare && is_self(e, raw[i])) {
            /* the input: dropped; the language it is compiled as kept */
            if (!input_seen)
                e->lang = el_args_language(raw, i) ? el_xstrdup(el_args_language(raw, i)) : NULL;
            input_seen = true;
        } else if (x && input_seen) {
            /* a language for the inputs after this one (cc -x c -c gen.c
             * -x assembler ...): not this one's */
        } else if (unexpanded_rsp(e, raw[i])) {
            /* told once by the load */
        } else if (k.fate == EL_ARG_DROP_QUIET) {
            /* what every build's command carries (-c, -o FILE, -MD): dropped
             * here already, so that two entries differing only in their
             * output are one build configuration */
        } else if (k.path && k.span == 2) {
            push(&e->args, &e->n_args, &cap, el_xstrdup(raw[i]));
            push(&e->args, &e->n_args, &cap, path_value(e, k, raw[i + 1], &c));
        } else if (k.path) {
            char *abs = path_value(e, k, raw[i] + k.value_off, &c);
            push(&e->args, &e->n_args, &cap,
                 el_xasprintf("%.*s%s", (int)k.value_off, raw[i], abs));
            free(abs);
        } else {
            for (size_t j = 0; j < k.span; j++)
                push(&e->args, &e->n_args, &cap, el_xstrdup(raw[i + j]));
        }
        i += k.span;
    }
    el_args_free(c.v, c.n);
    el_args_free(raw, n);
}

/* Is the text a compilation database libclang may read?  libclang's own
 * JSON reader recurses without a bound (a malformed database once
 * overflowed the stack, found by fuzz_compdb) and prints its errors
 * itself, so json-c (with a depth limit) reads the file first and the
 * error says where and what. */
static bool entry_ok(json_object *e, size_t k, const char *json, char **err)
{
    json_object *v;
    const char *missing = NULL;
    if (!json_object_is_type(e, json_type_object))
        missing = "an object";
    else if (!json_object_object_get_ex(e, "directory", &v) || !json_object_is_type(v, json_type_string))
        missing = "a \"directory\" string";
    else if (!json_object_object_get_ex(e, "file", &v) || !json_object_is_type(v, json_type_string))
        missing = "a \"file\" string";
    else if (json_object_object_get_ex(e, "arguments", &v)) {
        size_t n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
        if (!json_object_is_type(v, json_type_array))
            missing = "\"arguments\" as an array of strings";
        for (size_t i = 0; i < n && !missing; i++)
            if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
                missing = "\"arguments\" as an array of strings";
    } else if (!json_object_object_get_ex(e, "command", &v) || !json_object_is_type(v, json_type_string))
        missing = "a \"command\" string or an \"arguments\" array";
    if (missing)
        *err = el_xasprintf("%s: entry %zu: expected %s", json, k + 1, missing);
    return !missing;
}

static bool database_ok(const char *json, char **err)
{
    el_buf b = {0};
    if (!el_buf_read_path(&b, json)) {
        el_buf_free(&b);
        *err = el_xasprintf("%s: cannot read: %s", json, strerror(errno));
        return false;
    }
    char *why = NULL;
    json_object *root = el_json_parse_located(b.s ? b.s : "", b.n, &why);
    el_buf_free(&b);
    if (!root) {
        *err = el_xasprintf("%s:%s", json, why);
        free(why);
        return false;
    }
    bool ok = json_object_is_type(root, json_type_array);
    if (!ok)
        *err = el_xasprintf("%s: expected a JSON array of compile commands", json);
    size_t n = ok ? json_object_array_length(root) : 0;
    for (size_t k = 0; k < n && ok; k++)
        ok = entry_ok(json_object_array_get_idx(root, k), k, json, err);
    json_object_put(root);
    return ok;
}

/* A C++ command says so with -x c++ (its driver is dropped, and a header
 * borrowing its entry would otherwise be parsed as C). */
static void mark_cxx(entry *e, CXCompileCommand cmd)
{
    CXString d = clang_CompileCommand_getArg(cmd, 0);
    bool cxx = el_command_is_cxx(clang_getCString(d), e->args, e->n_args, e->file) &&
               !el_args_have_language(e->args, e->n_args);
    clang_disposeString(d);
    if (!cxx)
        return;
    e->args = el_xrealloc(e->args, (e->n_args + 2) * sizeof *e->args);
    memmove(e->args + 2, e->args, e->n_args * sizeof *e->args);
    e->args[0] = el_xstrdup("-x");
    e->args[1] = el_xstrdup("c++");
    e->n_args += 2;
}

el_compdb *el_compdb_load(const char *build_dir, char **err)
{
    char *json = el_path_join(build_dir, "compile_commands.json");
    struct stat st;
    if (stat(json, &st) != 0) {
        *err = el_xasprintf("%s: %s (-p wants the directory holding compile_commands.json)",
                            json, strerror(errno));
        free(json);
        return NULL;
    }
    if (!database_ok(json, err)) {
        free(json);
        return NULL;
    }
    CXCompilationDatabase_Error cerr = CXCompilationDatabase_NoError;
    CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(build_dir, &cerr);
    if (!db || cerr != CXCompilationDatabase_NoError) {
        *err = el_xasprintf("%s: cannot load the compilation database (malformed JSON?)", json);
        if (db)
            clang_CompilationDatabase_dispose(db);
        free(json);
        return NULL;
    }
    el_compdb *out = el_xcalloc(1, sizeof *out);
    out->dir = el_path_abs(build_dir);
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
    for (unsigned i = 0; i < n; i++) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, i);
        CXString d = clang_CompileCommand_getDirectory(cmd);
        CXString f = clang_CompileCommand_getFilename(cmd);
        const char *ds = clang_getCString(d), *fs = clang_getCString(f);
        if (ds && fs && fs[0]) {
            el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
            entry *e = &out->v[out->n++];
            memset(e, 0, sizeof *e);
            char *absdir = el_path_abs(ds);
            char *abs = absolutize(absdir, fs);
            char *real = el_path_real(abs);
            if (real) {
                e->file = real;
                free(abs);
            } else {
                e->file = abs;
            }
            e->dir = absdir;
            filter_args(e, cmd);
            mark_cxx(e, cmd);
        }
        clang_disposeString(d);
        clang_disposeString(f);
    }
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    out->json = json;
    return out;
}

/* A file's directory, in place: el_path_dirname's without the copy. */
typedef struct dir_part {
    const char *s;
    size_t n;
} dir_part;

static dir_part dir_of(const char *file)
{
    const char *s = strrchr(file, '/');
    if (!s)
        return (dir_part){".", 1};
    return (dir_part){file, s == file ? 1 : (size_t)(s - file)};
}

static size_t common_prefix(dir_part a, dir_part b)
{
    size_t i = 0, last = 0;
    while (i < a.n && i < b.n && a.s[i] == b.s[i]) {
        if (a.s[i] == '/')
            last = i;
        i++;
    }
    if ((i == a.n || a.s[i] == '/') && (i == b.n || b.s[i] == '/'))
        last = i;
    return last;
}

/* The entry a file is parsed with: its own first, else a neighbour's
 * (el_compdb_args); NULL when the database is empty.  (No allocation:
 * el_compdb_tree_headers asks it for every directory it reads.) */
static const entry *entry_for(const el_compdb *db, const char *abs_file)
{
    if (!db || !db->n)
        return NULL;
    const entry *best = NULL;
    size_t best_score = 0;
    dir_part dir = dir_of(abs_file);
    for (size_t i = 0; i < db->n; i++) {
        const entry *e = &db->v[i];
        if (strcmp(e->file, abs_file) == 0) {
            best = e;
            break;
        }
        if (el_path_has_ext(e->file, ".cu"))
            continue; /* nvcc's options are no guess for a C or C++ file */
        dir_part edir = dir_of(e->file);
        size_t score = edir.n == dir.n && memcmp(edir.s, dir.s, dir.n) == 0 ? (size_t)-1 / 2
                                                                              : common_prefix(edir, dir);
        if (!best || score > best_score) {
            best = e;
            best_score = score;
        }
    }
    return best;
}

static char **copy_args(const entry *e, size_t *n)
{
    char **args = el_xmalloc((e->n_args + 1) * sizeof *args);
    for (size_t i = 0; i < e->n_args; i++)
        args[i] = el_xstrdup(e->args[i]);
    *n = e->n_args;
    return args;
}

char **el_compdb_entry_args(const el_compdb *db, size_t i, size_t *n)
{
    *n = 0;
    return db && i < db->n ? copy_args(&db->v[i], n) : NULL;
}

char **el_compdb_args(const el_compdb *db, const char *abs_file, size_t *n)
{
    *n = 0;
    const entry *best = entry_for(db, abs_file);
    return best ? copy_args(best, n) : NULL;
}

/* Is entry e one of the file's own? */
static bool names(const entry *e, const char *abs_file)
{
    return strcmp(e->file, abs_file) == 0;
}

/* The index of the next argument from i on that reaches libclang (its
 * span in *span), or n: two entries that differ only in -o, -MF and the
 * like are one configuration. */
static size_t next_kept(char *const *args, size_t n, size_t i, size_t *span)
{
    while (i < n) {
        el_arg_info k = el_arg_inspect(args, n, i);
        if (k.fate == EL_ARG_KEEP) {
            *span = k.span;
            return i;
        }
        i += k.span;
    }
    *span = 0;
    return n;
}

static bool same_args(const entry *a, const entry *b)
{
    size_t i = 0, j = 0, si, sj;
    for (;;) {
        i = next_kept(a->args, a->n_args, i, &si);
        j = next_kept(b->args, b->n_args, j, &sj);
        if (i == a->n_args || j == b->n_args)
            return i == a->n_args && j == b->n_args;
        if (si != sj)
            return false;
        for (size_t t = 0; t < si; t++)
            if (i + t >= a->n_args || j + t >= b->n_args ||
                strcmp(a->args[i + t], b->args[j + t]) != 0)
                return false;
        i += si;
        j += sj;
    }
}

/* The k-th entry of the file whose arguments differ from every earlier
 * one of it; NULL when it has fewer. */
static const entry *distinct_entry(const el_compdb *db, const char *abs_file, size_t k)
{
    size_t seen = 0;
    for (size_t i = 0; db && i < db->n; i++) {
        if (!names(&db->v[i], abs_file))
            continue;
        bool repeat = false;
        for (size_t j = 0; j < i && !repeat; j++)
            repeat = names(&db->v[j], abs_file) && same_args(&db->v[j], &db->v[i]);
        if (repeat)
            continue;
        if (seen++ == k)
            return &db->v[i];
    }
    return NULL;
}

size_t el_compdb_args_count(const el_compdb *db, const char *abs_file)
{
    size_t n = 0;
    while (distinct_entry(db, abs_file, n))
        n++;
    return n;
}

char **el_compdb_args_at(const el_compdb *db, const char *abs_file, size_t k, size_t *n)
{
    const entry *e = distinct_entry(db, abs_file, k);
    *n = 0;
    if (!e)
        return NULL;
    char **args = el_xmalloc((e->n_args + 1) * sizeof *args);
    for (size_t i = 0; i < e->n_args; i++)
        args[i] = el_xstrdup(e->args[i]);
    *n = e->n_args;
    return args;
}

el_compdb *el_compdb_new(const el_compdb *from)
{
    el_compdb *db = el_xcalloc(1, sizeof *db);
    db->in_memory = true;
    db->from = el_compdb_build(from);
    return db;
}

const el_compdb *el_compdb_build(const el_compdb *db)
{
    return db && db->in_memory ? db->from : db;
}

void el_compdb_add(el_compdb *db, const char *abs_file, char *const *args, size_t n)
{
    el_grow(&db->v, &db->cap, db->n + 1, sizeof *db->v);
    entry *e = &db->v[db->n++];
    memset(e, 0, sizeof *e);
    e->file = el_xstrdup(abs_file);
    e->dir = el_path_dirname(abs_file);
    e->args = el_xmalloc((n + 1) * sizeof *e->args);
    for (size_t i = 0; i < n; i++)
        e->args[i] = el_xstrdup(args[i]);
    e->n_args = n;
    const char *x = el_args_language(args, n);
    e->lang = x ? el_xstrdup(x) : NULL;
}

bool el_compdb_lists(const el_compdb *db, const char *abs_file)
{
    for (size_t i = 0; db && i < db->n; i++)
        if (names(&db->v[i], abs_file))
            return true;
    return false;
}

void el_compdb_warn_unread(const el_compdb *db, char *const *files, size_t n_files)
{
    if (!db || !db->json)
        return;
    /* the entries the files are parsed with: their own (fixes are
     * verified in each), else the one they borrow */
    bool *used = el_xcalloc(db->n + 1, sizeof *used);
    bool any = false;
    for (size_t f = 0; f < n_files; f++) {
        bool own = false;
        for (size_t i = 0; i < db->n; i++)
            if (names(&db->v[i], files[f])) {
                own = true;
                used[i] = true;
                any |= db->v[i].bad_rsp != NULL;
            }
        const entry *e = own ? NULL : entry_for(db, files[f]);
        if (e) {
            used[e - db->v] = true;
            any |= e->bad_rsp != NULL;
        }
    }
    for (size_t i = 0; any && i < db->n; i++) {
        const entry *e = &db->v[i];
        bool told = false;
        for (size_t j = 0; j < i && !told; j++)
            told = used[j] && same_bad_rsp(&db->v[j], e);
        if (!used[i] || !e->bad_rsp || e->bad_told || told)
            continue;
        size_t n = 0;
        for (size_t j = i; j < db->n; j++)
            n += used[j] && same_bad_rsp(&db->v[j], e);
        char *rel = el_path_display(e->file), *where = el_path_display(e->bad_path);
        fprintf(stderr, "%s: warning: %s: the response file %s of %zu entr%s (%s%s) cannot be "
                        "read (%s: %s): gcc and clang refuse such a command; %s parsed without "
                        "its arguments\n",
                el_progname, db->json, e->bad_rsp, n, n == 1 ? "y" : "ies", rel,
                n > 1 ? ", ..." : "", where, e->bad_why, n == 1 ? "the file is" : "their files are");
        free(where);
        free(rel);
        /* once a run, though a process may run the engine again (after
         * --fix, for each configuration of ember-migrate) */
        for (size_t j = i; j < db->n; j++)
            if (same_bad_rsp(&db->v[j], e))
                ((entry *)&db->v[j])->bad_told = true;
    }
    free(used);
}

const char *el_compdb_dir(const el_compdb *db)
{
    return db ? db->dir : NULL;
}

size_t el_compdb_file_count(const el_compdb *db)
{
    return db ? db->n : 0;
}

const char *el_compdb_file(const el_compdb *db, size_t i)
{
    return db && i < db->n ? db->v[i].file : NULL;
}

/* An entry that compiles assembly, not C: zstd's huf_decompress_amd64.S
 * (by the -x assembler... before it; without one, by its name: .s, .S,
 * .sx, .asm). */
static bool assembles(const entry *e)
{
    /* the -x before the input wins over its name (cc -x c foo.S) */
    if (e->lang && strcmp(e->lang, "none") != 0)
        return strncmp(e->lang, "assembler", 9) == 0;
    static const char *const ext[] = {".s", ".S", ".sx", ".asm"};
    for (size_t k = 0; k < sizeof ext / sizeof *ext; k++)
        if (el_path_has_ext(e->file, ext[k]))
            return true;
    return false;
}

size_t el_compdb_assembly_count(const el_compdb *db)
{
    size_t n = 0;
    for (size_t i = 0; db && i < db->n; i++)
        n += assembles(&db->v[i]);
    return n;
}

char *const *el_compdb_paths_or(const el_compdb *db, char *const *paths, size_t *n,
                                 char ***owned)
{
    *owned = NULL;
    if (*n || !db)
        return paths;
    size_t all = el_compdb_file_count(db);
    char **v = el_xcalloc(all + 1, sizeof *v);
    *n = 0;
    for (size_t i = 0; i < all; i++)
        if (!assembles(&db->v[i]))
            v[(*n)++] = (char *)el_compdb_file(db, i);
    *owned = v;
    return v;
}

/* Does the file (absolute) lie under one of the PATHs (the path itself,
 * or inside it when a directory), lexically or through its real path?
 * roots: each PATH's absolute and real forms (2 * n_paths, NULL where
 * one does not resolve), worked out once for all the files. */
static bool under_paths(const char *file, char *const *roots, size_t n_roots)
{
    for (size_t k = 0; k < n_roots; k++) {
        char *rel = roots[k] ? el_path_under(file, roots[k]) : NULL;
        bool in = rel != NULL;
        free(rel);
        if (in)
            return true;
    }
    return false;
}

int el_compdb_check_missing(const el_compdb *db, char *const *paths, size_t n_paths,
                            const char *what, bool refuse, bool verbose, char **err)
{
    if (!db || !db->json)
        return 0;
    /* each file once: a file built twice is two entries (a hash set: a
     * database lists tens of thousands) */
    size_t n_files = 0, n_missing = 0, n_said = 0;
    const char **missing = el_xcalloc(db->n + 1, sizeof *missing);
    el_strmap seen = {0};
    for (size_t i = 0; i < db->n; i++) {
        if (el_strmap_put(&seen, db->v[i].file, (void *)1))
            continue;
        n_files++;
        if (access(db->v[i].file, F_OK) != 0)
            missing[n_missing++] = db->v[i].file;
    }
    el_strmap_free(&seen);
    /* with PATHs, only the missing files under them are this run's
     * business (all missing stays an error: the database is another
     * tree's) */
    const char **said = missing;
    if (n_paths && n_missing < n_files) {
        said = el_xcalloc(n_missing + 1, sizeof *said);
        char **roots = el_xcalloc(2 * n_paths, sizeof *roots);
        for (size_t i = 0; i < n_paths; i++) {
            roots[2 * i] = el_path_abs(paths[i]);
            roots[2 * i + 1] = el_path_real(paths[i]);
        }
        for (size_t i = 0; i < n_missing; i++)
            if (under_paths(missing[i], roots, 2 * n_paths))
                said[n_said++] = missing[i];
        for (size_t i = 0; i < 2 * n_paths; i++)
            free(roots[i]);
        free(roots);
    } else {
        n_said = n_missing;
    }
    int rc = 0;
    if (n_said) {
        /* up to three names in the message; with -v, when there are more,
         * every one after it, one a line, as the notes about files not
         * built give them */
        el_buf names = {0}, lines = {0};
        for (size_t i = 0; i < n_said; i++) {
            char *d = el_path_display(said[i]);
            if (i < 3)
                el_buf_printf(&names, "%s%s", i ? ", " : "", d);
            if (verbose && n_said > 3)
                el_buf_printf(&lines, "\n  %s", d);
            free(d);
        }
        if (n_said > 3)
            el_buf_printf(&names, ", and %zu more", n_said - 3);
        const char *list = el_buf_str(&names), *all = lines.n ? el_buf_str(&lines) : "";
        if (n_missing == n_files) {
            char *none = n_files == 1 ? el_xstrdup("the one file it lists does not exist")
                                      : el_xasprintf("none of the %zu files it lists exists",
                                                     n_files);
            *err = el_xasprintf("%s is stale: %s (%s): regenerate it in this tree (was it "
                                "generated in another checkout, or before its files moved?); if the "
                                "build writes %s, build first%s",
                                db->json, none, list, n_files == 1 ? "it" : "them", all);
            free(none);
            rc = -1;
        } else if (refuse) {
            *err = el_xasprintf("%s lists %zu file%s that do%s not exist (%s): not applied, as "
                                "the others would be changed without %s and the tree might no "
                                "longer build; generated by the build? build first; moved or "
                                "deleted? regenerate it; or name PATHs that leave %s out%s",
                                db->json, n_said, n_said == 1 ? "" : "s", n_said == 1 ? "es" : "",
                                list, n_said == 1 ? "it" : "them", n_said == 1 ? "it" : "them", all);
            rc = -1;
        } else {
            fprintf(stderr, "%s: warning: %s lists %zu file%s that do%s not exist (%s), not %s: "
                            "generated by the build? build first; moved or deleted? regenerate "
                            "it%s\n",
                    el_progname, db->json, n_said, n_said == 1 ? "" : "s",
                    n_said == 1 ? "es" : "", list, what, all);
        }
        el_buf_free(&names);
        el_buf_free(&lines);
    }
    if (said != missing)
        free(said);
    free(missing);
    return rc;
}

void el_compdb_free(el_compdb *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->n; i++) {
        free(db->v[i].file);
        free(db->v[i].dir);
        free(db->v[i].bad_rsp);
        free(db->v[i].bad_path);
        free(db->v[i].bad_why);
        free(db->v[i].lang);
        el_args_free(db->v[i].args, db->v[i].n_args);
    }
    free(db->v);
    free(db->dir);
    free(db->json);
    free(db);
}
