/* lint/engine/engine.c -- translation units, the walk, workers, phases
 * (engine.h). */
#include "engine.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "clang_api.h"

#include "cache.h"
#include "clang_util.h"
#include "config.h"
#include "context.h"
#include "flags.h"
#include "header_copies.h"
#include "include_search.h"
#include "kernels.h"
#include "language.h"
#include "main_stack.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "prefix_pch.h"
#include "progname.h"
#include "realpath_cache.h"
#include "shard_select.h"
#include "skipped_templates.h"
#include "strbuf.h"
#include "strmap.h"
#include "suppress.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

/* Cursor kinds are below this (CXCursor_OverloadCandidate is 700). */
#define KIND_MAX 1024
/* The walk keeps this many ancestors; deeper subtrees are not walked.
 * libclang parses on the workers (elc_parse_in_caller_thread), and its
 * parser recurses once per nesting level of the code: the workers get a
 * stack far above the 8 MiB of libclang's own parse threads. */
#define MAX_DEPTH 10000
#define WORKER_STACK (128u << 20)

#define PARSE_OPTIONS                                                                     \
    (CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |         \
     CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles)

typedef struct job {
    size_t src;                 /* index into the sources */
    char **args;
    size_t n_args;
    el_hash128 key;
    el_prefix *prefix;          /* a PCH of its first includes it shares, or NULL */
    bool looked_up;             /* the cache was read (result.from_cache: a hit) */
    bool prefixed;              /* linted with its prefix's PCH */
    bool parsed_again;          /* parsed with it, then again without */
    bool bodiless;              /* parsed without function bodies (bodies_skippable) */
    bool bodies_again;          /* parsed so, then again with them: a rule needed one */
    unsigned macro_table_walks; /* elc_macro_spans_table_walks, summed over its parses */
    el_tu_result result;
} job;

typedef struct run {
    const el_engine_opts *o;
    el_sources *sources;
    el_filehash *hashes;
    el_include_memo *written;   /* how the directives are written (include_search.h) */
    el_cache *cache;
    time_t started;             /* the run's start (wall clock) */
    el_hash128 tool;
    /* rules that may run: selected and implemented by a rule file */
    int *metas;
    size_t n_metas;
    /* opts.extra_rules: run on every TU after the registry's rules */
    const el_rule *const *extra;
    size_t n_extra;
    unsigned char (*wants)[KIND_MAX];   /* per entry of metas, then of extra */
    unsigned char wanted[KIND_MAX];     /* by any of them */

    job *jobs;
    size_t n_jobs;
    size_t phase_begin, phase_end;
    bool lookup_only;           /* this phase reads the cache, lints nothing */
    atomic_size_t next;
    size_t phase_done;          /* items of this phase finished */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t done;
    el_strmap noted;            /* compiler arguments dropped, noted once */
    el_prefix_set *prefixes;    /* NULL: each TU parses all its headers */
    bool on_caller;             /* the one worker is the calling thread */
    double progress_started;    /* the run's start (now_seconds) */
    double progress_shown_at;   /* the progress line's last showing */
    bool progress_shown;        /* this phase showed it */
} run;

/* ---- the tool's identity, for cache keys ---------------------------- */

static el_hash128 tool_identity(void)
{
    el_hasher h;
    el_hash_init(&h);
    el_hash_str(&h, "emberlint " EL_VERSION);
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[65536];
        ssize_t got;
        while ((got = read(fd, buf, sizeof buf)) > 0)
            el_hash_update(&h, buf, (size_t)got);
        close(fd);
    }
    /* libclang by its file, not its version string: asking for that would
     * load it, and a run the cache answers never does (clang_api.h).
     * Size and modification time, which a package keeps from machine to
     * machine (a CI cache restored elsewhere still hits), and which an
     * update changes. */
    const char *lib = el_clang_library();
    struct stat st;
    el_hash_str(&h, lib);
    if (stat(lib, &st) == 0) {
        el_hash_u64(&h, (uint64_t)st.st_size);
        el_hash_u64(&h, (uint64_t)st.st_mtim.tv_sec);
        el_hash_u64(&h, (uint64_t)st.st_mtim.tv_nsec);
    }
    return el_hash_final(&h);
}

/* A file's token in a cache entry: the hash of its content, and for a
 * linted file also its class and configuration (where the configuration
 * is, relative to the cache's root). */
static el_hash128 dep_token(run *r, const char *path, el_hash128 content)
{
    long k = el_sources_find(r->sources, path);
    el_hasher h;
    el_hash_init(&h);
    el_hash_u64(&h, content.a);
    el_hash_u64(&h, content.b);
    if (k >= 0) {
        const el_source *s = &r->sources->v[k];
        el_hash_u64(&h, (uint64_t)s->cls + 1);
        el_hash_str(&h, s->backend);
        el_hash_u64(&h, s->cfg->fingerprint.a);
        el_hash_u64(&h, s->cfg->fingerprint.b);
        char *where = el_cache_relocatable(r->cache, s->cfg->path ? s->cfg->path : "");
        char *root = el_cache_relocatable(r->cache, s->cfg->root ? s->cfg->root : "");
        el_hash_str(&h, where);
        el_hash_str(&h, root);
        free(where);
        free(root);
    }
    return el_hash_final(&h);
}

/* A cached entry's file still as it was (its content now, on disk). */
static bool dep_ok(const char *path, el_hash128 token, void *ud)
{
    run *r = ud;
    el_hash128 content;
    return el_filehash_get(r->hashes, path, &content) &&
           el_hash_eq(dep_token(r, path, content), token);
}

/* Nothing at a place a cached entry's include search found empty. */
static bool absent_ok(const char *path, void *ud)
{
    run *r = ud;
    return !el_filehash_exists(r->hashes, path);
}

/* The key: what the result depends on besides the files it read, with
 * the root's path left out so that a moved tree keeps its keys. */
static el_hash128 job_key(run *r, const job *j)
{
    const el_source *s = &r->sources->v[j->src];
    el_hasher h;
    el_hash_init(&h);
    el_hash_u64(&h, r->tool.a);
    el_hash_u64(&h, r->tool.b);
    char *path = el_cache_relocatable(r->cache, s->path);
    el_hash_str(&h, path);
    free(path);
    el_hash_u64(&h, j->n_args);
    for (size_t i = 0; i < j->n_args; i++) {
        char *a = el_cache_relocatable(r->cache, j->args[i]);
        el_hash_str(&h, a);
        free(a);
    }
    el_hash_u64(&h, s->cfg->fingerprint.a);
    el_hash_u64(&h, s->cfg->fingerprint.b);
    for (size_t i = 0; i < r->n_metas; i++)
        el_hash_str(&h, el_meta_at((size_t)r->metas[i])->id);
    for (size_t i = 0; i < r->n_extra; i++)
        el_hash_str(&h, r->extra[i]->id ? r->extra[i]->id : "(extra)");
    el_hash_u64(&h, r->sources->any_backend); /* el_linted_backend_code */
    if (r->o->want_fixes)
        el_hash_str(&h, "with fixes"); /* such entries hold the fixes too */
    if (r->o->all_bodies)
        el_hash_str(&h, "all bodies"); /* EH000 also in bodies others skip */
    /* messages may show paths relative to the current directory (EH000's
     * "in included file '../inc/x.h'") */
    char *cwd = el_cache_relocatable(r->cache, el_cwd());
    el_hash_str(&h, cwd);
    free(cwd);
    return el_hash_final(&h);
}

/* ---- the walk ---------------------------------------------------------- */

/* Which of a TU's rules have a hook for each cursor kind: the walk calls
 * those alone (most of the rules want a few kinds of the 800 000 cursors
 * of a cold run). */
typedef struct kind_hooks {
    unsigned short *enter, *leave;   /* rule indices, per kind from off[kind] */
    unsigned *enter_off, *leave_off; /* KIND_MAX + 1 each */
} kind_hooks;

static void kind_hooks_build(kind_hooks *h, const run *r, const el_ctx *ctx,
                             const size_t *rule_slot)
{
    h->enter_off = el_xcalloc(KIND_MAX + 1, sizeof *h->enter_off);
    h->leave_off = el_xcalloc(KIND_MAX + 1, sizeof *h->leave_off);
    size_t n_enter = 0, n_leave = 0, cap_enter = 0, cap_leave = 0;
    h->enter = h->leave = NULL;
    for (size_t k = 0; k < KIND_MAX; k++) {
        h->enter_off[k] = (unsigned)n_enter;
        h->leave_off[k] = (unsigned)n_leave;
        for (size_t i = 0; i < ctx->n_rules; i++) {
            const el_rule *rule = ctx->rules[i].rule;
            if (!r->wants[rule_slot[i]][k])
                continue;
            if (rule->on_cursor) {
                el_grow(&h->enter, &cap_enter, n_enter + 1, sizeof *h->enter);
                h->enter[n_enter++] = (unsigned short)i;
            }
            if (rule->on_leave) {
                el_grow(&h->leave, &cap_leave, n_leave + 1, sizeof *h->leave);
                h->leave[n_leave++] = (unsigned short)i;
            }
        }
    }
    h->enter_off[KIND_MAX] = (unsigned)n_enter;
    h->leave_off[KIND_MAX] = (unsigned)n_leave;
}

static void kind_hooks_free(kind_hooks *h)
{
    free(h->enter);
    free(h->leave);
    free(h->enter_off);
    free(h->leave_off);
}

typedef struct include_at {
    size_t slot;                /* el_ctx's file slot */
    unsigned offset;
} include_at;

typedef struct walk {
    el_ctx *ctx;
    run *r;
    const kind_hooks *hooks;
    /* What the top level shows on the way, so that nothing walks it
     * again: every #include of the TU (el_include_search_absent's), and
     * the linted files' macro expansions (the macro spans').  libclang
     * visits the preprocessing cursors first (ELC_PREPROCESSING_FIRST). */
    CXCursor *directives;
    size_t n_directives, cap_directives;
    bool declarations;          /* past the preprocessing cursors */
    bool bodiless;              /* the TU was parsed without function bodies */
    signed char *reads_bodies;  /* by file slot: a rule that reads bodies applies (-1 unknown) */
    size_t n_reads_bodies;
    struct body_span {          /* the skipped bodies of the linted files */
        size_t slot;
        unsigned begin, end;
    } *bodies;
    size_t n_bodies, cap_bodies;
    /* the linted files' #include lines (index_includes) */
    include_at *includes;
    size_t n_includes, cap_includes;
    bool includes_indexed;
    bool may_seal;              /* C: seal_if_one_file may run */
    CXFile sealed;              /* the top-level cursor's subtree is in this file */
    int attr_depth;             /* below it, an attribute at this depth (-1: none) */
} walk;

