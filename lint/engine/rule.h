/* lint/engine/rule.h -- the rule API of emberlint.
 *
 * A rule is one file, lint/rules/<file>.c, that defines
 *
 *     const el_rule el_rule_<file> = { .id = "EH203", ... };
 *
 * The build finds it by directory (lint/rules/gen_registry.sh writes the
 * registry), so adding a rule is: that file, its entry in rules/rules.json
 * (name, severity, applies_to, summary, fix), its page docs/rules/EH203.md,
 * and fixtures in tests/lint/fixtures/EH203/.  Nothing else changes.
 *
 * How a rule runs.  emberlint parses each translation unit (TU) once with
 * libclang (CXTranslationUnit_DetailedPreprocessingRecord, so #include,
 * macro definitions and macro expansions are cursors too) and walks it
 * ONCE, depth first, handing every cursor to the rules that asked for its
 * kind.  Cursors located in external files (system headers, anything
 * outside the linted paths) are not walked at all.  For one TU, a rule
 * sees, in this order:
 *
 *     begin(ctx, state)                      once, before the walk
 *     on_file(ctx, state, file)              each linted file of the TU, the
 *                                            main file first, then headers
 *                                            in inclusion order
 *     on_cursor(ctx, state, c)               each cursor of a wanted kind,
 *       ... the cursor's children ...        in source order, parents first
 *     on_leave(ctx, state, c)                after the cursor's children
 *     end(ctx, state)                        once, after the walk
 *
 * When libclang cannot produce a TU at all, parse_failed(ctx, reason) is
 * called instead (EH000 reports it).  After every TU ran (or came from the
 * cache), project(p) is called once with the facts the rules recorded
 * (el_fact) and the list of linted files: that is how a rule looks at the
 * whole tree (EH105).  Project hooks are never cached; per-TU findings
 * and facts are, keyed on the TU's files, flags and configuration -- so a
 * per-TU hook must depend on nothing else (not on other files read from
 * disk, the environment or the time); such work belongs in project().
 *
 * Rules only describe what they find: el_report*().  The engine decides
 * the rest -- whether the rule runs at all (configuration, --select,
 * --ignore), whether the location is reported (the rule's applies_to in
 * rules/rules.json against the file's class: frontend / backend <name> /
 * core / external), its severity, suppression comments, de-duplication
 * of findings in headers (reported once, at the header), the cache and
 * the output format.  A finding in an external file or in a file class
 * the rule does not apply to is dropped silently, so rules may report
 * without checking; checking el_cursor_class() first only saves time.
 *
 * Threads.  TUs run in parallel (-j N); hooks of one TU run on one thread.
 * `state` is per TU (state_size zeroed bytes, freed after end()), so rules
 * need no locks as long as they keep no other mutable globals.  Hooks
 * must not keep CXCursor/CXFile values past end(): the TU is disposed.
 *
 * Helpers for looking at C through libclang (callee of a call through
 * macros and aliases, operator of a binary expression, locations, ...)
 * are in lint/engine/clang_util.h.
 */
#ifndef EL_RULE_H
#define EL_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"
#include <json-c/json.h>

#include "finding.h"

typedef struct el_ctx el_ctx;          /* one TU being linted */
typedef struct el_project el_project;  /* the whole run, for project hooks */
typedef struct el_config el_config;    /* a configuration (.emberlint.json) */

/* What a file is, from the configuration of the TU's main file. */
typedef enum el_file_class {
    EL_FILE_EXTERNAL = 0, /* system header or outside the linted paths */
    EL_FILE_FRONTEND,     /* everything linted that is not below */
    EL_FILE_BACKEND,      /* under a backend directory (backends/<name>/) */
    EL_FILE_CORE          /* a configured core path (libeh/src/): no frontend rules */
} el_file_class;

/* Ends the `kinds` list of a rule (no CXCursorKind has the value 0). */
#define EL_KINDS_END ((enum CXCursorKind)0)

