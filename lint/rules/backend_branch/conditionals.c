/* lint/rules/backend_branch/conditionals.c -- EH103's second shape: a
 * preprocessor conditional (#if, #elif, #ifdef, #ifndef, defined()) on a
 * backend macro (backend_macros of the configuration: EH_HAVE_BLAS,
 * EH_BACKEND_*), or on a macro the TU defines under such a conditional
 * (derived.c; testing with defined() one that every arm defines is no
 * branch).  libclang has no cursors for conditionals, so the file is
 * tokenized.  Not findings: #define / #undef, a file's include guard
 * (#ifndef X / #define X as its first directives, even when X matches a
 * pattern, as EH_BACKEND_H does), and conditionals inside code the
 * preprocessor skipped (an #if 0 block). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "branch.h"
#include "clang_util.h"

static unsigned token_offset(CXTranslationUnit tu, CXToken t)
{
    unsigned off = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t), NULL, NULL, NULL, &off);
    return off;
}

static unsigned token_line(CXTranslationUnit tu, CXToken t)
{
    unsigned line = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t), NULL, &line, NULL, NULL);
    return line;
}

static bool token_is(CXTranslationUnit tu, CXToken t, const char *s)
{
    CXString str = clang_getTokenSpelling(tu, t);
    bool eq = strcmp(clang_getCString(str), s) == 0;
    clang_disposeString(str);
    return eq;
}

typedef struct directive {
    unsigned hash;          /* token index of '#' */
    unsigned first, end;    /* tokens after the name: [first, end) */
    char name[16];
} directive;

static unsigned logical_line_end(const char *text, size_t size, unsigned from)
{
    return (unsigned)bb_line_end(text, size, from);
}

/* The macro an include guard tests: `#ifndef X` or `#if !defined X` /
 * `#if !defined(X)` (comments aside). */
static bool guard_macro(CXTranslationUnit tu, CXToken *t, const directive *d, char *out, size_t n)
{
    unsigned idx[8], m = 0;
    for (unsigned k = d->first; k < d->end; k++) {
        if (clang_getTokenKind(t[k]) == CXToken_Comment)
            continue;
        if (m == 8)
            return false;
        idx[m++] = k;
    }
    unsigned x;
    if (strcmp(d->name, "ifndef") == 0 && m == 1)
        x = idx[0];
    else if (strcmp(d->name, "if") == 0 && (m == 3 || m == 5) && token_is(tu, t[idx[0]], "!") &&
             token_is(tu, t[idx[1]], "defined") &&
             (m == 3 || (token_is(tu, t[idx[2]], "(") && token_is(tu, t[idx[4]], ")"))))
        x = m == 3 ? idx[2] : idx[3];
    else
        return false;
    elc_string(clang_getTokenSpelling(tu, t[x]), out, n);
    return true;
}

/* The first token of a directive after its name, comments aside. */
static bool first_token_is(CXTranslationUnit tu, CXToken *t, const directive *d, const char *s)
{
    for (unsigned k = d->first; k < d->end; k++)
        if (clang_getTokenKind(t[k]) != CXToken_Comment)
            return token_is(tu, t[k], s);
    return false;
}

/* The file's skipped ranges as byte offsets, read when first needed
 * (clang_getSkippedRanges looks at every skipped range of the TU, system
 * headers' too: most files have no conditional that asks). */
typedef struct skipped_ranges {
    bool read;
    unsigned n;
    unsigned (*v)[2];
} skipped_ranges;

/* Does a skipped range reach from (at most) `opener` to `off`: the
 * directive at off sits in a branch the preprocessor skipped? */
