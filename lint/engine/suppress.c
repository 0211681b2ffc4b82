/* lint/engine/suppress.c -- parsing and applying suppression comments
 * (suppress.h). */
#include "suppress.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mem.h"
#include "metadata.h"
#include "sources.h"
#include "strmap.h"

#define DIRECTIVE "emberlint-ignore"

/* ---- parsing ----------------------------------------------------------- */

/* A rule-ID-looking word: letters, then a digit, then letters or digits
 * ("EH201", "eh201", and the typo "EH2O1", which is then unknown rather
 * than the end of the list).  0 when the word is something else. */
static size_t id_word(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && isalpha((unsigned char)s[i]))
        i++;
    if (i == 0 || i == n || !isdigit((unsigned char)s[i]))
        return 0;
    while (i < n && isalnum((unsigned char)s[i]))
        i++;
    if (i < n && (s[i] == '_' || s[i] == '-'))
        return 0;
    return i;
}

/* body[0..n) is a comment's text, starting at (line, col); it ends on
 * end_line. */
static void parse_comment(const char *body, size_t n, unsigned line, unsigned col,
                          unsigned end_line, el_suppressions *out)
{
    size_t i = 0;
    while (i < n && strchr(" \t*/!", body[i]))
        i++;
    size_t dl = strlen(DIRECTIVE);
    if (n - i < dl || strncmp(body + i, DIRECTIVE, dl) != 0)
        return;
    unsigned dcol = col + (unsigned)i;
    i += dl;
    el_supp_kind kind = EL_SUPP_LINE;
    if (n - i >= 10 && strncmp(body + i, "-next-line", 10) == 0) {
        kind = EL_SUPP_NEXT_LINE;
        i += 10;
    } else if (n - i >= 5 && strncmp(body + i, "-file", 5) == 0) {
        kind = EL_SUPP_FILE;
        i += 5;
    }
    if (i < n && !strchr(" \t:,", body[i]))
        return; /* "emberlint-ignored", "emberlint-ignore-foo": not ours */

    el_suppression s = {.kind = kind, .line = line, .col = dcol};
    s.target = kind == EL_SUPP_NEXT_LINE ? end_line + 1 : line;
    size_t cap = 0;
    for (;;) {
        while (i < n && strchr(" \t:,", body[i]))
            i++;
        size_t w = i < n ? id_word(body + i, n - i) : 0;
        if (!w)
            break;
        el_grow(&s.ids, &cap, s.n_ids + 1, sizeof *s.ids);
        el_supp_id *id = &s.ids[s.n_ids++];
        memset(id, 0, sizeof *id);
        for (size_t k = 0; k < w && k < sizeof id->id - 1; k++)
            id->id[k] = (char)toupper((unsigned char)body[i + k]);
        i += w;
    }
    el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
    out->v[out->n++] = s;
}

void el_suppress_parse(const char *text, size_t len, el_suppressions *out)
{
    unsigned line = 1, col = 1;
    size_t i = 0;
#define ADVANCE()                  \
    do {                           \
        if (text[i] == '\n') {     \
            line++;                \
            col = 1;               \
        } else {                   \
            col++;                 \
        }                          \
        i++;                       \
    } while (0)
    while (i < len) {
        char c = text[i];
        if (c == '/' && i + 1 < len && text[i + 1] == '/') {
            unsigned l0 = line, c0 = col;
            ADVANCE();
            ADVANCE();
            size_t start = i;
            while (i < len && text[i] != '\n')
                ADVANCE();
            parse_comment(text + start, i - start, l0, c0 + 2, l0, out);
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            unsigned l0 = line, c0 = col;
            ADVANCE();
            ADVANCE();
            size_t start = i;
            while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/'))
                ADVANCE();
            size_t end = i;
            unsigned end_line = line;
            if (i < len) {
                ADVANCE();
                ADVANCE();
            }
            parse_comment(text + start, end - start, l0, c0 + 2, end_line, out);
        } else if (c == '"' || c == '\'') {
            ADVANCE();
            while (i < len && text[i] != c && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < len)
                    ADVANCE();
                ADVANCE();
            }
            if (i < len && text[i] == c)
                ADVANCE();
        } else {
            ADVANCE();
        }
    }
#undef ADVANCE
}

void el_suppressions_free(el_suppressions *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].ids);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- applying ---------------------------------------------------------- */

/* Does suppression s cover a finding of `rule` on `line`?  Marks it used. */
static bool covers(el_suppression *s, const char *rule, unsigned line)
{
    if (s->kind != EL_SUPP_FILE && s->target != line)
        return false;
    if (s->n_ids == 0) {
        s->used = true;
        return true;
    }
    for (size_t k = 0; k < s->n_ids; k++) {
        if (strcmp(s->ids[k].id, rule) == 0) {
            s->ids[k].used = true;
            return true;
        }
    }
    return false;
}