static void top_level(walk *w, CXCursor c, enum CXCursorKind kind)
{
    if (kind == CXCursor_InclusionDirective) {
        el_grow(&w->directives, &w->cap_directives, w->n_directives + 1, sizeof *w->directives);
        w->directives[w->n_directives++] = c;
    } else if (!w->declarations && !elc_kind_is_preprocessing(kind)) {
        w->declarations = true;
        elc_macro_spans_feed_done(w->ctx->macro_spans);
        /* the files no preprocessing cursor was looked up in */
        el_file_offsets_fill(&w->ctx->offsets, w->ctx->tu);
    }
}

static void dispatch(walk *w, CXCursor c, enum CXCursorKind kind, bool leave)
{
    el_ctx *ctx = w->ctx;
    if ((unsigned)kind >= KIND_MAX)
        return;
    const kind_hooks *h = w->hooks;
    const unsigned *off = leave ? h->leave_off : h->enter_off;
    const unsigned short *rules = leave ? h->leave : h->enter;
    for (unsigned k = off[kind]; k < off[kind + 1]; k++) {
        size_t i = rules[k];
        el_active_rule *a = &ctx->rules[i];
        el_ctx_enter(ctx, i);
        (leave ? a->rule->on_leave : a->rule->on_cursor)(ctx, a->state, c);
    }
}

/* The cursor c as a clang_visitChildren of its parent gives it, which
 * is how the rules see their cursors' children (elc_child) and compare
 * them: a statement's cursor records the enclosing declaration (data[0])
 * only when its parent is that declaration; within one recursing visit
 * libclang passes it down to every statement below. */
static CXCursor as_visited(CXCursor c, CXCursor parent)
{
    if ((elc_kind_is_statement(c.kind) || elc_kind_is_expression(c.kind)) &&
        !elc_kind_is_declaration(parent.kind))
        c.data[0] = NULL;
    return c;
}

/* Whether a and b are the same node, however each was visited. */
static bool same_node(CXCursor a, CXCursor b)
{
    if (elc_kind_is_statement(a.kind) || elc_kind_is_expression(a.kind))
        return a.kind == b.kind && a.data[1] == b.data[1];
    /* (clang_equalCursors compares the kinds and the data, the
     * declarations' data[1] aside: the same value is the same node, and
     * another kind is another) */
    if (a.kind != b.kind)
        return false;
    if (a.data[0] == b.data[0] && a.data[1] == b.data[1] && a.data[2] == b.data[2])
        return true;
    return clang_equalCursors(a, b);
}

/* Leaves (on_leave hooks, innermost first) the ancestors that are not
 * above a cursor whose parent is `parent`: the walk is one
 * clang_visitChildren that recurses, so a cursor's parent is how its
 * ancestors' ends are seen.  libclang builds a visitor and its work lists
 * per clang_visitChildren call: one for the whole TU, not one per cursor. */
static void leave_to(walk *w, CXCursor parent)
{
    el_ctx *ctx = w->ctx;
    while (ctx->depth > 0 && !same_node(ctx->stack[ctx->depth - 1], parent)) {
        CXCursor c = ctx->stack[--ctx->depth];
        dispatch(w, c, c.kind, true); /* (c.kind: what clang_getCursorKind returns) */
    }
}

/* A file that is not linted, met by a lookup: its range, learnt once a TU
 * (its size is the one the run hashes it at: a file changed since gives
 * a range that does not check out, or a part of it). */
static void learn_external(walk *w, el_file_slot *s, CXSourceLocation loc, unsigned offset)
{
    size_t size = 0;
    if (!s->path || !el_filehash_size(w->r->hashes, s->path, &size))
        s->range_tried = true;
    else if (el_file_offsets_learn_external(&w->ctx->offsets, loc, s->file, offset, size))
        s->range_tried = true; /* (a macro location cannot tell: the next may) */
}

/* The linted file loc expands in (*slot, *offset: its slot and the
 * offset there), NULL when it is not in one. */
static CXFile linted_file_at(walk *w, CXSourceLocation loc, size_t *slot, unsigned *offset)
{
    el_ctx *ctx = w->ctx;
    switch (el_file_offsets_find(&ctx->offsets, loc, slot, offset)) {
    case EL_OFFSET_LINTED:
        return ctx->files[*slot].file;
    case EL_OFFSET_EXTERNAL:
        return NULL;
    case EL_OFFSET_UNKNOWN:
        break;
    }
    CXFile f = NULL;
    clang_getExpansionLocation(loc, &f, NULL, NULL, offset);
    el_file_slot *s = f ? el_ctx_slot(ctx, f) : NULL;
    if (!s)
        return NULL;
    if (s->source < 0) {
        if (!s->range_tried)
            learn_external(w, s, loc, *offset);
        return NULL;
    }
    *slot = (size_t)(s - ctx->files);
    el_file_offsets_learn(&ctx->offsets, loc, *slot, *offset);
    return f;
}

/* The #include lines of the linted files, as (slot, offset): read from
 * the walk's directives once the preprocessing cursors are behind. */
static void index_includes(walk *w)
{
    w->includes_indexed = true;
    for (size_t i = 0; i < w->n_directives; i++) {
        size_t slot = 0;
        unsigned offset = 0;
        if (!linted_file_at(w, clang_getCursorLocation(w->directives[i]), &slot, &offset))
            continue;
        el_grow(&w->includes, &w->cap_includes, w->n_includes + 1, sizeof *w->includes);
        w->includes[w->n_includes++] = (include_at){slot, offset};
    }
}

/* A top-level cursor c of linted file f (slot) whose extent lies in f
 * with no #include inside: in C, every token below it expands in f (only
 * an #include switches files within a range; in C++ a default argument
 * sits at the callee's declaration), so its descendants need no lookup of
 * their own.  About 150 000 cursors of a cold run of this tree
 * are in macro expansions, where clang_getExpansionLocation costs 1 300
 * instructions. */
static void seal_if_one_file(walk *w, CXCursor c, CXFile f, size_t slot)
{
    w->sealed = NULL;
    if (!w->may_seal || !elc_kind_is_declaration(c.kind))
        return;
    if (!w->includes_indexed)
        index_includes(w);
    CXSourceRange r = clang_getCursorExtent(c);
    size_t bs = 0, es = 0;
    unsigned b = 0, e = 0;
    if (linted_file_at(w, clang_getRangeStart(r), &bs, &b) != f ||
        linted_file_at(w, clang_getRangeEnd(r), &es, &e) != f || bs != slot || es != slot ||
        b > e)
        return;
    for (size_t i = 0; i < w->n_includes; i++)
        if (w->includes[i].slot == slot && b <= w->includes[i].offset && w->includes[i].offset <= e)
            return;
    w->sealed = f;
    w->attr_depth = -1;
}

/* Sealing is for C: a C++ TU's cursors below a declaration may sit
 * elsewhere (a default argument's expression, at the callee's
 * declaration). */
static bool parsed_as_c(const el_source *src, const job *j)
{
    const char *x = el_parse_language(src->cxx, j->args, j->n_args);
    return x && strcmp(x, "c") == 0;
}

/* The file of c (at loc) under a sealed top-level cursor, NULL when it
 * needs a lookup: an attribute may be inherited from another declaration
 * (and is looked up with everything below it), and a cursor without a
 * location is not walked. */
static CXFile sealed_file(walk *w, enum CXCursorKind kind, CXSourceLocation loc)
{
    unsigned depth = w->ctx->depth;
    if (!w->sealed || depth == 0)
        return NULL;
    if (w->attr_depth >= 0 && depth <= (unsigned)w->attr_depth)
        w->attr_depth = -1;
    if (w->attr_depth >= 0)
        return NULL;
    if (elc_kind_is_attribute(kind)) {
        w->attr_depth = (int)depth;
        return NULL;
    }
    return loc.ptr_data[0] ? w->sealed : NULL;
}

/* Every rule that runs on src needs no function bodies there
 * (el_rule.needs_no_bodies): those that apply to it as its configuration
 * has it (EH001 and EH002, the engine's own, read comments), and the
 * engine's rules, which run everywhere. */
static bool bodies_unread(const run *r, const el_source *src)
{
    for (size_t i = 0; i < r->n_metas; i++)
        if (el_rule_applies(src, r->metas[i]) &&
            !el_meta_at((size_t)r->metas[i])->impl->needs_no_bodies)
            return false;
    for (size_t i = 0; i < r->n_extra; i++)
        if (!r->extra[i]->needs_no_bodies)
            return false;
    return true;
}

/* Does a rule that reads function bodies (el_rule.needs_no_bodies unset)
 * apply to linted file f, as its own configuration has it?  Then a
 * function defined there needs its body, in a TU parsed without them. */
static bool body_read_here(walk *w, CXFile f)
{
    el_file_slot *s = el_ctx_slot(w->ctx, f);
    size_t slot = (size_t)(s - w->ctx->files);
    if (slot >= w->n_reads_bodies) {
        size_t n = w->n_reads_bodies;
        el_grow(&w->reads_bodies, &w->n_reads_bodies, slot + 1, sizeof *w->reads_bodies);
        memset(w->reads_bodies + n, -1, w->n_reads_bodies - n);
    }
    if (w->reads_bodies[slot] < 0)
        w->reads_bodies[slot] =
            s->source >= 0 && !bodies_unread(w->r, &w->r->sources->v[s->source]);
    return w->reads_bodies[slot] != 0;
}

/* Does t[0..n) hold `word`?  (memmem is not POSIX.) */
static bool holds(const char *t, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (const char *p = t; n >= k && (p = memchr(p, word[0], n - k + 1 - (size_t)(p - t)));
         p++)
        if (memcmp(p, word, k) == 0)
            return true;
    return false;
}

