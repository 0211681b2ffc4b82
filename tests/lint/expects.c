/* tests/lint/expects.c -- reading annotated trees (expects.h). */
#include "expects.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint_test.h"

void lt_expects_add_rule(lt_expects *e, const char *rule)
{
    for (size_t i = 0; i < e->n_rules; i++)
        if (strcmp(e->rules[i], rule) == 0)
            return;
    if (e->n_rules < 64)
        snprintf(e->rules[e->n_rules++], 8, "%s", rule);
}

bool lt_expects_names_rule(const lt_expects *e, const char *rule)
{
    for (size_t i = 0; i < e->n_rules; i++)
        if (strcmp(e->rules[i], rule) == 0)
            return true;
    return false;
}

static void add_expect(lt_expects *e, const char *file, unsigned line, const char *rule,
                       const char *says, size_t says_len)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 32;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        assert_non_null(e->v);
    }
    lt_expect *x = &e->v[e->n++];
    x->file = strdup(file);
    x->line = line;
    snprintf(x->rule, sizeof x->rule, "%s", rule);
    x->says = says ? strndup(says, says_len) : NULL;
    x->matched = false;
    lt_expects_add_rule(e, rule);
}

/* Annotations of one line: "expect: IDS" or "expect@+N: IDS",
 * "expect@-N: IDS", "expect@N: IDS"; an ID may be followed by a part of
 * its message in double quotes. */
static void scan_line(lt_expects *e, const char *file, unsigned lineno, const char *line)
{
    for (const char *p = strstr(line, "expect"); p; p = strstr(p + 1, "expect")) {
        const char *q = p + 6;
        long target = lineno;
        if (*q == '@') {
            q++;
            char *end;
            long v = strtol(q, &end, 10);
            if (end == q)
                continue;
            target = (*q == '+' || *q == '-') ? (long)lineno + v : v;
            q = end;
        }
        if (*q != ':')
            continue;
        q++;
        for (;;) {
            while (*q == ' ' || *q == ',' || *q == '\t')
                q++;
            size_t k = 0;
            while (isalnum((unsigned char)q[k]))
                k++;
            if (k < 3 || k > 7 || q[0] != 'E' || q[1] != 'H')
                break;
            char rule[8];
            memcpy(rule, q, k);
            rule[k] = '\0';
            q += k;
            const char *says = NULL;
            size_t says_len = 0;
            const char *open = q + strspn(q, " \t");
            const char *close = *open == '"' ? strchr(open + 1, '"') : NULL;
            if (close) {
                says = open + 1;
                says_len = (size_t)(close - says);
                q = close + 1;
            }
            add_expect(e, file, (unsigned)target, rule, says, says_len);
        }
    }
}

/* C and C++ sources and headers (C++ fixtures sit in directories whose
 * .emberlint.json turns "c++" on). */
static bool is_source(const char *name)
{
    static const char *const ext[] = {".c", ".h", ".cpp", ".hpp", ".cc", ".hh", NULL};
    size_t n = strlen(name);
    for (const char *const *e = ext; *e; e++) {
        size_t l = strlen(*e);
        if (n > l && strcmp(name + n - l, *e) == 0)
            return true;
    }
    return false;
}

/* rel: path relative to LINT_SRCDIR. */
void lt_expects_scan(lt_expects *e, const char *rel)
{
    char *abs = tt_path(LINT_SRCDIR, rel);
    DIR *d = opendir(abs);
    assert_non_null(d);
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        char *child_rel = tt_path(rel, ent->d_name);
        char *child_abs = tt_path(LINT_SRCDIR, child_rel);
        struct stat st;
        if (lstat(child_abs, &st) == 0 && S_ISDIR(st.st_mode)) {
            lt_expects_scan(e, child_rel);
        } else if (S_ISREG(st.st_mode) && is_source(ent->d_name)) {
            FILE *f = fopen(child_abs, "r");
            assert_non_null(f);
            char buf[4096];
            unsigned lineno = 0;
            while (fgets(buf, sizeof buf, f))
                scan_line(e, child_rel, ++lineno, buf);
            fclose(f);
        }
        free(child_rel);
        free(child_abs);
    }
    closedir(d);
    free(abs);
}

/* Is says in message; a says ending in '$' only at its end. */
static bool says_in(const char *message, const char *says)
{
    size_t n = strlen(says), m = strlen(message);
    if (n && says[n - 1] == '$')
        return m >= n - 1 && strncmp(message + m - (n - 1), says, n - 1) == 0;
    return strstr(message, says) != NULL;
}

bool lt_expects_match(lt_expects *e, const char *file, unsigned line, const char *rule,
                      const char *message)
{
    for (size_t k = 0; k < e->n; k++) {
        lt_expect *x = &e->v[k];
        if (!x->matched && x->line == line && strcmp(x->rule, rule) == 0 && strcmp(x->file, file) == 0 &&
            (!x->says || (message && says_in(message, x->says)))) {
            x->matched = true;
            return true;
        }
    }
    return false;
}

void lt_expects_free(lt_expects *e)
{
    for (size_t k = 0; k < e->n; k++) {
        free(e->v[k].file);
        free(e->v[k].says);
    }
    free(e->v);
    memset(e, 0, sizeof *e);
}