static bool in_skipped(CXTranslationUnit tu, CXFile f, skipped_ranges *sk, unsigned opener,
                       unsigned off)
{
    if (!sk->read) {
        sk->read = true;
        CXSourceRangeList *l = clang_getSkippedRanges(tu, f);
        sk->v = l && l->count ? calloc(l->count, sizeof *sk->v) : NULL;
        for (unsigned r = 0; sk->v && r < l->count; r++) {
            clang_getSpellingLocation(clang_getRangeStart(l->ranges[r]), NULL, NULL, NULL,
                                      &sk->v[r][0]);
            clang_getSpellingLocation(clang_getRangeEnd(l->ranges[r]), NULL, NULL, NULL,
                                      &sk->v[r][1]);
        }
        sk->n = sk->v ? l->count : 0;
        if (l)
            clang_disposeSourceRangeList(l);
    }
    for (unsigned r = 0; r < sk->n; r++)
        if (sk->v[r][0] <= opener && off < sk->v[r][1])
            return true;
    return false;
}

/* Token k of the directive is the operand of defined (`defined X`,
 * `defined(X)`) or of #ifdef / #ifndef: only whether it is defined counts. */
static bool defined_operand(CXTranslationUnit tu, CXToken *t, const directive *d, unsigned k)
{
    if (strcmp(d->name, "ifdef") == 0 || strcmp(d->name, "ifndef") == 0 ||
        strcmp(d->name, "elifdef") == 0 || strcmp(d->name, "elifndef") == 0)
        return true;
    unsigned seen = 0;
    for (unsigned j = k; j > d->first && seen < 2;) {
        j--;
        if (clang_getTokenKind(t[j]) == CXToken_Comment)
            continue;
        if (token_is(tu, t[j], "defined"))
            return true;
        if (seen++ == 0 && token_is(tu, t[j], "("))
            continue;
        return false;
    }
    return false;
}