/* A top-level function of linted file f (slot) in a TU parsed without
 * bodies: defined in a file a rule that reads bodies applies to, the TU
 * needs them; else its skipped body's place is kept (includes_in_bodies). */
static void note_function(walk *w, CXCursor c, CXFile f)
{
    el_ctx *ctx = w->ctx;
    const char *body = NULL;
    size_t len = 0, size = 0;
    if (!el_skipped_body(ctx, c, &body, &len))
        return;
    if (body_read_here(w, f)) {
        (void)elc_tu_has_bodies(ctx->tu);
        return;
    }
    const char *text = el_file_text(ctx, f, &size);
    if (!text || body < text || body + len > text + size)
        return;
    el_grow(&w->bodies, &w->cap_bodies, w->n_bodies + 1, sizeof *w->bodies);
    w->bodies[w->n_bodies++] = (struct body_span){(size_t)(el_ctx_slot(ctx, f) - ctx->files),
                                                  (unsigned)(body - text),
                                                  (unsigned)(body - text + len)};
}

/* After a walk without bodies: a file a rule that reads bodies applies to,
 * included inside a skipped body (a frontend header spliced into a
 * backend function), needs them. */
static void includes_in_bodies(walk *w)
{
    el_ctx *ctx = w->ctx;
    for (size_t i = 0; i < w->n_directives && w->n_bodies; i++) {
        CXFile inc = clang_getIncludedFile(w->directives[i]);
        if (!inc || el_ctx_slot(ctx, inc)->source < 0 || !body_read_here(w, inc))
            continue;
        size_t slot = 0;
        unsigned off = 0;
        if (!linted_file_at(w, clang_getCursorLocation(w->directives[i]), &slot, &off))
            continue;
        for (size_t k = 0; k < w->n_bodies; k++) {
            const struct body_span *b = &w->bodies[k];
            if (b->slot == slot && b->begin <= off && off < b->end) {
                (void)elc_tu_has_bodies(ctx->tu);
                return;
            }
        }
    }
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    walk *w = data;
    el_ctx *ctx = w->ctx;
    leave_to(w, parent);
    c = as_visited(c, parent);
    enum CXCursorKind kind = c.kind; /* (what clang_getCursorKind returns) */
    if (ctx->depth == 0) {
        top_level(w, c, kind);
        if (kind == CXCursor_MacroDefinition)
            elc_macro_spans_feed_definition(ctx->macro_spans, c);
        /* a preprocessing cursor (no children) that no rule wants and the
         * macro spans do not need: not even its location (most of a TU's
         * top level is the system headers' macro definitions) */
        if (elc_kind_is_preprocessing(kind) && kind != CXCursor_MacroExpansion &&
            ((unsigned)kind >= KIND_MAX || !w->r->wanted[kind]))
            return CXChildVisit_Continue;
    }
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile f = sealed_file(w, kind, loc);
    if (!f) {
        size_t slot = 0;
        unsigned offset = 0;
        f = linted_file_at(w, loc, &slot, &offset);
        if (ctx->depth == 0)
            w->sealed = NULL;
        if (!f)
            return CXChildVisit_Continue; /* external: not walked */
        if (ctx->depth == 0 && w->declarations)
            seal_if_one_file(w, c, f, slot);
    }
    ctx->here = loc;
    ctx->here_file = f;
    ctx->here_cursor = c;
    ctx->here_definition = -1;
    ctx->here_skipped = -1;
    if (kind == CXCursor_MacroExpansion && ctx->depth == 0)
        elc_macro_spans_feed(ctx->macro_spans, c);
    if (w->bodiless && kind == CXCursor_FunctionDecl && ctx->depth == 0)
        note_function(w, c, f);
    if (w->bodiless && elc_bodies_wanted())
        return CXChildVisit_Break; /* linted again with them */
    dispatch(w, c, kind, false);
    if (w->bodiless && elc_bodies_wanted())
        return CXChildVisit_Break;
    if (ctx->depth >= MAX_DEPTH) {
        dispatch(w, c, kind, true);
        return CXChildVisit_Continue;
    }
    if (ctx->depth + 1 > ctx->cap_stack)
        el_grow(&ctx->stack, &ctx->cap_stack, ctx->depth + 1, sizeof *ctx->stack);
    ctx->stack[ctx->depth++] = c;
    return CXChildVisit_Recurse;
}

/* The walk of the TU: every cursor of the linted files, with on_cursor
 * before its children and on_leave after them. */
static void walk_tu(walk *w, CXTranslationUnit tu)
{
    CXCursor top = clang_getTranslationUnitCursor(tu);
    if (w->bodiless && elc_bodies_wanted())
        return; /* (a file hook needed a body) */
    clang_visitChildren(top, visit, w);
    leave_to(w, top); /* (a stopped walk too: every hook sees what it entered left) */
    if (w->bodiless && !elc_bodies_wanted())
        includes_in_bodies(w);
}

/* ---- one TU -------------------------------------------------------------- */

typedef struct incl {
    run *r;
    el_ctx *ctx;
    el_tu_result *res;
    el_strmap seen;
} incl;

/* The hash of the content libclang parsed.  clang_getFileContents finds
 * the file by a linear scan of the TU's source locations (~50 000
 * instructions a file, 4 M a TU of the bench: most of emberlint's cost
 * beyond parsing), so it is asked only for files whose content libclang
 * may have read otherwise than the run: the run's hash (el_filehash: one
 * read a run) is libclang's content when libclang saw the file with the
 * stamp it had for the run's read (libclang read it after the run began). */
static bool parsed_content_hash(incl *in, CXFile f, const char *real, el_hash128 *out)
{
    if (el_filehash_get_as_of(in->r->hashes, real, elc_file_stamp(f), (long long)in->r->started,
                              out))
        return true;
    size_t size = 0;
    const char *text = el_file_text(in->ctx, f, &size);
    if (text) {
        *out = el_hash_bytes(text, size);
        return true;
    }
    return el_filehash_get(in->r->hashes, real, out);
}

/* Every file the TU read, with the hash of the content libclang parsed
 * (not of the file now: an edit during the parse must not be cached
 * with the old content's findings). */
static void add_dep(incl *in, CXFile f)
{
    const char *real = el_file_path(in->ctx, f); /* (the rules' per-TU answer) */
    if (real && !el_strmap_get(&in->seen, real)) {
        el_strmap_put(&in->seen, real, (void *)1);
        el_hash128 content;
        if (parsed_content_hash(in, f, real, &content))
            el_result_add_dep(in->res, real, dep_token(in->r, real, content));
    }
}

/* Every file of a TU in inclusion order (the main file first), from one
 * clang_getInclusions: the linted ones for the on_file hooks, all of
 * them for the cache's dependencies. */
typedef struct tu_files {
    CXFile *v;
    size_t n, cap;
    CXFile *again;              /* those included more than once (templates) */
    size_t n_again, cap_again;
} tu_files;

/* Does a linted file of the TU hold a suppression comment?  EH001 judges
 * one by the findings of its line or file, EH000's among them, which a
 * TU without bodies lacks inside them: such a TU is parsed with them. */
static bool suppressions_in(el_ctx *ctx, const tu_files *files)
{
    for (size_t i = 0; i < files->n; i++) {
        size_t size = 0;
        const char *text = el_ctx_slot(ctx, files->v[i])->source >= 0
                               ? el_file_text(ctx, files->v[i], &size)
                               : NULL;
        if (text && holds(text, size, "emberlint-ignore"))
            return true;
    }
    return false;
}

static void files_visit(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d)
{
    (void)stack;
    (void)n;
    tu_files *t = d;
    for (size_t i = 0; i < t->n; i++) {
        if (t->v[i] != f)
            continue;
        for (size_t k = 0; k < t->n_again; k++)
            if (t->again[k] == f)
                return;
        el_grow(&t->again, &t->cap_again, t->n_again + 1, sizeof *t->again);
        t->again[t->n_again++] = f;
        return;
    }
    el_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v);
    t->v[t->n++] = f;
}

/* The linted files the TU included more than once (a template per
 * element type), as facts: the run's findings in them, its project
 * hooks' too, are one per rule and place (finish). */
static void note_included_again(el_ctx *ctx, const tu_files *files, el_tu_result *res)
{
    for (size_t i = 0; i < files->n_again; i++) {
        long k = el_ctx_slot(ctx, files->again[i])->source;
        if (k >= 0)
            el_result_add_fact(res, ctx->sources->v[k].path, EL_FACT_INCLUDED_AGAIN, "");
    }
}

/* The TU's linted files, whose offset ranges the walk learns. */
static void index_offsets(el_ctx *ctx, const CXFile *linted, size_t n)
{
    el_file_offsets_init(&ctx->offsets);
    for (size_t i = 0; i < n; i++) {
        size_t slot = (size_t)(el_ctx_slot(ctx, linted[i]) - ctx->files), size = 0;
        /* (without its text, no size to check a range against: never known) */
        bool text = el_file_text(ctx, linted[i], &size) != NULL;
        el_file_offsets_expect(&ctx->offsets, linted[i], slot, size,
                               !text || el_tu_entered_again(ctx, linted[i]));
    }
}

/* The on_file hooks, with the TU's linted files; the macro spans are
 * told those files (the walk feeds their expansions). */
static void call_file_hooks(el_ctx *ctx, const tu_files *all, bool want_files)
{
    CXFile *linted = el_xcalloc(all->n + 1, sizeof *linted);
    size_t n = 0;
    for (size_t i = 0; i < all->n; i++)
        if (el_ctx_slot(ctx, all->v[i])->source >= 0)
            linted[n++] = all->v[i];
    elc_macro_spans_feed_files(ctx->macro_spans, linted, n);
    index_offsets(ctx, linted, n);
    for (size_t k = 0; want_files && k < n; k++) {
        for (size_t i = 0; i < ctx->n_rules; i++) {
            if (ctx->rules[i].rule->on_file) {
                el_ctx_enter(ctx, i);
                ctx->rules[i].rule->on_file(ctx, ctx->rules[i].state, linted[k]);
            }
        }
    }
    free(linted);
}

