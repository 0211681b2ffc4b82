/* lint/engine/backend_names.c -- which backend a symbol name belongs to,
 * by the configured prefixes (backend_prefixes, rules/default.json).
 * Asked by the separation rules, the call rewrites and ember-migrate's
 * scanner; declared in rule.h. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "clang_util.h"
#include "prefix_index.h"
#include "rule.h"

const char *el_backend_of_symbol(const el_config *cfg, const char *name, char *buf, size_t n)
{
    const el_prefix_index *ix = el_config_prefix_index(cfg);
    size_t len = strlen(name);
    for (size_t i = 0; i < ix->n_slots; i++) {
        const el_backend_slot *s = &ix->slots[i];
        if (s->pre_literal && (len <= s->pre || strncmp(name, s->text, s->pre) != 0))
            continue;
        for (size_t b = 0; b < el_config_backend_count(cfg); b++) {
            const char *be = el_config_backend_name(cfg, b);
            bool hit;
            if (s->pattern) { /* eh_<backend>_*_kernel */
                char expanded[256];
                snprintf(expanded, sizeof expanded, "%.*s%s%s", (int)s->pre, s->text, be, s->post);
                hit = el_backend_prefix_matches(expanded, name);
            } else {
                size_t bl = strlen(be);
                hit = len > s->pre + bl + s->postlen && strncmp(name + s->pre, be, bl) == 0 &&
                      strncmp(name + s->pre + bl, s->post, s->postlen) == 0;
            }
            if (hit) {
                snprintf(buf, n, "%s", be);
                return buf;
            }
        }
    }
    return NULL;
}

/* Fortran names in upper case (DGEMM_, some compilers' mangling) match the
 * lower-case patterns; only names without a lower-case letter qualify. */
static bool upper_matches_pattern(const char *pattern, const char *name)
{
    char low[256];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof low; k++) {
        if (name[k] >= 'a' && name[k] <= 'z')
            return false;
        low[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
    }
    low[k] = '\0';
    return !name[k] && fnmatch(pattern, low, 0) == 0;
}

static char upper_of(char c)
{
    return (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
}

/* name starts with the upper-case spelling of a plain prefix (CBLAS_). */
static bool upper_has_prefix(const char *prefix, const char *name)
{
    size_t k = 0;
    while (prefix[k] && name[k] == upper_of(prefix[k]))
        k++;
    return !prefix[k] && name[k];
}

static char lower(char c)
{
    return (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/* Can pattern e (ending in a literal character) not match a name ending
 * in c, in either case?  Most built-in patterns are Fortran names ending
 * in '_': this test is most of the answer for most names. */
static bool ends_apart(const el_prefix_entry *e, char c)
{
    return e->last && c != e->last && lower(c) != e->last;
}

/* The Fortran name a library build's decoration of it stands for, into
 * buf (lower case; an all-upper-case name, as some compilers mangle
 * them, too): the ILP64 suffix (dgemm_64_ -> dgemm_), the scipy-openblas
 * prefix (scipy_dgelsd_, scipy_dgelsd_64_), Accelerate's new LAPACK
 * (dgesv$NEWLAPACK, dgesv$NEWLAPACK$ILP64 -> dgesv_).  false when the
 * name has no decoration. */
static bool undecorated(const char *name, bool upper, char *buf, size_t n)
{
    static const char *const suffixes[] = {"$NEWLAPACK$ILP64", "$NEWLAPACK"};
    size_t len = strlen(name);
    if (len + 2 > n)
        return false;
    bool has_lower = false;
    for (size_t k = 0; k < len; k++)
        has_lower |= name[k] >= 'a' && name[k] <= 'z';
    if (!has_lower && (!upper || strchr(name, '$')))
        return false; /* DGEMM_64_ only where upper case counts; $NEWLAPACK is never upper-cased */
    for (size_t k = 0; k <= len; k++) {
        char c = name[k];
        buf[k] = (char)(!has_lower && c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    bool changed = false;
    if (strncmp(buf, "scipy_", 6) == 0) {
        memmove(buf, buf + 6, len - 5);
        len -= 6;
        changed = true;
    }
    for (size_t s = 0; s < sizeof suffixes / sizeof *suffixes; s++) {
        size_t sl = strlen(suffixes[s]);
        if (len > sl && strcmp(buf + len - sl, suffixes[s]) == 0 && buf[len - sl - 1] != '_') {
            buf[len - sl] = '_';
            buf[len - sl + 1] = '\0';
            return !changed; /* not scipy_ and $NEWLAPACK both */
        }
    }
    if (len > 4 && strcmp(buf + len - 4, "_64_") == 0) {
        buf[len - 3] = '\0';
        changed = true;
    }
    return changed;
}

static bool has_lower(const char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            return true;
    return false;
}

const char *el_backend_prefix_of(const el_config *cfg, const char *name, bool upper)
{
    const el_prefix_index *ix = el_config_prefix_index(cfg);
    size_t np = ix->n_entries, len = strlen(name);
    char plain[256];
    if (undecorated(name, upper, plain, sizeof plain)) {
        size_t pl = strlen(plain);
        char c = pl ? plain[pl - 1] : '\0';
        for (size_t i = 0; i < np; i++) {
            const el_prefix_entry *e = &ix->entries[i];
            if (e->routine && !ends_apart(e, c) && fnmatch(e->text, plain, 0) == 0)
                return e->text;
        }
    }
    char last = len ? name[len - 1] : '\0', first = name[0];
    /* (upper_matches_pattern takes only names without a lower-case letter) */
    bool upper_pattern = upper && !has_lower(name);
    for (size_t i = 0; i < np; i++) {
        const el_prefix_entry *e = &ix->entries[i];
        if (e->pattern) {
            if (ends_apart(e, last))
                continue;
            if (fnmatch(e->text, name, 0) == 0 ||
                (upper_pattern && upper_matches_pattern(e->text, name)))
                return e->text;
            continue;
        }
        if (e->len && first != e->first && !(upper && first == upper_of(e->first)))
            continue;
        if ((len > e->len && strncmp(name, e->text, e->len) == 0) ||
            (upper && upper_has_prefix(e->text, name)))
            return e->text;
    }
    if (np == 0) {
        const char *p = el_config_backend_prefix(cfg, name);
        if (p && len > strlen(p))
            return p;
    }
    return NULL;
}

bool el_macro_body_names_backend(const el_config *cfg, CXTranslationUnit tu, CXCursor def)
{
    unsigned nt = 0, i = 0;
    CXToken *toks = elc_macro_tokens(tu, def, &nt, &i);
    bool hit = false;
    for (; i < nt && !hit; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        hit = t && el_backend_prefix_of(cfg, t, true) != NULL;
        clang_disposeString(sp);
    }
    if (toks)
        clang_disposeTokens(tu, toks, nt);
    return hit;
}
