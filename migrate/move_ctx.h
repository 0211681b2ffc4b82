/* migrate/move_ctx.h -- the state of one em_moves_compute run, shared by
 * the files that compute the moves (see moves.h).  Internal to them.
 *
 * They form a one-way stack, bottom to top: move_ctx.c (the state's
 * helpers), includes.c and headers.c, register.c (uses includes.c),
 * moves.c (uses them all). */
#ifndef EM_MOVE_CTX_H
#define EM_MOVE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "moves.h"
#include "strbuf.h"

enum role { R_STAY, R_MOVE, R_HELPER_MOVE, R_HELPER_COPY };

typedef struct fplan {
    const em_file *f;
    size_t d0, nd;          /* its definitions in t->defs */
    unsigned char *role;    /* per definition */
    bool moves;             /* something leaves the file */
    bool whole;             /* the file moves whole */
    char backend[64];
    char *dest;             /* destination file */
} fplan;

typedef struct dest {
    char *path;
    bool exists;            /* on disk before the run */
    const em_text *old;     /* its content then */
    const el_hash128 *hash; /* the scan's hash of it, when scanned */
    el_buf base;            /* created: the text so far */
    el_buf incs;            /* include lines to add */
    char **keys;            /* what the includes (present and added) name */
    size_t n_keys, cap_keys;
    el_buf body;            /* code to append */
    mode_t mode;
    const char *from;       /* created from a file that moves whole: its path */
    bool styled;            /* created: crlf and lead set by the first source */
    bool crlf;              /* created: its lines end in "\r\n" (its first source's do) */
    char *lead;             /* created from parts: the source's leading comment (licence) */
} dest;

typedef struct kentry {
    char op[64];
    char fn[256];
} kentry;

typedef struct kdef {
    char *path;             /* backends/<b>/kernels.def */
    char backend[64];
    kentry *v;
    size_t n, cap;
} kdef;

typedef struct ctx {
    const em_tree *t;
    const em_select *sel;
    em_texts *texts;
    em_moves *out;
    em_manuals *manual;
    char **err;
    fplan *fp;              /* per file of t->files */
    dest *dests;
    size_t n_dests, cap_dests;
    kdef *kdefs;
    size_t n_kdefs, cap_kdefs;
} ctx;

/* ---- move_ctx.c ------------------------------------------------------- */

/* Index of path in t->files, or (size_t)-1. */
size_t mv_file_index(const em_tree *t, const char *path);
/* The content of path (checked against the scan); NULL with *c->err. */
const em_text *mv_text_of(ctx *c, const char *path);
/* The column of a definition's name on its line (1 when not found). */
unsigned mv_def_col(ctx *c, const em_def *d);
/* How path is shown to the user (*owned is set when it had to be made). */
const char *mv_display_of(ctx *c, const char *path, char **owned);
/* Free v's n strings and v. */
void mv_free_strs(char **v, size_t n);
/* Add a file the run creates at path, taking text's content. */
em_create *mv_add_create(ctx *c, const char *path, el_buf *text, mode_t mode);

/* ---- includes.c -------------------------------------------------------- */

/* Lexically normalized "dir/rel". */
char *mv_join_norm(const char *dir, const char *rel);
/* What an include names, as seen from a file in dir: "<x>" for angled
 * includes, the normalized path for quoted ones. */
char *mv_include_key(const char *dir, bool angled, const char *name, size_t n);
/* The include keys a destination has (present and added). */
bool mv_dest_has_key(const dest *d, const char *k);
void mv_dest_add_key(dest *d, char *k);
/* Record the keys of the include lines of s[0..n) in d. */
void mv_keys_from_text(dest *d, const char *s, size_t n);
/* Offset just past the last #include line of text (0 when none). */
size_t mv_after_last_include(const char *s, size_t n);
/* The spelling an include needs in a file at new_includer to reach the
 * same file after the moves; NULL when the present one still does.  A
 * quoted include that was found next to its includer stays relative; one
 * found through the include path keeps its spelling unless its target
 * moved (then it is re-spelled against the same include directory). */
char *mv_respell(ctx *c, const em_include *inc, const char *new_includer, bool *angled);
/* The byte range of `"spelled"` / `<spelled>` in the directive's line. */
bool mv_spelled_range(const em_text *tx, const em_include *inc, size_t *b, size_t *e);
/* The directive's line as it must read in a file at new_includer. */
char *mv_include_line(ctx *c, const em_text *tx, const em_include *inc,
                      const char *new_includer);

/* ---- headers.c --------------------------------------------------------- */

/* The names of a header's top-level function declarations; *other is
 * set when it declares anything else (types, variables, definitions
 * that are not plain prototypes).  Comments, strings and preprocessor
 * lines are skipped. */
char **mv_header_decls(const char *s, size_t n, size_t *count, bool *other);
/* Does header (a file of the tree) declare function name? */
bool mv_header_declares(ctx *c, const char *header, const char *name);

/* ---- register.c -------------------------------------------------------- */

/* Register a moved op definition in its destination's backend. */
void mv_register_op(ctx *c, const fplan *p, const em_def *def);
/* Emit a kernels.def (created or extended); 0 or -1 with *c->err. */
int mv_emit_kdef(ctx *c, kdef *k);

#endif