/* An #include that was not found: a fact, so the run can say so once
 * (missing_includes_note), cached with the TU.  Its value is the name
 * after the delimiter the directive wrote it with ('<' or '"'; from the
 * text at the diagnostic, which points at the name): a quoted
 * "asm/proj.h" is the project's own, <asm/...> the system's. */
static void note_missing_include(el_tu_result *res, const el_source *src, CXTranslationUnit tu,
                                 CXDiagnostic d, bool as_c)
{
    CXString s = clang_getDiagnosticSpelling(d);
    const char *msg = clang_getCString(s);
    const char *q = msg && msg[0] == '\'' ? strstr(msg + 1, "' file not found") : NULL;
    if (q) {
        CXFile file = NULL;
        unsigned off = 0;
        clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, NULL, NULL, &off);
        size_t size = 0;
        const char *text = file ? clang_getFileContents(tu, file, &size) : NULL;
        char delim = text && off < size && (text[off] == '<' || text[off] == '"') ? text[off] : '?';
        char *name = el_xasprintf("%c%.*s", delim, (int)(q - msg - 1), msg + 1);
        el_result_add_fact(res, src->path, EL_FACT_MISSING_INCLUDE, name);
        if (as_c)
            el_result_add_fact(res, src->path, EL_FACT_MISSING_INCLUDE_IN_C, name);
        free(name);
    }
    clang_disposeString(s);
}

typedef struct missing {
    const char *name;
    size_t files;
    bool angled;    /* some file wrote it <name> */
    bool in_c;      /* some TU parsed as C missed it */
} missing;

static int cmp_missing(const void *a, const void *b)
{
    const missing *x = a, *y = b;
    if (x->files != y->files)
        return x->files < y->files ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The sources (not headers: every header borrows) among the files that
 * missed an include whose flags the database does not give: parsed with
 * a neighbour's entry (el_compdb_args), which need not hold their own
 * -I.  How many, and the first by name, for the note. */
typedef struct unlisted_count {
    const el_compdb *db;
    size_t n, files; /* the unlisted sources; every file that missed one */
    const char *first;
} unlisted_count;

static void unlisted_source(const char *file, void *value, void *ud)
{
    (void)value;
    unlisted_count *u = ud;
    if (strchr(file, '\n')) /* (a file-and-name key) */
        return;
    u->files++;
    if (el_path_is_header(file))
        return;
    char *abs = el_realpath_cached(file);
    if (abs && !el_compdb_lists(u->db, abs)) {
        u->n++;
        if (!u->first || strcmp(file, u->first) < 0)
            u->first = file;
    }
    free(abs);
}

/* Once per run, on stderr: which includes were not found, in how many
 * files, and how to give the compiler what it needs. */
static void missing_includes_note(const el_fact_rec *const *facts, size_t n, bool have_db,
                                  const el_compdb *db, el_strmap *printed)
{
    missing *m = NULL;
    size_t nm = 0, cap = 0;
    el_strmap files = {0};
    el_strmap in_c = {0}; /* names a TU parsed as C missed */
    for (size_t i = 0; i < n; i++)
        if (strcmp(facts[i]->key, EL_FACT_MISSING_INCLUDE_IN_C) == 0)
            el_strmap_put(&in_c, facts[i]->value, (void *)1);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(facts[i]->key, EL_FACT_MISSING_INCLUDE) != 0)
            continue;
        char *key = el_xasprintf("%s\n%s", facts[i]->file, facts[i]->value);
        bool again = el_strmap_put(&files, key, (void *)1) != NULL;
        el_strmap_put(&files, facts[i]->file, (void *)1);
        free(key);
        if (again)
            continue;
        /* the name after its delimiter ('?': not known) */
        const char *v = facts[i]->value;
        bool angled = v[0] == '<';
        const char *name = v[0] == '<' || v[0] == '"' || v[0] == '?' ? v + 1 : v;
        size_t k;
        for (k = 0; k < nm && strcmp(m[k].name, name) != 0; k++)
            ;
        if (k == nm) {
            el_grow(&m, &cap, nm + 1, sizeof *m);
            m[nm++] = (missing){name, 0, false, false};
        }
        m[k].files++;
        m[k].angled |= angled;
        m[k].in_c |= el_strmap_get(&in_c, v) != NULL;
    }
    el_strmap_free(&in_c);
    if (nm == 0) {
        el_strmap_free(&files);
        return;
    }
    qsort(m, nm, sizeof *m, cmp_missing);
    el_buf b = {0};
    bool eh = false;
    const char *cxx = NULL, *libc = NULL;
    for (size_t k = 0; k < nm; k++) {
        if (k < 4)
            el_buf_printf(&b, "%s'%s' (%zu file%s)", k ? ", " : "", m[k].name, m[k].files,
                          m[k].files == 1 ? "" : "s");
        eh |= k < 4 && strncmp(m[k].name, "eh/", 3) == 0;
        /* only where a TU parsed as C missed it: a C++ file parsed as
         * C++ that misses <QtWidgets> lacks the flags, not the language */
        if (!cxx && m[k].in_c && el_is_cxx_std_header(m[k].name))
            cxx = m[k].name;
        /* the C library's own headers (glibc's bits/, gnu/; the kernel's
         * asm/), written <...>: what is missing is a target's system
         * headers, not the project's flags (a quoted "asm/proj.h" is the
         * project's own) */
        if (!libc && m[k].angled &&
            (strncmp(m[k].name, "bits/", 5) == 0 || strncmp(m[k].name, "gnu/", 4) == 0 ||
             strncmp(m[k].name, "asm/", 4) == 0))
            libc = m[k].name;
    }
    if (nm > 4)
        el_buf_printf(&b, " and %zu more", nm - 4);
    /* C++ headers in .h files (vendored libraries) are parsed as C: the
     * flags are not what is missing.  "languages": ["c++"] adds to the
     * built-in ["c"], as every list does: a C++ project that writes it
     * still gets its .h files as C, hence the way to replace it */
    char *cxx_hint = cxx ? el_xasprintf("; <%s> is C++'s: files that include it are C++ parsed as "
                                        "C (a .h file is C while the configuration's \"languages\" "
                                        "holds \"c\", as it does by default, and an array adds to "
                                        "it: \"languages\": {\"replace\": [\"c++\"]} in "
                                        ".emberlint.json parses .h files as C++; or \"exclude\" "
                                        "them)", cxx)
                         : NULL;
    char *libc_hint = libc ? el_xasprintf("; '%s' is the C library's own: the system headers of "
                                          "the target parsed for are missing (a --target needs "
                                          "that target's headers: --sysroot=<dir>, or install "
                                          "them)", libc)
                           : NULL;
    /* a source the database does not build (named on the command line)
     * was parsed with a neighbour's flags: its own directories are what
     * is missing, not a generated file (SUNDIALS' unit tests, -p build
     * of a build without them) */
    unlisted_count u = {db, 0, 0, NULL};
    if (db)
        el_strmap_each(&files, unlisted_source, &u);
    char *first = u.first ? el_path_display(u.first) : NULL;
    char *unlisted_hint =
        u.n == 0 ? NULL
        : u.n == 1
            ? el_xasprintf("%s is not in compile_commands.json: it was parsed with the flags "
                           "of the nearest file the build compiles, which need not name its "
                           "include directories: give them (-- -I<dir>), or build it and "
                           "regenerate compile_commands.json", first)
            : el_xasprintf("%zu of the files (%s, ...) are not in compile_commands.json: they "
                           "were parsed with the flags of the nearest file the build compiles, "
                           "which need not name their include directories: give them "
                           "(-- -I<dir>), or build them and regenerate "
                           "compile_commands.json", u.n, first);
    /* with the build's own flags, what is missing is most often a file
     * the build generates (config.h, version.h) */
    char *line = el_xasprintf("%s: includes not found: %s; %s%s%s%s%s%s\n", el_progname, b.s,
            unlisted_hint && u.n == u.files ? unlisted_hint
            : have_db ? "with compile_commands.json's flags: generated by the build? build "
                        "first (or give more directories: -- -I<dir>)"
                      : "give the compiler the project's flags: -p BUILD_DIR (its "
                        "compile_commands.json) or -- -I<dir> -D<macro>",
            unlisted_hint && u.n < u.files ? "; " : "",
            unlisted_hint && u.n < u.files ? unlisted_hint : "",
            eh ? ", or install libeh (make install; pkg-config eh)" : "", cxx_hint ? cxx_hint : "",
            libc_hint ? libc_hint : "");
    /* a caller's runs (ember-migrate's build configurations) that miss
     * the same includes say so once */
    if (!printed || !el_strmap_get(printed, line)) {
        fputs(line, stderr);
        if (printed)
            el_strmap_put(printed, line, (void *)1);
    }
    free(line);
    free(unlisted_hint);
    free(first);
    free(cxx_hint);
    free(libc_hint);
    el_buf_free(&b);
    el_strmap_free(&files);
    free(m);
}

static const char *parse_failure_reason(enum CXErrorCode e)
{
    switch (e) {
    case CXError_Crashed:
        return "libclang crashed while parsing it";
    case CXError_InvalidArguments:
        return "libclang rejected the compiler arguments";
    case CXError_ASTReadError: /* what libclang 14 says when its driver refuses the arguments */
        return "libclang could not read it with these compiler arguments "
               "(a -std= or -x of another language?)";
    default:
        return "libclang could not parse it";
    }
}

/* The InclusionDirective cursors of a TU (el_include_search_absent's). */
typedef struct directives {
    CXCursor *v;
    size_t n, cap;
} directives;

static bool directive_visit(CXCursor c, enum CXCursorKind kind, void *d)
{
    directives *ds = d;
    if (kind == CXCursor_InclusionDirective) {
        el_grow(&ds->v, &ds->cap, ds->n + 1, sizeof *ds->v);
        ds->v[ds->n++] = c;
    }
    return true;
}

/* A prefix PCH's parse (el_prefix_record_fn): the files it read and the
 * places its include search found empty, which its users' cache entries
 * carry as their own. */