typedef struct el_rule {
    /* The rule's ID, "EH203".  Must have an entry in rules/rules.json. */
    const char *id;
    /* Cursor kinds on_cursor/on_leave want, ended by EL_KINDS_END; NULL
     * means every kind (slower: prefer a list). */
    const enum CXCursorKind *kinds;
    /* Bytes of per-TU state, zeroed before begin(), freed after end(). */
    size_t state_size;

    /* Every hook is optional (NULL). */
    void (*begin)(el_ctx *ctx, void *state);
    /* A linted file of the TU (for whole-file work: preprocessor
     * conditionals with elc_each_directive, tables, comments). */
    void (*on_file)(el_ctx *ctx, void *state, CXFile file);
    void (*on_cursor)(el_ctx *ctx, void *state, CXCursor cursor);
    void (*on_leave)(el_ctx *ctx, void *state, CXCursor cursor);
    void (*end)(el_ctx *ctx, void *state);
    /* libclang produced no TU; reason is a short phrase. */
    void (*parse_failed)(el_ctx *ctx, const char *reason);
    /* Once per run, after all TUs, on the main thread. */
    void (*project)(el_project *p);
    /* Before the parse: will the rule ask elc_tu_whole of the file at
     * `path` (absolute, configured by cfg)?  The engine then parses it
     * without a shared prefix PCH at once instead of again. */
    bool (*reads_whole_tu)(const char *path, const el_config *cfg);
    /* The rule reads no function body, or sees to it itself: a backend or
     * core TU where every rule that applies (and every engine rule) says
     * so is parsed without its function bodies
     * (CXTranslationUnit_SkipFunctionBodies), which spares most of its
     * parse and walk.  A hook that finds it needs a body after all asks
     * elc_tu_has_bodies (el_skipped_body shows a skipped body's text), and
     * the engine lints the TU again with them.  So is a TU where a
     * function is defined in a file a rule without this flag applies to. */
    bool needs_no_bodies;
} el_rule;

/* ---- reporting (any hook but project) ------------------------------ */

/* Report a finding of the running rule at a cursor (its expansion
 * location: for code from a macro, where the macro is used).  The message
 * is printf-formatted, one line, no trailing period needed. */
void el_report(el_ctx *ctx, CXCursor at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Where the file writes what is at `at` (elc_written_location): a place
 * in a macro's argument as itself, so two expressions in one argument
 * (`WRAP(a / b + c / d)`, or one on a continuation line of the use) are
 * two findings, each on its line; a place in a macro's body at the
 * macro's use, as el_report_loc.  (For an operator, give
 * elc_operator_location: one written in a macro's body goes to that
 * macro's use even when its operands are the argument's.) */