void bb_scan_conditionals(el_ctx *ctx, CXFile f, const bb_derived *dm)
{
    CXTranslationUnit tu = el_tu(ctx);
    const el_config *cfg = el_ctx_config(ctx);
    size_t size = 0;
    const char *text = el_file_text(ctx, f, &size);
    if (!text || !bb_text_has_conditional(cfg, dm, text, size))
        return;
    /* (a location lookup costs more than the text scan: only now) */
    CXSourceLocation start = clang_getLocationForOffset(tu, f, 0);
    if (!el_applies_at(ctx, start))
        return;
    CXSourceRange all = clang_getRange(start, clang_getLocationForOffset(tu, f, (unsigned)size));
    CXToken *t = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, all, &t, &nt);
    if (!t)
        return;

    /* every directive of the file, in order */
    directive *ds = calloc(nt + 1, sizeof *ds);
    unsigned nd = 0;
    for (unsigned i = 0; ds && i + 1 < nt; i++) {
        if (clang_getTokenKind(t[i]) != CXToken_Punctuation || !token_is(tu, t[i], "#"))
            continue;
        unsigned line = token_line(tu, t[i]);
        unsigned prev = i;
        while (prev > 0 && clang_getTokenKind(t[prev - 1]) == CXToken_Comment)
            prev--;
        if (prev > 0 && token_line(tu, t[prev - 1]) == line)
            continue; /* not at the start of a line: `a # b` in a macro body... */
        if (prev > 0) {
            /* a '#' on a continued line of a previous directive */
            unsigned prev_end = logical_line_end(text, size, token_offset(tu, t[prev - 1]));
            if (token_offset(tu, t[i]) < prev_end)
                continue;
        }
        directive *d = &ds[nd];
        d->hash = i;
        elc_string(clang_getTokenSpelling(tu, t[i + 1]), d->name, sizeof d->name);
        unsigned end = logical_line_end(text, size, token_offset(tu, t[i]));
        unsigned k = i + 2;
        while (k < nt && token_offset(tu, t[k]) < end)
            k++;
        d->first = i + 2;
        d->end = k;
        nd++;
    }

    /* Openers of the enclosing conditional branches (#if, #elif, #else),
     * innermost last: a directive is dead when the branch it sits in was
     * skipped, that is a skipped range reaches from (at most) that
     * branch's opener to it.  (Ranges of consecutive skipped branches are
     * merged, so an #elif after a false #if lies inside one while being
     * evaluated itself: only the enclosing branch decides.) */
    unsigned *open = calloc(nd + 1, sizeof *open);
    unsigned depth = 0;
    skipped_ranges skipped = {0};
    for (unsigned i = 0; open && i < nd; i++) {
        const directive *d = &ds[i];
        const char *n = d->name;
        bool opens = strcmp(n, "if") == 0 || strcmp(n, "ifdef") == 0 || strcmp(n, "ifndef") == 0;
        bool next_branch = strcmp(n, "elif") == 0 || strcmp(n, "else") == 0 ||
                           strcmp(n, "elifdef") == 0 || strcmp(n, "elifndef") == 0;
        unsigned off = token_offset(tu, t[d->hash]);
        /* the enclosing branch: for #elif/#else that of the #if's parent */
        unsigned parent_depth = next_branch && depth > 0 ? depth - 1 : depth;
        unsigned opener = parent_depth > 0 ? open[parent_depth - 1] : 0;
        if (opens)
            open[depth++] = off;
        else if (next_branch && depth > 0)
            open[depth - 1] = off;
        else if (strcmp(n, "endif") == 0 && depth > 0)
            depth--;
        if ((!opens && !next_branch) || strcmp(n, "else") == 0)
            continue;
        /* the include guard: first directive, and the next defines it */
        char guard[256];
        if (i == 0 && i + 1 < nd && strcmp(ds[1].name, "define") == 0 &&
            guard_macro(tu, t, d, guard, sizeof guard) && first_token_is(tu, t, &ds[1], guard))
            continue;
        char macros[512] = "", derived[512] = "";
        size_t len = 0, count = 0, dlen = 0, dcount = 0;
        unsigned at = 0, dat = 0;
        const bb_derived_macro *first = NULL;
        for (unsigned k = d->first; k < d->end; k++) {
            if (clang_getTokenKind(t[k]) != CXToken_Identifier)
                continue;
            char id[256];
            elc_string(clang_getTokenSpelling(tu, t[k]), id, sizeof id);
            if (strcmp(id, "defined") == 0 || strstr(macros, id) || strstr(derived, id))
                continue;
            if (el_config_is_backend_macro(cfg, id)) {
                if (count++ == 0)
                    at = k;
                if (len + strlen(id) + 5 < sizeof macros)
                    len += (size_t)snprintf(macros + len, sizeof macros - len, "%s'%s'",
                                            len ? ", " : "", id);
                continue;
            }
            /* a macro defined under a backend conditional: a branch on
             * its value, or on whether it is defined unless every arm
             * defines it */
            const bb_derived_macro *m = bb_derived_find(dm, id);
            if (!m || (m->every_arm && defined_operand(tu, t, d, k)))
                continue;
            if (dcount++ == 0) {
                dat = k;
                first = m;
            }
            if (dlen + strlen(id) + 5 < sizeof derived)
                dlen += (size_t)snprintf(derived + dlen, sizeof derived - dlen, "%s'%s'",
                                         dlen ? ", " : "", id);
        }
        if ((!count && !dcount) || (parent_depth > 0 && in_skipped(tu, f, &skipped, opener, off)))
            continue;
        if (count)
            el_report_loc(ctx, clang_getTokenLocation(tu, t[at]),
                          "#%s on backend macro%s %s: frontend code must behave the same on "
                          "every backend", n, count > 1 ? "s" : "", macros);
        else
            el_report_loc(ctx, clang_getTokenLocation(tu, t[dat]),
                          "#%s on macro%s %s (defined under a conditional on backend macro "
                          "'%s', %s:%u): frontend code must behave the same on every backend",
                          n, dcount > 1 ? "s" : "", derived, first->via, first->file,
                          first->line);
    }
    free(open);
    free(ds);
    free(skipped.v);
    clang_disposeTokens(tu, t, nt);
}