static bool record_prefix(void *ud, CXTranslationUnit tu, const char *prefix_file,
                          char *const *args, size_t n_args, el_tu_result *pre)
{
    run *r = ud;
    el_ctx ctx = {.sources = r->sources, .tu = tu, .last_finding = -1, .here_definition = -1,
                  .here_skipped = -1};
    tu_files files = {0};
    clang_getInclusions(tu, files_visit, &files);
    incl in = {r, &ctx, pre, {0}};
    CXFile self = clang_getFile(tu, prefix_file);
    for (size_t i = 0; i < files.n; i++)
        if (!clang_File_isEqual(files.v[i], self))
            add_dep(&in, files.v[i]);
    el_strmap_free(&in.seen);
    free(files.v);
    free(files.again);
    directives ds = {0};
    elc_visit_preprocessing(tu, directive_visit, &ds);
    bool ok = el_include_search_absent(tu, ds.v, ds.n, args, n_args, r->hashes, r->written, pre);
    free(ds.v);
    for (size_t i = 0; i < ctx.n_files; i++)
        free(ctx.files[i].path);
    free(ctx.files);
    free(ctx.file_index);
    return ok;
}

typedef enum lint_status { LINTED, LINT_FAILED, NEEDS_WHOLE, NEEDS_BODIES } lint_status;

/* pre's absent places that res has not (the file's own directives of
 * the prefix's headers looked at the same places). */
static void add_absent_once(el_tu_result *res, const el_tu_result *pre)
{
    if (!pre || !pre->n_absent)
        return;
    el_strmap have = {0};
    for (size_t i = 0; i < res->n_absent; i++)
        el_strmap_put(&have, res->absent[i], (void *)1);
    for (size_t i = 0; i < pre->n_absent; i++)
        if (!el_strmap_put(&have, pre->absent[i], (void *)1))
            el_result_add_absent(res, pre->absent[i]);
    el_strmap_free(&have);
}

/* The file as parsed still starts with j's prefix (it was read once
 * before, to choose it: an edit since would put the PCH before lines it
 * was not made for). */
static bool still_starts_so(CXTranslationUnit tu, const job *j, const char *path)
{
    size_t size = 0;
    CXFile main = clang_getFile(tu, path);
    const char *text = main ? clang_getFileContents(tu, main, &size) : NULL;
    return text && el_prefix_matches(j->prefix, text, size);
}

/* Lint j's TU, parsed with the prefix PCH `pch` (its parse's record
 * `pre`) or in full (pch NULL).  With a PCH, NEEDS_WHOLE when that parse
 * is not the one to trust (it failed, has errors, or a rule asked for
 * every file's cursors): res is left to be cleared. */
static lint_status lint_parsed(run *r, CXIndex idx, job *j, const char *pch,
                               const el_tu_result *pre, bool bodiless, bool *cacheable)
{
    const el_source *src = &r->sources->v[j->src];
    el_tu_result *res = &j->result;
    *cacheable = false;

    enum CXErrorCode ec = CXError_Success;
    CXTranslationUnit tu = NULL;
    {
        const char **args = el_xcalloc(j->n_args + 5, sizeof *args);
        size_t n = 0;
        for (; n < j->n_args; n++)
            args[n] = j->args[n];
        if (pch)
            n += el_prefix_args(pch, args + n);
        unsigned options = PARSE_OPTIONS | (bodiless ? CXTranslationUnit_SkipFunctionBodies : 0);
        ec = clang_parseTranslationUnit2(idx, src->path, args, (int)n, NULL, 0, options, &tu);
        free(args);
    }
    bool errors = false;
    if (ec == CXError_Success && tu) {
        unsigned nd = clang_getNumDiagnostics(tu);
        for (unsigned i = 0; i < nd && !(pch && errors); i++) {
            CXDiagnostic d = clang_getDiagnostic(tu, i);
            if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
                errors = true;
                if (!pch)
                    note_missing_include(res, src, tu, d, parsed_as_c(src, j));
            }
            clang_disposeDiagnostic(d);
        }
    }
    if (pch && (ec != CXError_Success || !tu || errors || !still_starts_so(tu, j, src->path))) {
        if (tu)
            clang_disposeTranslationUnit(tu);
        return NEEDS_WHOLE;
    }

    el_ctx ctx = {.main = src, .sources = r->sources, .result = res,
                  .want_fixes = r->o->want_fixes, .last_finding = -1, .here_definition = -1,
                  .here_skipped = -1};
    size_t slots = r->n_metas + r->n_extra;
    size_t *rule_slot = el_xcalloc(slots + 1, sizeof *rule_slot);
    ctx.rules = el_xcalloc(slots + 1, sizeof *ctx.rules);
    for (size_t i = 0; i < slots; i++) {
        bool extra = i >= r->n_metas;
        int m = extra ? -1 : r->metas[i];
        if (!extra && !src->cfg->rules[m].enabled)
            continue;
        el_active_rule *a = &ctx.rules[ctx.n_rules];
        a->rule = extra ? r->extra[i - r->n_metas] : el_meta_at((size_t)m)->impl;
        a->meta = m;
        a->state = a->rule->state_size ? el_xcalloc(1, a->rule->state_size) : NULL;
        rule_slot[ctx.n_rules++] = i;
    }

    lint_status status = LINTED;
    if (ec != CXError_Success || !tu) {
        res->parsed = false;
        res->had_errors = true;
        for (size_t i = 0; i < ctx.n_rules; i++) {
            if (ctx.rules[i].rule->parse_failed) {
                el_ctx_enter(&ctx, i);
                ctx.rules[i].rule->parse_failed(&ctx, parse_failure_reason(ec));
            }
        }
    } else {
        ctx.tu = tu;
        if (pch)
            elc_tu_partial(tu);
        elc_tu_bodiless(bodiless ? tu : NULL);
        ctx.macro_spans = elc_macro_spans_new(tu);
        elc_macro_spans_use(ctx.macro_spans);
        res->parsed = true;
        res->had_errors = errors;
        tu_files files = {0};
        clang_getInclusions(tu, files_visit, &files);
        ctx.tu_files = files.v;
        ctx.n_tu_files = files.n;
        ctx.tu_again = files.again;
        ctx.n_tu_again = files.n_again;
        for (size_t i = 0; i < ctx.n_rules; i++) {
            if (ctx.rules[i].rule->begin) {
                el_ctx_enter(&ctx, i);
                ctx.rules[i].rule->begin(&ctx, ctx.rules[i].state);
            }
        }
        bool want_files = false;
        for (size_t i = 0; i < ctx.n_rules; i++)
            want_files |= ctx.rules[i].rule->on_file != NULL;
        call_file_hooks(&ctx, &files, want_files);
        if (bodiless && suppressions_in(&ctx, &files))
            (void)elc_tu_has_bodies(tu);
        kind_hooks hooks;
        kind_hooks_build(&hooks, r, &ctx, rule_slot);
        walk w = {.ctx = &ctx, .r = r, .hooks = &hooks, .attr_depth = -1,
                  .may_seal = parsed_as_c(src, j), .bodiless = bodiless};
        walk_tu(&w, tu);
        kind_hooks_free(&hooks);
        free(w.reads_bodies);
        free(w.bodies);
        elc_macro_spans_feed_done(ctx.macro_spans);
        for (size_t i = 0; i < ctx.n_rules; i++) { /* (a stopped walk too: they free there) */
            if (ctx.rules[i].rule->end) {
                el_ctx_enter(&ctx, i);
                ctx.rules[i].rule->end(&ctx, ctx.rules[i].state);
            }
        }
        if (bodiless && elc_bodies_wanted())
            status = NEEDS_BODIES;
        note_included_again(&ctx, &files, res);
        if (pch && status == LINTED && elc_tu_whole_wanted())
            status = NEEDS_WHOLE;
        incl in = {r, &ctx, res, {0}};
        for (size_t i = 0; status == LINTED && i < files.n; i++)
            add_dep(&in, files.v[i]);
        for (size_t i = 0; status == LINTED && pre && i < pre->n_deps; i++) {
            if (!el_strmap_get(&in.seen, pre->deps[i].path)) {
                el_strmap_put(&in.seen, pre->deps[i].path, (void *)1);
                el_result_add_dep(res, pre->deps[i].path, pre->deps[i].hash);
            }
        }
        el_strmap_free(&in.seen);
        free(files.v);
        free(files.again);
        ctx.tu_files = NULL;
        ctx.n_tu_files = 0;
        ctx.tu_again = NULL;
        ctx.n_tu_again = 0;
        if (r->cache && status == LINTED) {
            *cacheable = el_include_search_absent(tu, w.directives, w.n_directives, j->args,
                                                  j->n_args, r->hashes, r->written, res);
            add_absent_once(res, pre);
        }
        free(w.directives);
        free(w.includes);
        el_file_offsets_free(&ctx.offsets);
        elc_tu_partial(NULL);
        elc_tu_bodiless(NULL);
        elc_macro_spans_use(NULL);
        j->macro_table_walks += elc_macro_spans_table_walks(ctx.macro_spans);
        elc_macro_spans_free(ctx.macro_spans);
        el_skipped_bodies_free(ctx.skipped_bodies);
        clang_disposeTranslationUnit(tu);
    }

    for (size_t i = 0; i < ctx.n_rules; i++)
        free(ctx.rules[i].state);
    free(ctx.rules);
    free(rule_slot);
    for (size_t i = 0; i < ctx.n_files; i++)
        free(ctx.files[i].path);
    free(ctx.files);
    free(ctx.file_index);
    free(ctx.stack);
    return status;
}

/* Is j's result in the cache (then loaded)?  Asked once. */
static bool lookup(run *r, job *j)
{
    if (!j->looked_up) {
        j->looked_up = true;
        el_cache_check check = {dep_ok, absent_ok, r};
        if (r->cache)
            el_cache_load(r->cache, j->key, &j->result, &check);
    }
    return j->result.from_cache;
}

/* May src's TU be parsed without its function bodies?  A backend or core
 * file (in C: a C++ class's member functions are read where they are
 * used) on which every rule that runs needs none (bodies_unread): on this
 * project's tree, 61 of 84 TUs and 7% of a cold run's instructions
 * (bench/README.md). */
static bool bodies_skippable(const run *r, const job *j)
{
    const el_source *src = &r->sources->v[j->src];
    return !r->o->all_bodies && (src->cls == EL_FILE_BACKEND || src->cls == EL_FILE_CORE) &&
           parsed_as_c(src, j) && bodies_unread(r, src);
}

