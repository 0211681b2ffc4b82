/* migrate/compdb_update.c -- compile_commands.json after files moved
 * (compdb_update.h). */
#include "compdb_update.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "mem.h"
#include "moves.h"
#include "path.h"
#include "strbuf.h"

static const char *jstr(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

/* `to` spelled as `old` was: absolute, or relative to dir. */
static char *respell(const char *old, const char *dir, const char *to)
{
    return old[0] == '/' ? el_xstrdup(to) : em_relpath(dir, to);
}

/* cmd with each whole-word occurrence of a replaced by b. */
static char *replace_word(const char *cmd, const char *a, const char *b)
{
    el_buf o = {0};
    size_t al = strlen(a);
    for (const char *p = cmd; *p;) {
        bool start = p == cmd || strchr(" \t\"'=", p[-1]);
        if (start && !strncmp(p, a, al) && (!p[al] || strchr(" \t\"'", p[al]))) {
            el_buf_puts(&o, b);
            p += al;
        } else {
            el_buf_putc(&o, *p++);
        }
    }
    return el_buf_take(&o);
}

/* Update one entry; the index of the moved file it names, or n. */
static size_t update_entry(json_object *e, char *const *from, char *const *to, size_t n)
{
    const char *dir = jstr(e, "directory"), *file = jstr(e, "file");
    if (!dir || !file)
        return n;
    char *dabs = el_path_abs(dir);
    char *j = el_path_join(dabs, file);
    char *abs = el_path_abs(j);
    free(j);
    size_t k = 0;
    while (k < n && strcmp(from[k], abs) != 0)
        k++;
    free(abs);
    if (k == n) {
        free(dabs);
        return n;
    }
    char *old = el_xstrdup(file), *now = respell(old, dabs, to[k]);
    json_object_object_add(e, "file", json_object_new_string(now));
    json_object *args = NULL;
    if (json_object_object_get_ex(e, "arguments", &args) && json_object_is_type(args, json_type_array))
        for (size_t i = 0; i < json_object_array_length(args); i++) {
            const char *a = json_object_get_string(json_object_array_get_idx(args, i));
            if (a && !strcmp(a, old))
                json_object_array_put_idx(args, i, json_object_new_string(now));
        }
    const char *cmd = jstr(e, "command");
    if (cmd) {
        char *c2 = replace_word(cmd, old, now);
        json_object_object_add(e, "command", json_object_new_string(c2));
        free(c2);
    }
    free(old);
    free(now);
    free(dabs);
    return k;
}

char *em_compdb_moved(const char *text, char *const *from, char *const *to, size_t n,
                      size_t *count)
{
    *count = 0;
    json_object *root = json_tokener_parse(text);
    if (!root || !json_object_is_type(root, json_type_array)) {
        json_object_put(root);
        return NULL;
    }
    bool *listed = calloc(n + 1, sizeof *listed);
    for (size_t i = 0; listed && i < json_object_array_length(root); i++) {
        json_object *e = json_object_array_get_idx(root, i);
        size_t k = json_object_is_type(e, json_type_object) ? update_entry(e, from, to, n) : n;
        if (k < n && !listed[k]) {
            listed[k] = true;
            (*count)++; /* files, not entries: a file built twice counts once */
        }
    }
    free(listed);
    char *out = *count ? el_xasprintf("%s\n", json_object_to_json_string_ext(
                                                  root, JSON_C_TO_STRING_PRETTY |
                                                            JSON_C_TO_STRING_SPACED |
                                                            JSON_C_TO_STRING_NOSLASHESCAPE))
                       : NULL;
    json_object_put(root);
    return out;
}

char *em_compdb_regenerate(const char *dir)
{
    char *cache = el_path_join(dir, "CMakeCache.txt");
    FILE *f = fopen(cache, "r");
    free(cache);
    char line[4096], *src = NULL;
    while (f && !src && fgets(line, sizeof line, f))
        if (!strncmp(line, "CMAKE_HOME_DIRECTORY:INTERNAL=", 30)) {
            line[strcspn(line, "\n")] = '\0';
            src = el_xstrdup(line + 30);
        }
    if (f)
        fclose(f);
    if (src) {
        char *cmd = el_xasprintf("cmake -S %s -B %s", src, dir);
        free(src);
        return cmd;
    }
    char *meson = el_path_join(dir, "meson-info");
    bool is_meson = access(meson, F_OK) == 0;
    free(meson);
    if (is_meson)
        return el_xasprintf("meson setup --reconfigure %s", dir);
    return NULL;
}