/* explicit_only: only suppressions naming the rule count (for EH001 and
 * EH002, so a blanket suppression cannot hide its own report). */
static bool suppressed(el_source *src, const char *rule, unsigned line, bool explicit_only)
{
    bool hit = false;
    for (size_t i = 0; i < src->supp.n; i++) {
        if (explicit_only && src->supp.v[i].n_ids == 0)
            continue;
        if (covers(&src->supp.v[i], rule, line))
            hit = true; /* keep going: every covering suppression is used */
    }
    return hit;
}

/* Would rule k have reported in this file, had there been something? */
static bool rule_ran(const el_source *src, int k, const bool *selected)
{
    const el_rule_meta *m = el_meta_at((size_t)k);
    const el_rule_setting *rs = &src->cfg->rules[k];
    if (!selected[k] || !rs->enabled || !el_meta_implemented(m))
        return false;
    return (rs->applies & (EL_APPLIES(src->cls) | EL_APPLIES_PROJECT)) != 0;
}

static bool meta_enabled(const el_source *src, const char *id, const bool *selected,
                         el_severity *sev)
{
    int k = el_meta_index(id);
    if (k < 0 || !rule_ran(src, k, selected))
        return false;
    *sev = src->cfg->rules[k].severity;
    return true;
}

void el_suppress_apply(el_findings *f, el_source *files, size_t n_files, const bool *selected)
{
    el_strmap by_path = {0};
    for (size_t i = 0; i < n_files; i++)
        el_strmap_put(&by_path, files[i].path, &files[i]);

    /* Files whose parse failed: their suppressions cannot be judged. */
    el_strmap broken = {0};
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->v[i].rule, "EH000") == 0)
            el_strmap_put(&broken, f->v[i].file, (void *)1);

    size_t out = 0;
    for (size_t i = 0; i < f->n; i++) {
        el_finding *x = &f->v[i];
        el_source *src = el_strmap_get(&by_path, x->file);
        if (src && suppressed(src, x->rule, x->line, false)) {
            el_finding_clear(x);
            continue;
        }
        f->v[out++] = *x;
    }
    f->n = out;

    /* EH002 and EH001, then the suppressions that name them. */
    el_findings meta = {0};
    for (size_t i = 0; i < n_files; i++) {
        el_source *src = &files[i];
        if (src->not_built)
            continue; /* not linted (a database's file left out): no rule ran there */
        el_severity sev_unknown = EL_SEV_OFF, sev_unused = EL_SEV_OFF;
        bool want_unknown = meta_enabled(src, EL_RULE_UNKNOWN_RULE, selected, &sev_unknown);
        bool want_unused = meta_enabled(src, EL_RULE_UNUSED_SUPPRESSION, selected, &sev_unused) &&
                           !el_strmap_get(&broken, src->path);
        for (size_t j = 0; j < src->supp.n; j++) {
            el_suppression *s = &src->supp.v[j];
            if (s->n_ids == 0) {
                if (want_unused && !s->used)
                    el_findings_add(&meta, EL_RULE_UNUSED_SUPPRESSION, sev_unused, src->path,
                                    s->line, s->col, "unused blanket suppression: it suppresses nothing here");
                continue;
            }
            for (size_t k = 0; k < s->n_ids; k++) {
                el_supp_id *id = &s->ids[k];
                int idx = el_meta_index(id->id);
                char msg[160];
                if (idx < 0) {
                    if (want_unknown) {
                        snprintf(msg, sizeof msg, "unknown rule ID '%s' in suppression", id->id);
                        el_findings_add(&meta, EL_RULE_UNKNOWN_RULE, sev_unknown, src->path,
                                        s->line, s->col, msg);
                    }
                    continue;
                }
                if (id->used || !want_unused || !rule_ran(src, idx, selected))
                    continue;
                if (strcmp(id->id, EL_RULE_UNUSED_SUPPRESSION) == 0 ||
                    strcmp(id->id, EL_RULE_UNKNOWN_RULE) == 0)
                    continue; /* judged below, against the meta findings */
                snprintf(msg, sizeof msg, "unused suppression of %s: no %s finding here",
                         id->id, id->id);
                el_findings_add(&meta, EL_RULE_UNUSED_SUPPRESSION, sev_unused, src->path,
                                s->line, s->col, msg);
            }
        }
    }
    for (size_t i = 0; i < meta.n; i++) {
        el_finding *x = &meta.v[i];
        el_source *src = el_strmap_get(&by_path, x->file);
        if (src && suppressed(src, x->rule, x->line, true))
            continue;
        el_findings_add(f, x->rule, x->severity, x->file, x->line, x->col, x->message);
    }
    el_findings_free(&meta);
    el_strmap_free(&broken);
    el_strmap_free(&by_path);
}