/* lint_parsed, without the function bodies when j may be so, and again
 * with them when a rule needed one after all. */
static lint_status lint_parsed_bodies(run *r, CXIndex idx, job *j, const char *pch,
                                      const el_tu_result *pre, bool *cacheable)
{
    if (j->bodiless && !j->bodies_again) {
        lint_status st = lint_parsed(r, idx, j, pch, pre, true, cacheable);
        if (st != NEEDS_BODIES)
            return st;
        el_result_free(&j->result);
        j->bodies_again = true;
    }
    return lint_parsed(r, idx, j, pch, pre, false, cacheable);
}

static void lint_tu(run *r, CXIndex *whole_idx, CXIndex *partial_idx, job *j)
{
    el_tu_result *res = &j->result;
    if (lookup(r, j))
        return;
    if (!*whole_idx)
        *whole_idx = clang_createIndex(0, 0); /* the first parse of this worker */
    CXIndex idx = *whole_idx;

    bool cacheable = false;
    lint_status st = LINT_FAILED;
    const el_tu_result *pre = NULL;
    bool pre_cacheable = false;
    const char *pch = j->prefix ? el_prefix_pch(r->prefixes, j->prefix, idx, &pre, &pre_cacheable)
                                : NULL;
    if (pch && !*partial_idx)
        *partial_idx = clang_createIndex(1, 0); /* the walk: the file's own cursors */
    j->bodiless = bodies_skippable(r, j);
    if (pch) {
        st = lint_parsed_bodies(r, *partial_idx, j, pch, pre, &cacheable);
        cacheable &= pre_cacheable;
        j->prefixed = st == LINTED;
        j->parsed_again = st != LINTED;
        if (st != LINTED)
            el_result_free(res);
    }
    if (st != LINTED)
        lint_parsed_bodies(r, idx, j, NULL, NULL, &cacheable);
    if (j->prefix)
        el_prefix_done(r->prefixes, j->prefix);

    /* A TU with errors is stored like the others (EH000 is its finding);
     * only one libclang produced nothing for is not (no file list). */
    if (r->cache && res->parsed && cacheable)
        el_cache_store(r->cache, j->key, res);
}

/* ---- workers ------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The progress line (--progress), after the run's first second, at most
 * every 100 ms; r->lock held. */
static void show_progress(run *r)
{
    if (!r->o->progress)
        return;
    double now = now_seconds();
    if (now - r->progress_started <= 1.0 || now - r->progress_shown_at < 0.1)
        return;
    fprintf(stderr, "\r%s: %zu/%zu translation units", el_progname, r->done, r->n_jobs);
    fflush(stderr);
    r->progress_shown_at = now;
    r->progress_shown = true;
}

static void *worker(void *arg)
{
    run *r = arg;
    CXIndex idx = NULL;         /* made on the first parse: libclang loads then */
    CXIndex partial_idx = NULL; /* for TUs with a prefix PCH, made on the first */
    for (;;) {
        size_t i = atomic_fetch_add(&r->next, 1);
        if (i >= r->phase_end - r->phase_begin)
            break;
        job *j = &r->jobs[r->phase_begin + i];
        bool finished; /* (a hit counts once, in the phase that found it) */
        if (r->lookup_only) {
            finished = lookup(r, j);
        } else {
            finished = !(j->looked_up && j->result.from_cache);
            lint_tu(r, &idx, &partial_idx, j);
        }
        pthread_mutex_lock(&r->lock);
        r->phase_done++;
        r->done += finished;
        /* the caller wakes every 200 ms for the progress line anyway:
         * woken only at the phase's end, not after every job */
        if (r->phase_done == r->phase_end - r->phase_begin)
            pthread_cond_signal(&r->cond);
        if (r->on_caller) /* (no one else to: shown as each job ends) */
            show_progress(r);
        pthread_mutex_unlock(&r->lock);
    }
    if (partial_idx)
        clang_disposeIndex(partial_idx);
    if (idx)
        clang_disposeIndex(idx);
    return NULL;
}

/* The phase's n jobs on nthreads workers; this thread shows the
 * progress line meanwhile. */
static void run_on_workers(run *r, size_t nthreads, size_t n)
{
    pthread_t *tids = el_xcalloc(nthreads, sizeof *tids);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, WORKER_STACK);
    size_t started_threads = 0;
    for (size_t i = 0; i < nthreads; i++) {
        if (pthread_create(&tids[i], &attr, worker, r) != 0)
            break;
        started_threads++;
    }
    pthread_attr_destroy(&attr);
    if (started_threads == 0)
        worker(r); /* no threads available: lint on this one */

    pthread_mutex_lock(&r->lock);
    while (r->phase_done < n) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&r->cond, &r->lock, &ts);
        show_progress(r);
    }
    pthread_mutex_unlock(&r->lock);
    for (size_t i = 0; i < started_threads; i++)
        pthread_join(tids[i], NULL);
    free(tids);
}

/* Run jobs [begin, end) on the workers (lookup_only: only read the
 * cache); done counts across phases for the progress line (total: every
 * job of the run).  A phase with one worker (-j 1, or one job) has it
 * on this thread, where its stack allows (main_stack.h). */
static void run_phase(run *r, size_t begin, size_t end, bool lookup_only)
{
    if (begin == end)
        return;
    r->phase_begin = begin;
    r->phase_end = end;
    r->lookup_only = lookup_only;
    r->phase_done = 0;
    r->progress_shown = false;
    atomic_store(&r->next, 0);
    size_t n = end - begin;
    size_t nthreads = (size_t)(r->o->jobs > 0 ? r->o->jobs : 1);
    if (nthreads > n)
        nthreads = n;
    el_main_stack stack;
    if (nthreads == 1 && el_main_stack_take(&stack, WORKER_STACK)) {
        r->on_caller = true;
        worker(r);
        r->on_caller = false;
        el_main_stack_give_back(&stack);
    } else {
        run_on_workers(r, nthreads, n);
    }
    if (r->progress_shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

/* Will a rule that runs on src ask for its whole TU (el_rule's
 * reads_whole_tu)?  Then a prefix PCH would only make it parse twice. */
static bool a_rule_reads_whole(const run *r, const el_source *src)
{
    for (size_t i = 0; i < r->n_metas; i++) {
        const el_rule *rule = el_meta_at((size_t)r->metas[i])->impl;
        if (rule->reads_whole_tu && el_rule_applies(src, r->metas[i]) &&
            rule->reads_whole_tu(src->path, src->cfg))
            return true;
    }
    return false;
}

/* A dropped CPU choice (-march=, -mcpu= libclang 14 does not know) also
 * drops the feature macros it defines (__AVX2__, __ARM_NEON): code under
 * them goes unlinted, so it is said without -v. */
static bool cpu_choice(const char *a)
{
    return strncmp(a, "-march=", 7) == 0 || strncmp(a, "-mcpu=", 6) == 0;
}

/* What the notes say the run does with code (el_engine_opts.done). */
static const char *done_of(const el_engine_opts *o)
{
    return o->done ? o->done : EL_LINTED;
}

static const char *to_do_of(const el_engine_opts *o)
{
    return o->to_do ? o->to_do : EL_LINT;
}

/* Each compiler argument dropped, once a run: under -v every one, else a
 * CPU choice. */
static void note_dropped(run *r, const el_source *src, char **dropped, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool cpu = cpu_choice(dropped[i]);
        if ((r->o->verbose || cpu) && !el_strmap_get(&r->noted, dropped[i])) {
            el_strmap_put(&r->noted, dropped[i], (void *)1);
            char *shown = el_path_display(src->path);
            if (cpu)
                fprintf(stderr, "%s: warning: %s: compiler argument '%s' dropped: libclang refuses it "
                                "(a CPU it does not know, or another target's), so the macros it defines (__AVX2__, __ARM_NEON, ...) "
                                "are not set and code under them is not %s: give a CPU it "
                                "knows or the features' own flags (-- -mavx2)\n",
                        el_progname, shown, dropped[i], done_of(r->o));
            else
                fprintf(stderr, "%s: note: %s: compiler argument '%s' dropped: only arguments "
                                "that affect parsing alone are passed on (docs/emberlint.md)\n",
                        el_progname, shown, dropped[i]);
            free(shown);
        }
        free(dropped[i]);
    }
    free(dropped);
}

static void add_job(run *r, size_t *cap, size_t src)
{
    el_grow(&r->jobs, cap, r->n_jobs + 1, sizeof *r->jobs);
    job *j = &r->jobs[r->n_jobs++];
    memset(j, 0, sizeof *j);
    j->src = src;
    char **dropped = NULL;
    size_t n_dropped = 0;
    j->args = el_flags_for(r->o->compdb, &r->sources->v[src], r->o->extra_args, r->o->n_extra,
                           &j->n_args, &dropped, &n_dropped);
    note_dropped(r, &r->sources->v[src], dropped, n_dropped);
    j->key = job_key(r, j);
}

/* The database lists files, none of them in the tree the run is in. */
static bool none_here(const el_compdb *db)
{
    /* "here": the git work tree the run is in, so that a run from a
     * subdirectory the database builds nothing of (tools/, tests/) is
     * not taken for one in another checkout; outside git, the directory
     * holding both the current one and the database's (the project's
     * root with an in-tree build/), unless that is only the root */
    char *here = el_path_upward(el_cwd(), ".git");
    if (!here && el_compdb_dir(db)) {
        const char *a = el_cwd(), *b = el_compdb_dir(db);
        size_t i = 0, last = 0;
        for (; a[i] && a[i] == b[i]; i++)
            if (a[i] == '/')
                last = i;
        if ((a[i] == '\0' || a[i] == '/') && (b[i] == '\0' || b[i] == '/'))
            last = i;
        if (last > 0)
            here = el_xstrndup(a, last);
    }
    if (!here)
        here = el_xstrdup(el_cwd());
    size_t n = el_compdb_file_count(db);
    bool none = n > 0;
    for (size_t i = 0; i < n && none; i++) {
        char *rel = el_path_under(el_compdb_file(db, i), here);
        none = rel == NULL;
        free(rel);
    }
    free(here);
    return none;
}

/* ---- the run ------------------------------------------------------------- */

static void set_wants(unsigned char *wants, const el_rule *rule)
{
    if (!rule->on_cursor && !rule->on_leave)
        return; /* no cursor hook: wants none */
    if (!rule->kinds) {
        memset(wants, 1, KIND_MAX);
        return;
    }
    for (const enum CXCursorKind *p = rule->kinds; *p != EL_KINDS_END; p++)
        if ((unsigned)*p < KIND_MAX)
            wants[*p] = 1;
}

static void copy_fact(el_fact_list *l, const el_fact_rec *f)
{
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    el_fact_rec *x = &l->v[l->n++];
    x->file = el_xstrdup(f->file);
    x->key = el_xstrdup(f->key);
    x->value = el_xstrdup(f->value);
}

void el_fact_list_free(el_fact_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].file);
        free(l->v[i].key);
        free(l->v[i].value);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