void el_report_written(el_ctx *ctx, CXSourceLocation at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* At a source location (expansion location is used). */
void el_report_loc(el_ctx *ctx, CXSourceLocation at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* At an explicit place; path absolute (or as libclang names the file). */
void el_report_at(el_ctx *ctx, const char *path, unsigned line, unsigned col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- fixes ---------------------------------------------------------- */

/* A rule may attach a fix to the finding it reported last, in the same
 * hook call: el_fix_begin() right after el_report*(), then one or more
 * replacements.  The edits are byte ranges of the files as parsed; they
 * are applied together or not at all (emberlint --fix, ember-migrate).
 * false from el_fix_begin when the finding was dropped (class, selection)
 * -- then the replacements are ignored too.  A replacement whose range
 * is not plainly in one linted file (a macro expansion, a built-in
 * buffer, an external header) drops the whole fix and returns false: code
 * inside macro expansions is never edited. */
bool el_fix_begin(el_ctx *ctx, el_fix_safety safety, const char *description);
bool el_fix_replace(el_ctx *ctx, CXSourceRange range, const char *text);
/* By file and byte offsets (path absolute). */
bool el_fix_replace_at(el_ctx *ctx, const char *path, size_t begin, size_t end, const char *text);
/* [begin, end) of file f inside one argument of a macro's use, whose
 * text the macro's expansion holds as written (the caller has checked
 * that the macro puts it in once, as it is: lint/change/macro_argument.h);
 * the range must hold no macro expansion of its own.  (By offsets: a
 * location libclang makes for an offset in a macro argument is the
 * argument's expansion, not the file's.) */
bool el_fix_replace_in_argument(el_ctx *ctx, CXFile f, unsigned begin, unsigned end,
                                const char *text);

/* Record a fact for the project hooks: any key/value strings (copied).
 * Facts are cached with the TU's findings, so a project rule sees the
 * same facts whether or not the TU was re-parsed. */
void el_fact(el_ctx *ctx, const char *key, const char *value);

/* ---- the TU and its files ------------------------------------------ */

CXTranslationUnit el_tu(const el_ctx *ctx);      /* NULL in parse_failed */
const char *el_main_file(const el_ctx *ctx);     /* absolute path */
/* The main file is a header parsed on its own (no linted file includes it). */
bool el_main_is_header(const el_ctx *ctx);
/* The configuration of the TU's main file. */
const el_config *el_ctx_config(const el_ctx *ctx);

/* Class of a file of this TU; *backend (may be NULL) receives the backend
 * name for EL_FILE_BACKEND, else "".  The string lives as long as the TU. */
el_file_class el_file_class_of(el_ctx *ctx, CXFile file, const char **backend);
/* Class of the file a location / cursor is in (expansion location). */
el_file_class el_location_class(el_ctx *ctx, CXSourceLocation loc, const char **backend);
el_file_class el_cursor_class(el_ctx *ctx, CXCursor c, const char **backend);
/* Class a path would have under this TU's configuration, whether or not
 * it is linted (backend name copied into backend[n]). */
el_file_class el_classify_path(el_ctx *ctx, const char *path, char *backend, size_t n);
/* Some linted file of the run is backend code (part of every TU's cache
 * key: a TU may record facts for the project hooks only then). */
bool el_linted_backend_code(const el_ctx *ctx);
/* Every file the TU read, in inclusion order, the main file first; their
 * number is returned (from one clang_getInclusions per TU). */
size_t el_tu_files(const el_ctx *ctx, const CXFile **files);
/* The TU entered the file more than once (a template per element type,
 * one that includes itself), by the same clang_getInclusions. */
bool el_tu_entered_again(const el_ctx *ctx, CXFile file);
/* The real path of a file of the TU (cached per TU), or NULL. */
const char *el_file_path(el_ctx *ctx, CXFile file);
/* The text libclang parsed for a file of the TU (NULL if it has none),
 * its length in *size; read once per TU and file. */
const char *el_file_text(el_ctx *ctx, CXFile file, size_t *size);
/* True when the location is in a linted (non-external) file. */
bool el_is_linted(el_ctx *ctx, CXSourceLocation loc);
/* True when findings of the running rule at this location would be
 * reported (linted file of a class the rule applies to). */
bool el_applies_at(el_ctx *ctx, CXSourceLocation loc);
/* The same for cursor c's location; for the cursor being visited (an
 * on_cursor hook's), without asking libclang its location again. */
bool el_applies_to(el_ctx *ctx, CXCursor c);
/* "frontend", "backend", "core", "external". */
const char *el_file_class_name(el_file_class c);

/* ---- where the walk is (on_cursor / on_leave) ----------------------- */

/* Number of ancestors of the current cursor (0 for a top-level cursor). */
unsigned el_depth(const el_ctx *ctx);
/* The n-th ancestor: 0 the parent, 1 the grandparent...; a null cursor
 * (clang_Cursor_isNull) past the top. */
CXCursor el_ancestor(const el_ctx *ctx, unsigned n);
/* The nearest ancestor of kind `kind`; false when there is none. */
bool el_enclosing(const el_ctx *ctx, enum CXCursorKind kind, CXCursor *out);
/* The function definition the current cursor is in (in C++ also a member
 * function, constructor, destructor, conversion function or function
 * template: elc_is_function_kind); false outside one. */
bool el_enclosing_function(const el_ctx *ctx, CXCursor *out);
/* clang_isCursorDefinition(c), asked of libclang once for the cursor
 * being visited however many rules ask (~190 instructions a call); in a
 * TU parsed without function bodies, a function whose body was skipped
 * too (el_skipped_body). */
bool el_is_definition(el_ctx *ctx, CXCursor c);
/* In a TU the engine parsed without function bodies (el_rule's
 * needs_no_bodies): is fn a function definition whose body libclang
 * skipped?  Then its text, from `{` to `}`, in *text and *len (either may
 * be NULL): for a function a macro writes whole, the macro's use (read
 * its macros for what the body names).  Told by the text after the
 * declarator (directives and comments skipped): `{` is a body, anything
 * else a declaration; after a macro's use that writes the declarator,
 * what the macros write (elc_macros_write: a `{`, a body; a `;` outside
 * braces, a declaration).  Where it cannot tell (both, a brace that does
 * not close), the TU is linted again with its bodies (elc_tu_has_bodies). */
bool el_skipped_body(el_ctx *ctx, CXCursor fn, const char **text, size_t *len);

/* ---- configuration and knowledge ------------------------------------ */

/* Include `spelled` (as written: "eh/backend_api.h"), resolving to
 * `resolved` (absolute, or NULL when not found), is backend-private:
 * under a backend directory or matching backend_headers. */
bool el_config_is_backend_header(const el_config *cfg, const char *spelled, const char *resolved);
/* The backend_prefixes entry `symbol` starts with ("cblas_", "eh_blas_"
 * for the pattern eh_<backend>_ and the backend blas), or NULL.  The
 * backend names come from the configuration plus backends/ discovered in
 * the linted tree. */
const char *el_config_backend_prefix(const el_config *cfg, const char *symbol);
/* Is a backend_prefixes entry a pattern matched against the whole name
 * (it has `*`, `?` or `[`: "[sd]gemm_", Fortran BLAS's names) rather than
 * a prefix? */
bool el_prefix_is_pattern(const char *entry);
/* Does `symbol` match a backend_prefixes entry: the whole name against a
 * pattern, or the prefix with something after it? */
bool el_backend_prefix_matches(const char *entry, const char *symbol);
/* The backend whose eh_<backend>_ prefix (a backend_prefixes entry holding
 * "<backend>", expanded for every known backend) `name` starts with; the
 * whole prefix must match and something must follow it, so eh_blast_radius
 * is not backend blas's.  Copies the backend name into buf and returns it,
 * or NULL. */
const char *el_backend_of_symbol(const el_config *cfg, const char *name, char *buf, size_t n);
/* The backend_prefixes entry (expanded: "eh_blas_", "cblas_", ...) `name`
 * starts with, the whole prefix matched and something after it; NULL when
 * none.  With `upper`, a prefix also matches in upper case ("CBLAS_",
 * "FFTW", "EH_BLAS_"), as library macros are spelled. */
const char *el_backend_prefix_of(const el_config *cfg, const char *name, bool upper);
/* Is `name` a routine of a library's Fortran interface: does it match a
 * pattern entry of backend_prefixes (dgemm_, DGEMM_: "[sd]gemm_"), not
 * merely start with a library's prefix (cblas_, cuda_)? */
bool el_routine_name(const el_config *cfg, const char *name);
/* Is `name` such a routine under its C interface, a backend_prefixes
 * entry of the run (cblas_dgemm, cblas_zdotc_sub, LAPACKE_dgesv,
 * LAPACKE_dgesv_work: dgemm_, zdotc_, dgesv_ are routines), not merely a
 * name with that prefix (cblas_scale_rows)? */
bool el_routine_c_name(const el_config *cfg, const char *name);
/* Is `name` a routine's Fortran name (el_routine_name: dgemm_, DGEMM_,
 * and decorated, dgemm_64_, scipy_dgemm_)?  The bare routine, lower
 * case, into stem[n] (dgemm): the C interfaces name it (cblas_dgemm,
 * LAPACKE_dgesv). */
bool el_routine_stem(const el_config *cfg, const char *name, char *stem, size_t n);
/* The plain routine a library build's decorated name stands for, into
 * buf: a Fortran name's (dgelsd_64_, scipy_dgelsd_, MKL's dgelsd_64,
 * DGELSD_, dgelsd$NEWLAPACK: dgelsd_) or a C interface's (OpenBLAS's
 * ILP64 cblas_dgemm64_, MKL's cblas_dgemm_64, the wheels'
 * scipy_cblas_dgemm, Accelerate's cblas_dgemm$NEWLAPACK$ILP64:
 * cblas_dgemm).  false when the name is plain or no routine's. */
bool el_routine_plain(const el_config *cfg, const char *name, char *buf, size_t n);
/* Is `name` what an alias macro of a BLAS or LAPACK routine stands for:
 * the routine's Fortran name without its underscore (dgemm, or DGEMM as
 * upper-case mangling has it: dgemm_ and DGEMM_ match a routine pattern of
 * backend_prefixes)?  Not a backend name by itself: too many projects'
 * own functions look the same; EH102 takes it where a macro of the line
 * shows it for the routine (cvxopt's `#define dgemm_ dgemm`, SCS's
 * `BLAS(gemm)` pasting d##gemm). */
bool el_routine_alias_target(const el_config *cfg, const char *name);
/* Is `name` a routine's Fortran name as the other manglings of
 * configure-time macros give it (hypre's HYPRE_FMANGLE 3 and 5, autoconf's
 * FC_FUNC): dgemm__ (two underscores) or _dgemm_ (one before, one after),
 * or with an ILP64 suffix pasted onto the routine before the mangling
 * (SuiteSparse's BLAS64_SUFFIX=64, the Sun Performance Library's names:
 * dgemm64_, dgemm64; its BLAS64__SUFFIX=_64 where the build adds no
 * underscore: dgemm_64), where dgemm_ matches a routine pattern of
 * backend_prefixes?  The bare
 * routine (dgemm) into stem[n].  Not a backend name by itself: EH102 takes
 * it only where a mangling macro hands the routine's name in lower and
 * upper case (FC_FUNC(dgemm, DGEMM)). */
bool el_routine_mangled_stem(const el_config *cfg, const char *name, char *stem, size_t n);
/* Is `name` (dgemv) what a macro pasting a routine's precision letters
 * onto its argument makes of `arg` (gemv): arg is name but for one or two
 * of s, d, c, z and i before it (case aside: idamax of amax, DGEMV of
 * GEMV)?  Only the text: the caller asks el_routine_alias_target too. */
bool el_routine_pasted_from(const char *name, const char *arg);
/* Is function definition def a shim that hands its call on to the
 * library's build of the same routine under a decoration a project cannot
 * define itself (dgesv_ calling dgesv$NEWLAPACK or dgesv$NEWLAPACK$ILP64,
 * Accelerate's asm-label names: the callee's undecorated name is def's,
 * and it has a backend prefix; not dgetrf_ calling dgetrf_64_, which may
 * be the project's own ILP64 routine)?  Such a
 * definition does not make the name the project's own: its callers still
 * call the library. */
bool el_definition_forwards(const el_config *cfg, CXCursor def);
/* Is function definition def a shim onto the ILP64 build of the same
 * routine (dgetrf_ calling dgetrf_64_, DGETRF_ calling DGETRF_64_, or
 * MKL's dgetrf_64: the callee's name ends in _64_ or _64, its
 * undecorated name is def's, and it has a backend prefix; def's own name
 * does not end in either)?  Its calls are
 * that routine's and nothing else but the C library's allocation and
 * copy helpers (malloc, calloc, realloc, aligned_alloc, posix_memalign,
 * free, memcpy, memmove, memset), LAPACK's error hooks (xerbla_, lsame_,
 * in any case or decoration), functions that do not return (abort, exit,
 * _Exit, quick_exit, and what assert expands to: __assert_fail,
 * __assert_rtn, ..., so NDEBUG does not change the verdict) and
 * __builtin_*: a dispatcher that calls a kernel of its own for some calls
 * is the project's own code (one that computes small cases inline, with
 * no call, still looks like a shim: only calls are looked at).  *callee
 * receives the function called.  Whose def is depends on whose the callee is: the
 * library's when no file of the run defines it (EH102 settles that
 * across the run), the project's own when the project carries its ILP64
 * build itself. */
bool el_definition_forwards_ilp64(const el_config *cfg, CXCursor def, CXCursor *callee);
/* Is macro definition def the project's own: defined in a file of the
 * project that is neither a backend's, nor a vendor header, nor a system
 * header?  (EH102 looks through such a macro's body.) */
bool el_macro_is_own(const el_config *cfg, CXCursor def);
/* Does the body of macro definition def (a cursor of tu) name an
 * identifier with a backend prefix (el_backend_prefix_of, upper case too):
 * `#define FFTW_PLANNER_FLAGS FFTW_MEASURE`, `#define FFTW_NAME(n)
 * fftw_##n`?  A project's macro named like a library's is the project's
 * own unless it stands for such a name (the macros of a body are not
 * expansions libclang shows).  A macro of the project named in the body
 * is looked through, however deep (each definition once a walk; a cycle
 * names nothing), not judged by its name:
 * `#define FFTW_ALL (FFTW_INIT | FFTW_OTHER)` of two project bits names
 * none. */
bool el_macro_body_names_backend(const el_config *cfg, CXTranslationUnit tu, CXCursor def);
/* The same walk for macros only: the first library-prefixed macro the
 * body of def names, through the project's own macros, into out[n]
 * (`#define MY_PLAN_FLAGS FFTW_MEASURE`: FFTW_MEASURE).  Functions,
 * types and constants in a body are not asked: their uses are cursors. */
bool el_macro_body_backend_macro(const el_config *cfg, CXTranslationUnit tu, CXCursor def, char *out, size_t n);
/* The macro is a backend macro (backend_macros; * and ? work). */
bool el_config_is_backend_macro(const el_config *cfg, const char *name);
/* Known backend names (sorted). */
size_t el_config_backend_count(const el_config *cfg);
const char *el_config_backend_name(const el_config *cfg, size_t i);
/* A list key of the configuration ("backend_dirs", "core_paths",
 * "exclude", "backends", "backend_headers", "backend_prefixes",
 * "backend_macros"), or "backend_prefixes_expanded" (backend_prefixes
 * with <backend> replaced by every backend name), with n set; NULL for
 * another key. */
const char *const *el_config_strings(const el_config *cfg, const char *key, size_t *n);
/* backend_prefixes indexed (prefix_index.h): what backend_names.c matches
 * names against. */
typedef struct el_prefix_index el_prefix_index;
const el_prefix_index *el_config_prefix_index(const el_config *cfg);
/* The "options" object of a rule's configuration entry
 * ({"rules": {"EH203": {"options": {...}}}}), or NULL.  Read only. */
json_object *el_config_rule_options(const el_config *cfg, const char *rule_id);

/* The configuration's "replacements" entry for a symbol: a project's
 * entry, else the built-in one (rules/symbols.json: "cblas_sgemm" ->
 * "eh_matmul"), else eh_<backend>_<op> -> "eh_<op>" for every op of
 * libeh/ops.def.  NULL when there is none.  Whatever the TU; rules'
 * messages use el_replacement. */
const char *el_symbol_replacement(const el_config *cfg, const char *symbol, char *buf, size_t n);
/* The project's own "replacements" entry for a symbol (its
 * .emberlint.json files, a Fortran routine through the project's entry
 * for its C interface), never libeh's built-in ones; NULL when there is
 * none. */
const char *el_project_symbol_replacement(const el_config *cfg, const char *symbol, char *buf,
                                          size_t n);
/* This TU includes libeh's <eh/eh.h>.  libeh's defaults -- the built-in
 * replacements, the ops EH2xx suggest, <eh/eh.h> in EH101's fix -- are
 * used only then: a project without libeh never hears of them. */
bool el_uses_libeh(el_ctx *ctx);
/* What to suggest for a function (or, for EH201, an operator such as
 * "+") in this TU's messages: the project's "replacements" entry, else
 * (el_uses_libeh) libeh's; NULL when there is none. */
const char *el_replacement(el_ctx *ctx, const char *name, char *buf, size_t n);
/* The header frontend code includes instead of backend headers, as
 * written in #include <...>: the project's "frontend_include", else
 * (el_uses_libeh) "eh/eh.h"; NULL when this TU has none. */
const char *el_frontend_include(el_ctx *ctx);
/* The directory backend `name`'s code belongs in, from the first
 * backend_dirs pattern ("src/ggml-cuda/" for "src/ggml-<name>/"), into
 * buf; "a backend directory" when no pattern gives one. */
const char *el_backend_dir(el_ctx *ctx, const char *name, char *buf, size_t n);
/* The op set, from libeh/ops.def (compiled in). */
size_t el_op_count(void);
const char *el_op_name(size_t i);        /* "matmul" */
const char *el_op_kind(size_t i);        /* "LINALG" */
int el_op_inputs(size_t i);              /* n_in, -1 variable */
/* True when eh_<name> is an op ("matmul" or "eh_matmul"). */
bool el_is_op(const char *name);

/* ---- project hooks -------------------------------------------------- */

/* Linted files, sorted by path. */
size_t el_project_file_count(const el_project *p);
const char *el_project_file(const el_project *p, size_t i);     /* absolute */
el_file_class el_project_file_class(const el_project *p, size_t i, const char **backend);
/* The file (absolute) was named on the command line, not found by a walk. */
bool el_project_file_named(const el_project *p, const char *path);
/* The run parsed file i (itself or through a file that includes it): not
 * one it left out as not built (a source compile_commands.json does not
 * list, a header none of its files includes; unbuilt.h), whose
 * definitions no fact tells of. */
bool el_project_file_parsed(const el_project *p, size_t i);
const el_config *el_project_file_config(const el_project *p, size_t i);
/* Facts of all TUs, in file order then emission order. */
size_t el_project_fact_count(const el_project *p);
void el_project_fact(const el_project *p, size_t i, const char **file,
                     const char **key, const char **value);
/* EH102's record of a use of a function named with a library's prefix
 * (ddot_, cblas_sdot) that it takes as the project's own because a
 * linted non-backend file of the run defines the function (a bundled
 * copy of the library silences every call of it):
 * "name\tpath\tline\tcol\tdefpath\tdefline", the use as written and one
 * definition (one fact per definition when copies sit in several files;
 * for a shim onto the routine's ILP64 build, that build's).  A TU's fact
 * when it sees the definition, else the project hook's
 * (el_project_fact_add).  Made only where EH102 applies at the use. */
#define EL_FACT_OWN_USE "EH102.own-use"

/* The running project rule applies at path (a linted file, the rule
 * enabled there and applying to its class): a finding there would be
 * reported. */
bool el_project_applies(const el_project *p, const char *path);
/* Hand out a fact of the run's verdicts (what a rule decided with the
 * whole run in sight) to the engine's caller (el_engine_opts.facts_out),
 * after the TUs' facts; its file is "".  Project hooks do not see it. */
void el_project_fact_add(el_project *p, const char *key, const char *value);
/* Report a finding of the running project rule. */
void el_project_report(el_project *p, const char *path, unsigned line, unsigned col,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same, for a verdict on what fact `fact` (an index as for
 * el_project_fact) recorded: the finding is that fact's TU's, so that one
 * place several TUs build each its own way (a template compiled once per
 * precision, each time in a TU of its own) is one finding, as it is when
 * one TU includes it twice (el_findings_one_per_place_across). */
void el_project_report_for(el_project *p, size_t fact, const char *path, unsigned line,
                           unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
