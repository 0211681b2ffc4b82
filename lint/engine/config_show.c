/* lint/engine/config_show.c -- emberlint --show-config FILE: the merged
 * configuration that applies to a file, each value with where it came
 * from (config.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"

/* "built-in (rules/default.json:9:5)", ".emberlint.json:3:19", or
 * "found in the tree" for backends discovered from directories. */
static void print_origin(FILE *out, const el_origin *o)
{
    if (!o->file) {
        fputs("found in the linted tree", out);
        return;
    }
    if (o->builtin) {
        fprintf(out, "built-in (%s:%u:%u)", o->file, o->line, o->col);
        return;
    }
    char *shown = el_path_display(o->file);
    fprintf(out, "%s:%u:%u", shown, o->line, o->col);
    free(shown);
}

/* A JSON string literal. */
static void print_string(FILE *out, const char *s, int width)
{
    json_object *j = json_object_new_string(s);
    const char *t = json_object_to_json_string_ext(j, JSON_C_TO_STRING_NOSLASHESCAPE);
    fprintf(out, "%-*s", width, t);
    json_object_put(j);
}

static void show_list(FILE *out, const char *key, const el_strlist *l)
{
    fprintf(out, "%s:%s\n", key, l->n ? "" : " []");
    for (size_t i = 0; i < l->n; i++) {
        fputs("  ", out);
        print_string(out, l->v[i], 34);
        fputs("  # ", out);
        print_origin(out, &l->from[i]);
        fputc('\n', out);
    }
}

static void show_map(FILE *out, const char *key, const el_kvlist *m, el_map_key k)
{
    fprintf(out, "%s:%s\n", key, m->n ? "" : " {}");
    for (size_t i = 0; i < m->n; i++) {
        const el_kv *e = &m->v[i];
        char value[256];
        if (k == EL_REPLACEMENTS)
            snprintf(value, sizeof value, "%s", e->text);
        else if (k == EL_COPY_OUT)
            snprintf(value, sizeof value, "{\"buffer\": %d}", e->a);
        else if (k == EL_TO_TENSOR)
            snprintf(value, sizeof value, "{\"data\": %d}", e->a);
        else
            snprintf(value, sizeof value, "{\"dest\": %d, \"src\": %d}", e->a, e->b);
        fprintf(out, "  %s: ", e->key);
        if (k == EL_REPLACEMENTS)
            print_string(out, value, 30 - (int)strlen(e->key));
        else
            fprintf(out, "%-*s", 30 - (int)strlen(e->key), value);
        fputs("  # ", out);
        print_origin(out, &e->from);
        fputc('\n', out);
    }
}

static void show_rules(FILE *out, const el_config *c)
{
    fputs("rules:\n", out);
    for (size_t i = 0; i < el_meta_count(); i++) {
        const el_rule_meta *m = el_meta_at(i);
        const el_rule_setting *rs = &c->rules[i];
        char applies[64];
        fprintf(out, "  %s %-30s %-7s  # ", m->id, m->name,
                rs->enabled ? el_severity_name(rs->severity) : "off");
        print_origin(out, &rs->from);
        fprintf(out, "\n    applies_to: %-26s  # ", el_applies_str(rs->applies, applies, sizeof applies));
        print_origin(out, &rs->applies_from);
        fputc('\n', out);
        for (size_t k = 0; rs->options && k < rs->option_from.n; k++) {
            json_object *v = NULL;
            const char *key = rs->option_from.v[k];
            if (!json_object_object_get_ex(rs->options, key, &v))
                continue;
            fprintf(out, "    options.%s: %s  # ", key,
                    json_object_to_json_string_ext(v, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
            print_origin(out, &rs->option_from.from[k]);
            fputc('\n', out);
        }
    }
}

void el_config_show(FILE *out, const el_config *c, const char *file)
{
    char *abs = el_path_abs(file);
    char *shown = el_path_display(abs);
    char backend[64];
    el_file_class cls = el_config_classify(c, abs, backend, sizeof backend);
    const char *lang = el_config_language_of(c, abs);
    fprintf(out, "# the configuration of %s: %s%s%s%s, %s%s\n", shown, el_file_class_name(cls),
            cls == EL_FILE_BACKEND ? " '" : "", cls == EL_FILE_BACKEND ? backend : "",
            cls == EL_FILE_BACKEND ? "'" : "", lang ? lang : "not walked (languages)",
            el_config_excluded_file(c, abs) ? ", excluded (a walk skips it; linted when named, "
                                              "or listed by -p without PATH)"
                                            : "");
    fputs("# files, outermost first:", out);
    const el_config *chain[64];
    size_t n = 0;
    for (const el_config *p = c; p && n < 64; p = p->parent)
        chain[n++] = p;
    while (n-- > 0) {
        if (!chain[n]->path) {
            fputs(" built-in", out);
            continue;
        }
        char *s = el_path_display(chain[n]->path);
        fprintf(out, " <- %s", s);
        free(s);
    }
    fputc('\n', out);
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        show_list(out, el_config_key_name((el_list_key)k), el_config_list(c, (el_list_key)k));
    fprintf(out, "backend_files:%s\n", c->backend_files.n ? "" : " {}");
    for (size_t i = 0; i < c->backend_files.n; i++) {
        const char *e = c->backend_files.v[i], *colon = strchr(e, ':');
        fprintf(out, "  %.*s: ", (int)(colon - e), e);
        print_string(out, colon + 1, 30 - (int)(colon - e));
        fputs("  # ", out);
        print_origin(out, &c->backend_files.from[i]);
        fputc('\n', out);
    }
    fputs("frontend_include: ", out);
    print_string(out, c->frontend_include, 16);
    fputs("  # ", out);
    print_origin(out, &c->frontend_include_from);
    fputc('\n', out);
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++)
        show_map(out, el_config_map_name((el_map_key)k), &c->maps[k], (el_map_key)k);
    fprintf(out, "rewrites:%s\n", c->n_rewrites ? "" : " []");
    for (size_t i = 0; i < c->n_rewrites; i++) {
        const el_rewrite_rule *r = &c->rewrites[i];
        fprintf(out, "  %s -> %s (%s)  # ", r->function, r->replacement, el_fix_safety_name(r->safety));
        print_origin(out, &r->from);
        fputc('\n', out);
    }
    show_rules(out, c);
    free(shown);
    free(abs);
}
