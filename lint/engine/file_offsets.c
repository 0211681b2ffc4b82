/* lint/engine/file_offsets.c -- which linted file a location is in, by its
 * offset (file_offsets.h). */
#include "file_offsets.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define MACRO_BIT 0x80000000u

void el_file_offsets_init(el_file_offsets *o)
{
    memset(o, 0, sizeof *o);
}

void el_file_offsets_expect(el_file_offsets *o, CXFile f, size_t slot, size_t size, bool again)
{
    el_grow(&o->files, &o->cap_files, o->n_files + 1, sizeof *o->files);
    o->files[o->n_files++] = (el_offset_file){f, slot, size, false};
    o->again |= again;
}

static el_offset_file *expected(el_file_offsets *o, size_t slot)
{
    for (size_t i = 0; i < o->n_files; i++)
        if (o->files[i].slot == slot)
            return &o->files[i];
    return NULL;
}

/* loc is a file location of the set's TU: its source manager is the
 * first one seen (libclang's locations of one TU carry one of two
 * language options: the AST's and the preprocessor's; neither changes
 * what an offset means). */
static bool plain_location(el_file_offsets *o, CXSourceLocation loc)
{
    if (!o->sm && loc.ptr_data[0] && loc.ptr_data[1]) {
        o->sm = loc.ptr_data[0];
        o->lang = loc.ptr_data[1];
    }
    return o->sm && loc.ptr_data[0] == o->sm && loc.ptr_data[1] && !(loc.int_data & MACRO_BIT);
}

/* Where libclang puts the location `raw` (file NULL: nowhere). */
static CXFile libclang_file(const el_file_offsets *o, unsigned raw, unsigned *offset)
{
    CXSourceLocation loc = {{o->sm, o->lang}, raw};
    CXFile got = NULL;
    *offset = 0;
    clang_getExpansionLocation(loc, &got, NULL, NULL, offset);
    return got;
}

/* [begin, begin + size] is file f's whole range: its first and last
 * offsets are f's, and the next one is not (clang gives a file of n bytes
 * n + 1 offsets, the last for its end: a size smaller than what libclang
 * parsed does not check out). */
static bool whole_range(const el_file_offsets *o, CXFile f, unsigned begin, size_t size)
{
    if (size >= MACRO_BIT || begin > MACRO_BIT - 1 - size)
        return false;
    unsigned at = 0;
    CXFile first = libclang_file(o, begin, &at);
    if (!first || !clang_File_isEqual(first, f) || at != 0)
        return false;
    CXFile last = libclang_file(o, begin + (unsigned)size, &at);
    if (!last || !clang_File_isEqual(last, f) || at != size)
        return false;
    if (begin + (unsigned)size == MACRO_BIT - 1)
        return true; /* (no offset after it) */
    CXFile after = libclang_file(o, begin + (unsigned)size + 1, &at);
    return !after || !clang_File_isEqual(after, f) || at != size + 1;
}

/* False when it meets a known range (it is that one: ranges never share
 * an offset). */
static bool add_range(el_file_offsets *o, size_t slot, unsigned begin, unsigned end)
{
    for (size_t i = 0; i < o->n; i++)
        if (!(end < o->v[i].begin || begin > o->v[i].end))
            return false;
    el_grow(&o->v, &o->cap, o->n + 1, sizeof *o->v);
    size_t at = o->n;
    while (at > 0 && o->v[at - 1].begin > begin)
        at--;
    memmove(o->v + at + 1, o->v + at, (o->n - at) * sizeof *o->v);
    o->v[at] = (el_offset_range){begin, end, slot};
    o->n++;
    o->last = at;
    return true;
}

static void add_linted_range(el_file_offsets *o, el_offset_file *e, unsigned begin)
{
    if (add_range(o, e->slot, begin, begin + (unsigned)e->size) && !e->known) {
        e->known = true;
        o->n_known++;
    }
}

/* The first offset of the file libclang put loc in at `offset`; false
 * when loc is not a file location of the set's TU. */
static bool file_begin(el_file_offsets *o, CXSourceLocation loc, unsigned offset, unsigned *begin)
{
    if (!plain_location(o, loc) || offset > loc.int_data)
        return false;
    *begin = loc.int_data - offset;
    return true;
}

void el_file_offsets_learn(el_file_offsets *o, CXSourceLocation loc, size_t slot, unsigned offset)
{
    el_offset_file *e = expected(o, slot);
    unsigned begin = 0;
    if (e && file_begin(o, loc, offset, &begin) && whole_range(o, e->file, begin, e->size))
        add_linted_range(o, e, begin);
}

bool el_file_offsets_learn_external(el_file_offsets *o, CXSourceLocation loc, CXFile f,
                                    unsigned offset, size_t size)
{
    unsigned begin = 0;
    if (!f || !file_begin(o, loc, offset, &begin))
        return false;
    if (whole_range(o, f, begin, size))
        (void)add_range(o, EL_OFFSET_NOT_LINTED, begin, begin + (unsigned)size);
    return true;
}

void el_file_offsets_fill(el_file_offsets *o, CXTranslationUnit tu)
{
    for (size_t i = 0; i < o->n_files; i++) {
        el_offset_file *e = &o->files[i];
        if (e->known)
            continue;
        CXSourceLocation start = clang_getLocationForOffset(tu, e->file, 0);
        if (plain_location(o, start) && whole_range(o, e->file, start.int_data, e->size))
            add_linted_range(o, e, start.int_data);
    }
}

static el_offset_answer in_range(el_file_offsets *o, size_t i, unsigned raw, size_t *slot,
                                 unsigned *offset)
{
    o->last = i;
    if (o->v[i].slot == EL_OFFSET_NOT_LINTED)
        return EL_OFFSET_EXTERNAL;
    *slot = o->v[i].slot;
    if (offset)
        *offset = raw - o->v[i].begin;
    return EL_OFFSET_LINTED;
}

el_offset_answer el_file_offsets_find(el_file_offsets *o, CXSourceLocation loc, size_t *slot,
                                      unsigned *offset)
{
    if (!o->n || !plain_location(o, loc))
        return EL_OFFSET_UNKNOWN;
    unsigned raw = loc.int_data;
    /* consecutive cursors are mostly in one file */
    if (o->v[o->last].begin <= raw && raw <= o->v[o->last].end)
        return in_range(o, o->last, raw, slot, offset);
    size_t lo = 0, hi = o->n; /* the first range beginning after raw */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->v[mid].begin <= raw)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && raw <= o->v[lo - 1].end)
        return in_range(o, lo - 1, raw, slot, offset);
    bool complete = !o->again && o->n_known == o->n_files;
    return complete ? EL_OFFSET_EXTERNAL : EL_OFFSET_UNKNOWN;
}

void el_file_offsets_free(el_file_offsets *o)
{
    free(o->v);
    free(o->files);
    memset(o, 0, sizeof *o);
}