void el_include_list_free(el_include_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].tu);
        free(l->v[i].header);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

/* The linted headers each TU read, for opts.includes_out. */
static void collect_includes(run *r, el_include_list *l)
{
    for (size_t i = 0; i < r->n_jobs; i++) {
        const el_source *main_src = &r->sources->v[r->jobs[i].src];
        const el_tu_result *res = &r->jobs[i].result;
        for (size_t d = 0; d < res->n_deps; d++) {
            long k = el_sources_find(r->sources, res->deps[d].path);
            if (k < 0 || !r->sources->v[k].is_header || r->sources->v[k].path == main_src->path)
                continue;
            el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
            l->v[l->n].tu = el_xstrdup(main_src->path);
            l->v[l->n].header = el_xstrdup(r->sources->v[k].path);
            l->n++;
        }
    }
}

/* Is source i in this run's shard? */
static bool in_shard(const el_engine_opts *o, const el_sources *sources, size_t i)
{
    return o->shard_count <= 1 ||
           el_shard_of(sources->v[i].path, o->shard_count) == o->shard_index;
}

/* A deep copy of a TU's result for opts.tus_out: its findings (with
 * fixes) and facts, and of its deps the linted files only. */
static void copy_record(const el_sources *sources, const job *j, bool standalone, el_tu_records *out)
{
    el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
    el_tu_record *t = &out->v[out->n++];
    memset(t, 0, sizeof *t);
    t->src = j->src;
    t->standalone = standalone;
    el_findings_copy(&t->result.findings, &j->result.findings);
    for (size_t f = 0; f < j->result.n_facts; f++)
        el_result_add_fact(&t->result, j->result.facts[f].file, j->result.facts[f].key,
                           j->result.facts[f].value);
    for (size_t d = 0; d < j->result.n_deps; d++)
        if (el_sources_find(sources, j->result.deps[d].path) >= 0)
            el_result_add_dep(&t->result, j->result.deps[d].path, j->result.deps[d].hash);
    t->result.parsed = j->result.parsed;
    t->result.had_errors = j->result.had_errors;
}

void el_tu_records_free(el_tu_records *t)
{
    for (size_t i = 0; i < t->n; i++)
        el_result_free(&t->v[i].result);
    free(t->v);
    el_unbuilt_free(&t->unbuilt);
    memset(t, 0, sizeof *t);
}

/* The project hooks, suppressions and sorting over the results of every
 * TU, in job order; their findings are moved out. */
static void finish(const el_engine_opts *o, el_sources *sources, el_tu_result *const *res, size_t n,
                   el_findings *out)
{
    el_forgive_skipped_templates(sources, el_compdb_build(o->compdb), res, n);
    size_t nm = el_meta_count();
    const el_rule *const *extra = o->extra_rules;
    size_t n_extra = 0;
    while (extra && extra[n_extra])
        n_extra++;
    el_findings all = {0};
    size_t n_facts = 0;
    for (size_t i = 0; i < n; i++)
        n_facts += res[i]->n_facts;
    el_project p = {.sources = sources, .out = &all};
    p.facts = el_xcalloc(n_facts + 1, sizeof *p.facts);
    p.fact_tu = el_xcalloc(n_facts + 1, sizeof *p.fact_tu);
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < res[i]->n_facts; f++) {
            p.fact_tu[p.n_facts] = i;
            p.facts[p.n_facts++] = &res[i]->facts[f];
        }
    for (size_t k = 0; k < nm + n_extra; k++) {
        bool is_extra = k >= nm;
        const el_rule *rule = is_extra ? extra[k - nm] : el_meta_at(k)->impl;
        if (!is_extra && (!o->selected[k] || !rule))
            continue;
        if (rule->project) {
            p.current_meta = is_extra ? -1 : (int)k;
            rule->project(&p);
        }
    }
    missing_includes_note(p.facts, p.n_facts,
                          el_compdb_build(o->compdb) != NULL || o->shards_had_compdb,
                          el_compdb_build(o->compdb), o->notes_printed);
    if (o->facts_out)
        for (size_t i = 0; i < p.n_facts; i++)
            copy_fact(o->facts_out, p.facts[i]);
    for (size_t i = 0; i < p.n_added; i++) {
        if (o->facts_out)
            copy_fact(o->facts_out, &p.added[i]);
        free(p.added[i].file);
        free(p.added[i].key);
        free(p.added[i].value);
    }
    free(p.added);
    for (size_t i = 0; i < n; i++) {
        /* one per place within each TU first: two TUs that include the
         * template alike (GSL's matrix/test.c, and test_static.c that
         * includes test.c) give each message twice, which the run-wide
         * pass below would take for a message every inclusion gives */
        for (size_t f = 0; f < res[i]->n_facts; f++)
            if (strcmp(res[i]->facts[f].key, EL_FACT_INCLUDED_AGAIN) == 0)
                el_findings_one_per_place(&res[i]->findings, res[i]->facts[f].file);
    }
    /* and across TUs: a file several TUs build each its own way (a
     * template compiled once per precision, each in a TU of its own) */
    el_grow(&p.origin, &p.cap_origin, all.n + 1, sizeof *p.origin);
    for (size_t k = p.n_origin; k < all.n; k++)
        p.origin[k] = EL_TU_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        el_grow(&p.origin, &p.cap_origin, all.n + res[i]->findings.n + 1, sizeof *p.origin);
        for (size_t k = 0; k < res[i]->findings.n; k++)
            p.origin[all.n + k] = i;
        el_findings_move(&all, &res[i]->findings);
    }
    el_findings_one_per_place_across(&all, p.origin);
    free(p.origin);
    free(p.fact_tu);
    el_forgive_kernels(sources, (const el_fact_rec *const *)p.facts, p.n_facts, &all);
    el_strmap again = {0};
    for (size_t i = 0; i < p.n_facts; i++)
        if (strcmp(p.facts[i]->key, EL_FACT_INCLUDED_AGAIN) == 0 &&
            !el_strmap_put(&again, p.facts[i]->file, (void *)1))
            el_findings_one_per_place(&all, p.facts[i]->file);
    el_strmap_free(&again);
    free(p.facts);

    el_findings_sort_unique(&all);
    el_suppress_apply(&all, sources->v, sources->n, o->selected);
    el_findings_sort_unique(&all);
    el_findings_move(out, &all);
}

/* An EH000 finding at the TU's main file: it does not parse alone. */
static bool fails_alone(const el_tu_result *r, const char *main)
{
    for (size_t k = 0; k < r->findings.n; k++)
        if (strcmp(r->findings.v[k].rule, "EH000") == 0 && strcmp(r->findings.v[k].file, main) == 0)
            return true;
    return false;
}

static bool reads(const el_tu_result *r, const char *path)
{
    for (size_t d = 0; d < r->n_deps; d++)
        if (strcmp(r->deps[d].path, path) == 0)
            return true;
    return false;
}

bool *el_tus_read_elsewhere(const char *const *mains, el_tu_result *const *res,
                            const bool *standalone, size_t n)
{
    bool *read = el_xcalloc(n + 1, sizeof *read);
    el_strmap tu_of = {0}; /* main file -> 1 + its index */
    for (size_t i = 0; i < n; i++)
        if (!el_strmap_get(&tu_of, mains[i]))
            el_strmap_put(&tu_of, mains[i], (void *)(i + 1));
    for (size_t j = 0; j < n; j++) {
        if (standalone[j])
            continue;
        for (size_t d = 0; d < res[j]->n_deps; d++) {
            size_t i = (size_t)el_strmap_get(&tu_of, res[j]->deps[d].path);
            if (i-- == 0 || i == j || read[i])
                continue;
            read[i] = !reads(res[i], mains[j]) && (standalone[i] || fails_alone(res[i], mains[i]));
        }
    }
    el_strmap_free(&tu_of);
    return read;
}

void el_engine_finish(const el_engine_opts *o, el_sources *sources, el_tu_records *recs,
                      el_findings *out)
{
    el_tu_result **res = el_xcalloc(recs->n + 1, sizeof *res);
    for (size_t i = 0; i < recs->n; i++)
        res[i] = &recs->v[i].result;
    finish(o, sources, res, recs->n, out);
    free(res);
}

