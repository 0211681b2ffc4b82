/* lint/engine/prefix_index.c -- backend_prefixes entries indexed for fast
 * rejection (prefix_index.h). */
#include "prefix_index.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define BACKEND_MARK "<backend>"

static bool is_pattern(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* [sdcz]gemm_, i[sdcz]amax_: a [...] set, ending in '_', without * or ? */
static bool is_routine(const char *e, size_t len)
{
    return len > 1 && e[len - 1] == '_' && strchr(e, '[') && !strpbrk(e, "*?");
}

static void index_entry(el_prefix_entry *e, const char *text)
{
    e->text = text;
    e->len = strlen(text);
    e->pattern = is_pattern(text);
    e->routine = is_routine(text, e->len);
    e->first = e->pattern ? '\0' : text[0];
    char l = e->len ? text[e->len - 1] : '\0';
    e->last = e->pattern && l && !strchr("*?]\\", l) ? l : '\0';
}

static void index_slot(el_backend_slot *s, const char *text, const char *at)
{
    s->text = text;
    s->pre = (size_t)(at - text);
    s->post = at + strlen(BACKEND_MARK);
    s->postlen = strlen(s->post);
    s->pattern = is_pattern(text);
    /* (a plain entry is compared as written, backslashes too) */
    s->pre_literal = !s->pattern || strcspn(text, "*?[\\") >= s->pre;
}

void el_prefix_index_build(el_prefix_index *ix, char *const *expanded, size_t n_expanded,
                           char *const *raw, size_t n_raw)
{
    memset(ix, 0, sizeof *ix);
    ix->entries = n_expanded ? el_xcalloc(n_expanded, sizeof *ix->entries) : NULL;
    for (size_t i = 0; i < n_expanded; i++)
        index_entry(&ix->entries[ix->n_entries++], expanded[i]);
    ix->slots = n_raw ? el_xcalloc(n_raw, sizeof *ix->slots) : NULL;
    for (size_t i = 0; i < n_raw; i++) {
        const char *at = strstr(raw[i], BACKEND_MARK);
        if (at)
            index_slot(&ix->slots[ix->n_slots++], raw[i], at);
    }
}

void el_prefix_index_free(el_prefix_index *ix)
{
    free(ix->entries);
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}
