/* lint/engine/file_offsets.h -- which linted file a source location is
 * in, told from the location's offset instead of asked of libclang.
 *
 * The walk asks the file of every cursor's location, 700 000 times on
 * this repository's own tree; clang_getExpansionLocation answers with a
 * binary search of the TU's source-location table (about 470 instructions
 * a call, 3 % of a cold run).  clang gives each inclusion of a file one
 * contiguous range of offsets, [start, start + size], and a location that
 * is not in a macro carries its offset (CXSourceLocation.int_data, the
 * raw encoding: the high bit marks macro locations).  So a TU's linted
 * files, each entered once, are a handful of ranges, and a location in
 * none of them is in a file that is not linted.
 *
 * A range is learnt from libclang's answer for a location in it (its
 * offset in the file gives the start), or, for a file the walk has not
 * met by the end of the preprocessing cursors, from
 * clang_getLocationForOffset (a linear search of the TU's files: 50 000
 * instructions).  The encoding is libclang's, not its API: each range is
 * checked against clang_getExpansionLocation when it is added (its first
 * and last offsets must be the file's first and last, and the next one
 * not the file's), so an encoding that is not offsets, or a size that is
 * not what libclang parsed, leaves the file unknown, and its locations
 * asked of libclang.  Files that
 * are not linted may have ranges too (el_file_offsets_learn_external).
 * Macro locations, and any location outside the known ranges
 * until every linted file's one range is known (never when a linted file
 * was entered more than once: a template included per element type), are
 * asked of libclang too. */
#ifndef EL_FILE_OFFSETS_H
#define EL_FILE_OFFSETS_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

/* The slot of a range of a file that is not linted. */
#define EL_OFFSET_NOT_LINTED ((size_t)-1)

typedef struct el_offset_range {
    unsigned begin, end;      /* raw offsets, both inside the file */
    size_t slot;              /* the caller's index for the file, or EL_OFFSET_NOT_LINTED */
} el_offset_range;

typedef struct el_offset_file {
    CXFile file;
    size_t slot;
    size_t size;              /* the size libclang parsed */
    bool known;               /* a range of it is */
} el_offset_file;

typedef struct el_file_offsets {
    const void *sm, *lang;    /* the TU's source manager, a language (ptr_data) */
    el_offset_range *v;       /* sorted by begin */
    size_t n, cap;
    size_t last;              /* the range the last hit was in */
    el_offset_file *files;    /* the linted files expected */
    size_t n_files, cap_files, n_known;
    bool again;               /* one of them was entered more than once */
} el_file_offsets;

void el_file_offsets_init(el_file_offsets *o);
/* The TU's linted file f, the caller's `slot` (ranges answer it), of
 * `size` bytes as parsed; `again`: the TU entered it more than once. */
void el_file_offsets_expect(el_file_offsets *o, CXFile f, size_t slot, size_t size, bool again);
/* libclang put loc (of the TU) in linted file `slot` at `offset`: learn
 * that range, if loc is a file location and the range checks out. */
void el_file_offsets_learn(el_file_offsets *o, CXSourceLocation loc, size_t slot, unsigned offset);
/* libclang put loc in file f, which is not linted, at `offset`; f held
 * `size` bytes when the run read it: learn that range, if it checks out,
 * as one whose locations are in no linted file.  False when loc cannot
 * tell (not a file location): ask again with another.  Most of a TU's
 * preprocessing cursors are the system headers' macro expansions, met
 * before every linted file's range is known: each such header is then
 * looked up once, not once a cursor. */
bool el_file_offsets_learn_external(el_file_offsets *o, CXSourceLocation loc, CXFile f,
                                    unsigned offset, size_t size);
/* The ranges of the expected files not learnt yet, searched in tu. */
void el_file_offsets_fill(el_file_offsets *o, CXTranslationUnit tu);

typedef enum el_offset_answer {
    EL_OFFSET_UNKNOWN = -1,   /* ask clang_getExpansionLocation */
    EL_OFFSET_EXTERNAL = 0,   /* in no linted file */
    EL_OFFSET_LINTED = 1      /* in the linted file *slot */
} el_offset_answer;

/* *offset: loc's offset in the file (EL_OFFSET_LINTED only; may be NULL). */
el_offset_answer el_file_offsets_find(el_file_offsets *o, CXSourceLocation loc, size_t *slot,
                                      unsigned *offset);
void el_file_offsets_free(el_file_offsets *o);

#endif
