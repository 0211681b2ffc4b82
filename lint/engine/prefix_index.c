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
    /* (stopping at any character a pattern may give a meaning keeps it a
     * literal run even when that character was escaped) */
    e->tail = 0;
    while (e->pattern && e->tail < e->len && !strchr("*?[]\\", text[e->len - 1 - e->tail]))
        e->tail++;
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

static char upper_of(char c)
{
    return (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
}

static char lower_of(char c)
{
    return (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

static void set_bit(uint64_t *set, size_t i)
{
    set[i / 64] |= (uint64_t)1 << (i % 64);
}

static void index_sets(el_prefix_index *ix)
{
    size_t w = ix->words = (ix->n_entries + 63) / 64;
    if (!w)
        return;
    ix->plain_first = el_xcalloc(256 * w, sizeof *ix->plain_first);
    ix->plain_upper = el_xcalloc(256 * w, sizeof *ix->plain_upper);
    ix->pattern_last = el_xcalloc(256 * w, sizeof *ix->pattern_last);
    ix->always = el_xcalloc(w, sizeof *ix->always);
    for (size_t i = 0; i < ix->n_entries; i++) {
        const el_prefix_entry *e = &ix->entries[i];
        if (e->pattern ? !e->last : !e->len) {
            set_bit(ix->always, i);
        } else if (e->pattern) {
            set_bit(ix->pattern_last + (unsigned char)e->last * w, i);
        } else {
            set_bit(ix->plain_first + (unsigned char)e->first * w, i);
            set_bit(ix->plain_upper + (unsigned char)upper_of(e->first) * w, i);
        }
    }
}

void el_prefix_candidates(const el_prefix_index *ix, char first, char last, bool upper,
                          uint64_t *bits)
{
    size_t w = ix->words;
    /* a pattern ending in e->last meets a name ending in it or in its
     * upper case (backend_names.c's ends_apart) */
    const uint64_t *pf = ix->plain_first + (unsigned char)first * w,
                   *pu = ix->plain_upper + (unsigned char)first * w,
                   *l1 = ix->pattern_last + (unsigned char)last * w,
                   *l2 = ix->pattern_last + (unsigned char)lower_of(last) * w;
    for (size_t k = 0; k < w; k++)
        bits[k] = ix->always[k] | pf[k] | (upper ? pu[k] : 0) | l1[k] | l2[k];
}

void el_prefix_index_build(el_prefix_index *ix, char *const *expanded, size_t n_expanded,
                           char *const *raw, size_t n_raw)
{
    memset(ix, 0, sizeof *ix);
    ix->entries = n_expanded ? el_xcalloc(n_expanded, sizeof *ix->entries) : NULL;
    for (size_t i = 0; i < n_expanded; i++)
        index_entry(&ix->entries[ix->n_entries++], expanded[i]);
    index_sets(ix);
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
    free(ix->plain_first);
    free(ix->plain_upper);
    free(ix->pattern_last);
    free(ix->always);
    memset(ix, 0, sizeof *ix);
}