void el_engine_run(const el_engine_opts *o, el_sources *sources, el_filehash *hashes,
                   el_findings *out, el_engine_stats *stats)
{
    run r = {.o = o, .sources = sources, .hashes = hashes, .started = time(NULL)};
    r.written = el_include_memo_new(r.started);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.cond, NULL);
    r.tool = tool_identity();
    if (o->cache_dir && (!o->want_fixes || o->cache_fixes)) { /* fixes only when asked */
        char *err = NULL;
        char *root = el_path_repo_root();
        r.cache = el_cache_open(o->cache_dir, root, &err);
        free(root);
        if (!r.cache) {
            fprintf(stderr, "%s: warning: %s; running without the cache\n", el_progname, err);
            free(err);
        }
    }

    size_t nm = el_meta_count();
    /* the caller's extra rules, then the engine's own */
    size_t n_given = 0;
    while (o->extra_rules && o->extra_rules[n_given])
        n_given++;
    const el_rule **extra = el_xcalloc(n_given + 2, sizeof *extra);
    for (size_t e = 0; e < n_given; e++)
        extra[e] = o->extra_rules[e];
    extra[n_given] = &el_kernel_rule;
    r.extra = extra;
    r.n_extra = n_given + 1;
    r.metas = el_xcalloc(nm + 1, sizeof *r.metas);
    r.wants = el_xcalloc(nm + r.n_extra + 1, sizeof *r.wants);
    for (size_t k = 0; k < nm; k++) {
        const el_rule_meta *m = el_meta_at(k);
        if (!o->selected[k] || !m->impl)
            continue;
        size_t i = r.n_metas++;
        r.metas[i] = (int)k;
        set_wants(r.wants[i], m->impl);
    }
    for (size_t e = 0; e < r.n_extra; e++)
        set_wants(r.wants[r.n_metas + e], r.extra[e]);
    for (size_t i = 0; i < r.n_metas + r.n_extra; i++)
        for (size_t k = 0; k < KIND_MAX; k++)
            r.wanted[k] |= r.wants[i][k];

    r.progress_started = now_seconds();
    size_t cap = 0, n_unbuilt = 0;
    size_t *unbuilt = el_xcalloc(sources->n + 1, sizeof *unbuilt);
    /* (whether any shard lints a .c file: headers then count as built
     * only through them, in every shard alike) */
    bool builds_sources = false;
    size_t unlisted = 0;
    /* [root]: the walk of that PATH found a source file (sources.h) */
    size_t n_roots = 0;
    for (size_t i = 0; i < sources->n; i++)
        if (sources->v[i].root > n_roots)
            n_roots = sources->v[i].root;
    bool *root_has_sources = el_xcalloc(n_roots + 1, sizeof *root_has_sources);
    /* what the build builds: a configuration of define sets made in
     * memory is only flags, not a build */
    const el_compdb *build = el_compdb_build(o->compdb);
    for (size_t i = 0; i < sources->n; i++) {
        if (sources->v[i].is_header)
            continue;
        root_has_sources[sources->v[i].root] = true;
        /* With a compile database, a source file a walk found that the
         * database does not list is not built in this configuration (a
         * backend not enabled, a tool not made): its flags would be a
         * neighbour's guess.  Named on the command line, it is linted. */
        bool built = !build || sources->v[i].named || el_compdb_lists(build, sources->v[i].path);
        builds_sources |= built;
        unlisted += !built;
        if (!in_shard(o, sources, i))
            continue;
        if (!built) {
            unbuilt[n_unbuilt++] = i;
            continue;
        }
        add_job(&r, &cap, i);
    }
    /* A database that lists none of them, nor any file under the current
     * directory, was made elsewhere (another checkout, a container's
     * path): every source would go unlinted, with only the count of "not
     * built" files to tell. */
    static bool told_elsewhere;
    if (build && unlisted && !builds_sources && !told_elsewhere && none_here(build)) {
        told_elsewhere = true;
        fprintf(stderr, "%s: warning: compile_commands.json lists none of the %zu source file%s under "
                        "the paths, but other files (%s, ...): was it generated in another checkout "
                        "or directory? generate it in this one\n",
                el_progname, unlisted, unlisted == 1 ? "" : "s", el_compdb_file(build, 0));
    }
    size_t phase1 = r.n_jobs;
    /* (--fix, --diff and ember-migrate run rules that look declarations
     * up across the whole TU of nearly every file: each would be parsed
     * again without its prefix; a report that only shows the fixes,
     * cache_fixes, does not) */
    if (!o->no_prefix_pch && !(o->want_fixes && !o->cache_fixes) && phase1 > 1) {
        /* the files the cache does not answer share their prefixes */
        if (r.cache)
            run_phase(&r, 0, phase1, true);
        r.prefixes = el_prefix_set_new(sources, PARSE_OPTIONS, record_prefix, &r);
        for (size_t i = 0; i < phase1; i++)
            if (!r.jobs[i].result.from_cache)
                el_prefix_offer(r.prefixes, i, &sources->v[r.jobs[i].src], r.jobs[i].args,
                                r.jobs[i].n_args);
        for (size_t i = 0; i < phase1; i++) {
            r.jobs[i].prefix = el_prefix_of(r.prefixes, i);
            /* one a rule reads whole is parsed without its prefix at
             * once (it still counts for the prefix the others share) */
            if (r.jobs[i].prefix && a_rule_reads_whole(&r, &sources->v[r.jobs[i].src])) {
                el_prefix_done(r.prefixes, r.jobs[i].prefix);
                r.jobs[i].prefix = NULL;
            }
        }
    }
    run_phase(&r, 0, phase1, false);

    /* the files the .c files read: linted through them */
    el_strmap covered = {0};
    for (size_t i = 0; i < phase1; i++)
        for (size_t d = 0; d < r.jobs[i].result.n_deps; d++)
            el_strmap_put(&covered, r.jobs[i].result.deps[d].path, (void *)1);
    /* What the database does not build and no TU read (a .c file the
     * database lacks that a listed one includes, a template, is linted
     * through it): noted once the whole tree is known -- in a shard, by
     * the merge, which sees what every shard's TUs read. */
    el_unbuilt left = {0};
    for (size_t k = 0; k < n_unbuilt; k++)
        if (!el_strmap_get(&covered, sources->v[unbuilt[k]].path))
            el_unbuilt_add(&left, sources->v[unbuilt[k]].path, false, false);
    free(unbuilt);

    /* Headers no .c included get a TU of their own -- except, with a
     * compile database, those none of its files includes: like an
     * unlisted source, such a header is not built in this configuration
     * (a backend not enabled), and parsed alone with a neighbour's flags
     * it would only cost time.  This is decided for each PATH given: so
     * are all of them under a PATH that holds source files the database
     * builds none of (`-p build src/arm` of an x86 build); under a PATH
     * of headers alone (include/), only when the database builds source
     * files under the other PATHs (`-p build src include`: include/'s
     * headers no built file reads are a backend's it leaves out), so
     * that `-p build include examples`, with examples/ unbuilt, lints
     * include/.  Named on the command line, it is linted; so is one
     * the TUs read a copy of (the same name and bytes, outside the
     * linted files: CMake's configure_file COPYONLY into the build
     * directory, header_copies.h). */
    el_strmap by_cxx = {0};
    bool by_cxx_known = false;
    el_header_copies *copies = NULL;
    for (size_t i = 0; i < sources->n; i++) {
        if (!sources->v[i].is_header || el_strmap_get(&covered, sources->v[i].path) ||
            !in_shard(o, sources, i))
            continue;
        size_t root = sources->v[i].root;
        bool with_sources = root && root_has_sources[root] ? true
                            : root ? builds_sources : builds_sources || unlisted;
        if (build && !sources->v[i].named && with_sources) {
            if (!copies)
                copies = el_header_copies_new(&covered, sources);
            if (el_header_copies_has(copies, r.hashes, sources->v[i].path)) {
                add_job(&r, &cap, i);
                continue;
            }
            if (!by_cxx_known) {
                el_unbuilt_cxx_only_headers(build, sources, &by_cxx);
                by_cxx_known = true;
            }
            el_unbuilt_add(&left, sources->v[i].path, true, el_strmap_get(&by_cxx, sources->v[i].path));
            continue;
        }
        add_job(&r, &cap, i);
    }
    el_header_copies_free(copies);
    el_strmap_free(&covered);
    el_strmap_free(&by_cxx);
    free(root_has_sources);
    /* (the project hooks ask which files were parsed: el_project_file_parsed) */
    el_unbuilt_mark(&left, sources);
    if (o->tus_out) { /* a shard's report, even of 1/1: the merge says it */
        o->tus_out->unbuilt = left;
    } else if (o->unbuilt_out) {
        el_unbuilt_free(o->unbuilt_out);
        *o->unbuilt_out = left;
    } else {
        el_unbuilt_note(&left, o->verbose, done_of(o), to_do_of(o));
        el_unbuilt_free(&left);
    }
    /* the response files the entries of this run's files name that could
     * not be read: said for its own files (a shard's), each once */
    if (build) {
        char **mains = el_xcalloc(r.n_jobs + 1, sizeof *mains);
        for (size_t i = 0; i < r.n_jobs; i++)
            mains[i] = sources->v[r.jobs[i].src].path;
        el_compdb_warn_unread(build, mains, r.n_jobs);
        free(mains);
    }
    run_phase(&r, phase1, r.n_jobs, false);

    for (size_t i = 0; i < r.n_jobs; i++) {
        stats->tus++;
        if (r.jobs[i].result.from_cache)
            stats->cached++;
        stats->prefixed += r.jobs[i].prefixed;
        stats->parsed_again += r.jobs[i].parsed_again;
        stats->bodiless += r.jobs[i].bodiless && !r.jobs[i].result.from_cache;
        stats->bodies_again += r.jobs[i].bodies_again;
        stats->macro_table_walks += r.jobs[i].macro_table_walks;
        if (o->tus_out)
            copy_record(sources, &r.jobs[i], i >= phase1, o->tus_out);
    }
    if (o->includes_out)
        collect_includes(&r, o->includes_out);
    el_tu_result **res = el_xcalloc(r.n_jobs + 1, sizeof *res);
    const char **mains = el_xcalloc(r.n_jobs + 1, sizeof *mains);
    bool *standalone = el_xcalloc(r.n_jobs + 1, sizeof *standalone);
    for (size_t i = 0; i < r.n_jobs; i++) {
        res[i] = &r.jobs[i].result;
        mains[i] = sources->v[r.jobs[i].src].path;
        standalone[i] = i >= phase1;
    }
    bool *elsewhere = el_tus_read_elsewhere(mains, res, standalone, r.n_jobs);
    size_t n_res = 0;
    for (size_t i = 0; i < r.n_jobs; i++)
        if (!elsewhere[i])
            res[n_res++] = &r.jobs[i].result;
    finish(o, sources, res, n_res, out);
    free(elsewhere);
    free(standalone);
    free(mains);
    free(res);

    for (size_t i = 0; i < r.n_jobs; i++) {
        el_args_free(r.jobs[i].args, r.jobs[i].n_args);
        el_result_free(&r.jobs[i].result);
    }
    stats->pchs = el_prefix_set_built(r.prefixes);
    el_prefix_set_free(r.prefixes);
    free(r.jobs);
    free(r.metas);
    free(r.wants);
    free(extra);
    el_cache_close(r.cache);
    el_include_memo_free(r.written);
    el_strmap_free(&r.noted);
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.cond);
}
