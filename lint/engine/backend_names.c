/* lint/engine/backend_names.c -- which backend a symbol name belongs to,
 * by the configured prefixes (backend_prefixes, rules/default.json).
 * Asked by the separation rules, the call rewrites and ember-migrate's
 * scanner; declared in rule.h. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "rule.h"

const char *el_backend_of_symbol(const el_config *cfg, const char *name, char *buf, size_t n)
{
    size_t np = 0;
    const char *const *pats = el_config_strings(cfg, "backend_prefixes", &np);
    size_t len = strlen(name);
    for (size_t i = 0; i < np; i++) {
        const char *at = strstr(pats[i], "<backend>");
        if (!at)
            continue;
        size_t pre = (size_t)(at - pats[i]);
        const char *post = at + strlen("<backend>");
        size_t postlen = strlen(post);
        if (len <= pre || strncmp(name, pats[i], pre) != 0)
            continue;
        for (size_t b = 0; b < el_config_backend_count(cfg); b++) {
            const char *be = el_config_backend_name(cfg, b);
            size_t bl = strlen(be);
            if (len > pre + bl + postlen && strncmp(name + pre, be, bl) == 0 &&
                strncmp(name + pre + bl, post, postlen) == 0) {
                snprintf(buf, n, "%s", be);
                return buf;
            }
        }
    }
    return NULL;
}

const char *el_backend_prefix_of(const el_config *cfg, const char *name, bool upper)
{
    size_t np = 0, len = strlen(name);
    const char *const *v = el_config_strings(cfg, "backend_prefixes_expanded", &np);
    for (size_t i = 0; i < np; i++) {
        if (el_prefix_is_pattern(v[i])) {
            if (fnmatch(v[i], name, 0) == 0)
                return v[i];
            continue;
        }
        size_t l = strlen(v[i]);
        if (len <= l)
            continue;
        if (strncmp(name, v[i], l) == 0)
            return v[i];
        if (upper) {
            size_t k = 0;
            while (k < l && name[k] == (char)(v[i][k] >= 'a' && v[i][k] <= 'z' ? v[i][k] - 32 : v[i][k]))
                k++;
            if (k == l)
                return v[i];
        }
    }
    if (np == 0) {
        const char *p = el_config_backend_prefix(cfg, name);
        if (p && len > strlen(p))
            return p;
    }
    return NULL;
}
