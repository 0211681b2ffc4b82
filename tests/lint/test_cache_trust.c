/* tests/lint/test_cache_trust.c -- the cache never makes a run report less
 * than --no-cache would, and its entries are input:
 *
 *   - a header edited while its TU is parsed is not cached with the new
 *     content's hash and the old content's findings;
 *   - a new header that shadows another on the include path misses;
 *   - entries are validated: checksum and key (edited, truncated and
 *     swapped entries miss), regular files only (an entry or a dependency
 *     that is /dev/zero, a FIFO or a symbolic link never hangs or hits);
 *   - nothing is written through symbolic links planted in or as the
 *     cache directory (temporary files, CACHEDIR.TAG, .gitignore);
 *   - keys are relative to the repository: a moved tree hits.
 *
 * Tests that could hang set a generous alarm: a guard, not a timing. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lint_test.h"
#include "cache.h"
#include "config.h"
#include "engine.h"
#include "filehash.h"
#include "hash.h"
#include "knowledge.h"
#include "metadata.h"
#include "registry.h"
#include "path.h"
#include "rule.h"
#include "sources.h"

#define HANG_GUARD_SECONDS 120

static void tu_counts(const char *err, unsigned *tus, unsigned *cached)
{
    const char *p = strstr(err, " files, ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, " files, %u translation units (%u from the cache)", tus, cached), 2);
}

static tt_run lint_cached(void)
{
    return lt_lint(tt_dir, "-v", "--cache-dir", "cache", "--format", "json", "src", "--", "-Iinc", NULL);
}

static tt_run lint_uncached(void)
{
    return lt_lint(tt_dir, "--no-cache", "--format", "json", "src", "--", "-Iinc", NULL);
}

/* A cached run reports exactly what --no-cache does; its hit count. */
static unsigned same_as_uncached(void)
{
    tt_run c = lint_cached(), u = lint_uncached();
    if (strcmp(c.out, u.out) != 0 || c.status != u.status) {
        print_error("cached (status %d):\n%s\n--no-cache (status %d):\n%s\n", c.status, c.out,
                    u.status, u.out);
        fail();
    }
    unsigned tus, cached;
    tu_counts(c.err, &tus, &cached);
    tt_free(&c);
    tt_free(&u);
    return cached;
}

/* The names of the cache's entries (NULL-terminated, sorted). */
static char **entries(void)
{
    char *cdir = tt_path(tt_dir, "cache");
    DIR *d = opendir(cdir);
    assert_non_null(d);
    char **v = calloc(64, sizeof *v);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 63) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0 && e->d_name[0] != '.')
            v[n++] = strdup(e->d_name);
    }
    closedir(d);
    free(cdir);
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && strcmp(v[k - 1], v[k]) > 0; k--) {
            char *t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
    return v;
}

static void free_list(char **v)
{
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

static char *entry_path(const char *name)
{
    char *rel = tt_fmt("cache/%s", name);
    char *p = tt_path(tt_dir, rel);
    free(rel);
    return p;
}

/* ---- an edit during the parse ------------------------------------------------ */

static void set_mtime(const char *rel, time_t t)
{
    if (!t)
        return;
    char *p = tt_path(tt_dir, rel);
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
    free(p);
}

/* An extra rule that rewrites src/h.h once, after its TU was parsed and
 * before the result is stored: what an editor saving during a run does. */
static int edits_left;
static time_t edit_time; /* the edited header's modification time (0: now) */

static void edit_header(el_ctx *ctx, void *state)
{
    (void)ctx;
    (void)state;
    if (edits_left > 0) {
        edits_left--;
        tt_w("src/h.h", "#include <cblas.h>\n#define V 1\n");
        set_mtime("src/h.h", edit_time);
    }
}

static const el_rule editor = {.id = "(editor)", .begin = edit_header};

/* Lint `what` (under the scratch directory) in this process: the rule
 * `rule` (NULL: none) and the extra rule `extra`, with the cache in
 * cache/ or none, calling `between` (NULL: nothing) after the sources walk
 * and before the parse; *cached (may be NULL): the TUs the cache answered. */
static size_t lint_with(const char *what, const char *rule, const el_rule *extra, bool use_cache,
                        void (*between)(void), size_t *cached)
{
    char *err = NULL;
    el_configs *cfgs = el_configs_new(NULL, &err);
    assert_non_null(cfgs);
    el_filehash *hashes = el_filehash_new();
    el_sources srcs;
    memset(&srcs, 0, sizeof srcs);
    char *src = tt_path(tt_dir, what);
    char *paths[] = {src};
    assert_int_equal(el_sources_collect(paths, 1, cfgs, 1u << 20, hashes, &srcs), 0);
    el_configs_finalize(cfgs);
    if (between)
        between();
    size_t nm = el_meta_count();
    bool *selected = calloc(nm, sizeof *selected);
    for (size_t k = 0; rule && k < nm; k++)
        selected[k] = strcmp(el_meta_at(k)->id, rule) == 0;
    char *cache = use_cache ? tt_path(tt_dir, "cache") : NULL;
    const el_rule *extras[] = {extra, NULL};
    el_engine_opts o = {.jobs = 1, .selected = selected, .cache_dir = cache, .extra_rules = extras};
    el_engine_stats st = {0};
    el_findings out = {0};
    el_engine_run(&o, &srcs, hashes, &out, &st);
    if (cached)
        *cached = st.cached;
    size_t n = out.n;
    el_findings_free(&out);
    free(cache);
    free(selected);
    el_sources_free(&srcs);
    el_filehash_free(hashes);
    el_configs_free(cfgs);
    free(src);
    return n;
}

/* EH101 and the editor, with the cache. */
static size_t lint_path_in_process(const char *what, size_t *cached)
{
    return lint_with(what, "EH101", &editor, true, NULL, cached);
}

static size_t lint_in_process(void)
{
    return lint_path_in_process("src", NULL);
}

static void test_header_edited_while_linting(void **state)
{
    (void)state;
    tt_w("src/h.h", "#define V 1\n");
    tt_w("src/a.c", "#include \"h.h\"\nint a(void) { return V; }\n");
    edits_left = 1;
    assert_int_equal(lint_in_process(), 0); /* what was parsed: no finding */
    edits_left = 0;
    /* the header now includes a backend header: the stored entry must not
     * pass for it */
    assert_int_equal(lint_in_process(), 1);
}

/* A header older than the run, not among the linted files (hashed on
 * demand, after its TU's parse), edited during the parse and given
 * another old modification time (a checkout, rsync -t): its hash must
 * be of what libclang parsed, or the next run would take the old
 * content's entry for the new content's. */
static void test_old_header_edited_with_an_old_time(void **state)
{
    (void)state;
    time_t now = time(NULL);
    tt_w("src/h.h", "#define V 1\n");
    tt_w("src/a.c", "#include \"h.h\"\nint a(void) { return V; }\n");
    set_mtime("src/h.h", now - 7200);
    edits_left = 1;
    edit_time = now - 3600;
    size_t cached = 9;
    assert_int_equal(lint_path_in_process("src/a.c", &cached), 0);
    assert_int_equal(cached, 0);
    edits_left = 0;
    edit_time = 0;
    assert_int_equal(lint_path_in_process("src/a.c", &cached), 0);
    assert_int_equal(cached, 0); /* h.h is not what was parsed: no hit */
    assert_int_equal(lint_path_in_process("src/a.c", &cached), 0);
    assert_int_equal(cached, 1); /* (and an unchanged tree hits) */
}

/* The same, with a time too recent to tell a write during the run by
 * (here one in the future: a clock that differs): the run's hash, read
 * after the edit with the time libclang saw, must not stand for what
 * libclang parsed. */
static void test_recent_header_edited_in_the_same_second(void **state)
{
    (void)state;
    time_t future = time(NULL) + 3600;
    tt_w("src/h.h", "#define V 1\n");
    tt_w("src/a.c", "#include \"h.h\"\nint a(void) { return V; }\n");
    set_mtime("src/h.h", future);
    edits_left = 1;
    edit_time = future;
    size_t cached = 9;
    assert_int_equal(lint_path_in_process("src/a.c", &cached), 0);
    edits_left = 0;
    edit_time = 0;
    assert_int_equal(lint_path_in_process("src/a.c", &cached), 0);
    assert_int_equal(cached, 0); /* h.h is not what was parsed: no hit */
}

/* ---- the headers' text the run read before the parse ------------------------ */

/* A probe that copies the text el_file_text gives for h.h. */
static char probed[256];

static void probe_text(el_ctx *ctx, void *state, CXFile file)
{
    (void)state;
    const char *path = el_file_path(ctx, file);
    size_t l = path ? strlen(path) : 0;
    if (l < 4 || strcmp(path + l - 4, "/h.h") != 0)
        return;
    size_t size = 0;
    const char *text = el_file_text(ctx, file, &size);
    assert_non_null(text);
    assert_true(size < sizeof probed);
    memcpy(probed, text, size);
    probed[size] = '\0';
}

static const el_rule text_probe = {.id = "(text probe)", .on_file = probe_text};

/* The rewrite text_after_rewrite makes between the sources walk and the
 * parse: src/h.h gets `new_text` (NULL: none) and time new_time (0: now),
 * in place or through a new file renamed over it (an editor, git). */
static const char *new_text;
static time_t new_time;
static bool by_rename;

static void rewrite_header(void)
{
    if (!new_text)
        return;
    const char *rel = by_rename ? "src/h.h.new" : "src/h.h";
    tt_w(rel, new_text);
    set_mtime(rel, new_time);
    if (by_rename) {
        char *from = tt_path(tt_dir, rel), *to = tt_path(tt_dir, "src/h.h");
        assert_int_equal(rename(from, to), 0);
        free(from);
        free(to);
    }
}

/* What el_file_text gave for h.h after that rewrite. */
static const char *text_after_rewrite(const char *text, time_t t, bool rename_it)
{
    new_text = text;
    new_time = t;
    by_rename = rename_it;
    probed[0] = '\0';
    lint_with("src", NULL, &text_probe, false, rewrite_header, NULL);
    return probed;
}

/* The rules read a header's text as libclang parsed it, whether the run
 * reuses its own read of it or not: a header rewritten between the two
 * reads is told by its modification time, its inode (replaced with the
 * same time), or by a time too recent to tell (here in the future). */
static void test_header_text_is_the_parsed_one(void **state)
{
    (void)state;
    time_t now = time(NULL);
    tt_w("src/a.c", "#include \"h.h\"\nint a(void) { return V; }\n");
    tt_w("src/h.h", "#define V 1\n");
    set_mtime("src/h.h", now - 7200);
    assert_string_equal(text_after_rewrite(NULL, 0, false), "#define V 1\n");
    assert_string_equal(text_after_rewrite("#define V 22\n", now - 3600, false), "#define V 22\n");
    set_mtime("src/h.h", now - 7200);
    assert_string_equal(text_after_rewrite("#define V 4444\n", now - 7200, true),
                        "#define V 4444\n");
    tt_w("src/h.h", "#define V 1\n");
    set_mtime("src/h.h", now + 3600);
    assert_string_equal(text_after_rewrite("#define V 333\n", now + 3600, false),
                        "#define V 333\n");
}

/* ---- shadowing -------------------------------------------------------------------- */

static void test_new_header_shadows(void **state)
{
    (void)state;
    tt_w("inc/x.h", "#define X 1\n");
    tt_w("inc2/y.h", "#define Y 1\n");
    tt_w("src/a.c", "#include \"x.h\"\n#include <y.h>\nint a(void) { return X + Y; }\n");
    tt_run r = lt_lint(tt_dir, "-v", "--cache-dir", "cache", "src", "--", "-Iinc", "-Iinc1",
                       "-Iinc2", NULL);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    r = lt_lint(tt_dir, "-v", "--cache-dir", "cache", "src", "--", "-Iinc", "-Iinc1", "-Iinc2", NULL);
    unsigned tus, cached;
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 1);
    tt_free(&r);

    /* a new x.h next to a.c is found before inc/x.h */
    tt_w("src/x.h", "#include <cblas.h>\n#define X 2\n");
    r = lt_lint(tt_dir, "-v", "--cache-dir", "cache", "src", "--", "-Iinc", "-Iinc1", "-Iinc2", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    assert_int_equal(r.status, 1);
    assert_true(tt_contains(r.out, "src/x.h:1:1:"));
    tt_free(&r);

    /* a new inc1/y.h is found before inc2/y.h */
    tt_w("inc1/y.h", "#error shadowed\n");
    r = lt_lint(tt_dir, "-v", "--cache-dir", "cache", "src", "--", "-Iinc", "-Iinc1", "-Iinc2", NULL);
    tu_counts(r.err, &tus, &cached);
    assert_int_equal(cached, 0);
    assert_true(tt_contains(r.out, "EH000"));
    tt_free(&r);
}

/* ---- entries are input ------------------------------------------------------------- */

static void make_two_files(void)
{
    tt_w("src/a.c", "#include <cblas.h>\nint a(void) { return 0; }\n");
    tt_w("src/b.c", "int b(void) { return 0; }\n");
    assert_int_equal(same_as_uncached(), 0);
    assert_int_equal(same_as_uncached(), 2);
}

static void test_edited_truncated_swapped_entries_miss(void **state)
{
    (void)state;
    make_two_files();
    char **e = entries();
    assert_non_null(e[0]);
    assert_non_null(e[1]);
    char *p0 = entry_path(e[0]), *p1 = entry_path(e[1]);
    size_t l0 = 0, l1 = 0;
    char *t0 = tt_read(p0, &l0), *t1 = tt_read(p1, &l1);

    /* findings removed by hand (a.c's entry is the one with a finding) */
    char *with = strstr(t0, "EH101") ? p0 : p1;
    const char *text = with == p0 ? t0 : t1;
    char *edited = strdup(text);
    char *f = strstr(edited, "\"findings\":[");
    assert_non_null(f);
    char *end = strstr(f, "],\"facts\"");
    assert_non_null(end);
    memmove(f + strlen("\"findings\":["), end, strlen(end) + 1);
    free(tt_write_n("/", with + 1, edited, strlen(edited)));
    assert_int_equal(same_as_uncached(), 1);
    assert_int_equal(same_as_uncached(), 2); /* rewritten */
    free(edited);

    /* truncated */
    free(tt_write_n("/", p0 + 1, t0, l0 / 2));
    assert_int_equal(same_as_uncached(), 1);

    /* swapped: each entry under the other's name */
    free(tt_write_n("/", p0 + 1, t1, l1));
    free(tt_write_n("/", p1 + 1, t0, l0));
    assert_int_equal(same_as_uncached(), 0);
    assert_int_equal(same_as_uncached(), 2);
    free(t0);
    free(t1);
    free(p0);
    free(p1);
    free_list(e);
}

/* A valid entry (right checksum and key) naming `dep` as a dependency:
 * what someone who can write the cache directory can plant. */
static void plant_dependency(const char *entry_file, const char *dep)
{
    size_t len = 0;
    char *old = tt_read(entry_file, &len);
    const char *body = strchr(old, '\n') + 1;
    const char *k = strstr(body, "\"key\":\"") + 7;
    char key[33];
    memcpy(key, k, 32);
    key[32] = '\0';
    const char *deps = strstr(body, "\"deps\":[") + 8;
    char *nbody = tt_fmt("%.*s[\"%s\",\"0123456789abcdef0123456789abcdef\"],%s",
                         (int)(deps - body), body, dep, deps);
    el_hasher h;
    el_hash_init(&h);
    el_hash_str(&h, key);
    el_hash_update(&h, nbody, strlen(nbody));
    char sum[33];
    el_hash_hex(el_hash_final(&h), sum);
    char *text = tt_fmt("emberlint-cache 2 %s\n%s", sum, nbody);
    free(tt_write_n("/", entry_file + 1, text, strlen(text)));
    free(text);
    free(nbody);
    free(old);
}

static void test_hostile_entries_never_hang(void **state)
{
    (void)state;
    make_two_files();
    char **e = entries();
    char *p0 = entry_path(e[0]), *p1 = entry_path(e[1]);
    alarm(HANG_GUARD_SECONDS);
    /* a dependency that never ends, and one that blocks */
    plant_dependency(p0, "/dev/zero");
    char *fifo = tt_path(tt_dir, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    plant_dependency(p1, fifo);
    assert_int_equal(same_as_uncached(), 0);
    assert_int_equal(same_as_uncached(), 2);

    /* the entry itself: a FIFO, a symbolic link to /dev/zero */
    unlink(p0);
    assert_int_equal(mkfifo(p0, 0600), 0);
    unlink(p1);
    assert_int_equal(symlink("/dev/zero", p1), 0);
    assert_int_equal(same_as_uncached(), 0);
    assert_int_equal(same_as_uncached(), 2);
    alarm(0);
    free(fifo);
    free(p0);
    free(p1);
    free_list(e);
}

/* ---- planted symbolic links ----------------------------------------------------------- */

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void test_planted_symlinks_are_not_followed(void **state)
{
    (void)state;
    tt_w("src/a.c", "int a(void) { return 0; }\n");
    char *outside = tt_path(tt_dir, "outside");
    assert_int_equal(mkdir(outside, 0755), 0);
    char *cache = tt_path(tt_dir, "cache");
    assert_int_equal(mkdir(cache, 0755), 0);
    char *tag = tt_path(tt_dir, "cache/CACHEDIR.TAG"), *ign = tt_path(tt_dir, "cache/.gitignore");
    char *tag_target = tt_path(tt_dir, "outside/tag"), *ign_target = tt_path(tt_dir, "outside/ign");
    assert_int_equal(symlink(tag_target, tag), 0);
    assert_int_equal(symlink(ign_target, ign), 0);
    tt_run r = lint_cached();
    assert_int_equal(r.status, 0);
    tt_free(&r);
    assert_false(exists(tag_target));
    assert_false(exists(ign_target));

    /* the cache directory itself a symbolic link: not used */
    char *link = tt_path(tt_dir, "linkcache");
    assert_int_equal(symlink(outside, link), 0);
    r = lt_lint(tt_dir, "--cache-dir", "linkcache", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "linkcache: cannot use as the cache directory: it is a "
                                   "symbolic link"));
    tt_free(&r);
    DIR *d = opendir(outside);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        n += de->d_name[0] != '.' || strlen(de->d_name) > 2;
    closedir(d);
    assert_int_equal(n, 0);
    free(link);
    free(tag);
    free(ign);
    free(tag_target);
    free(ign_target);
    free(cache);
    free(outside);
}

/* A run on a tree elsewhere writes no cache (neither in the current
 * directory, outside the tree, nor in the tree); --cache-dir still works. */
static void test_no_default_cache_outside_the_current_directory(void **state)
{
    (void)state;
    tt_w("tree/src/a.c", "int a(void) { return 0; }\n");
    char *here = tt_path(tt_dir, "here");
    assert_int_equal(mkdir(here, 0755), 0);
    tt_run r = lt_lint(here, "-v", "../tree/src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.err, "emberlint: note: no cache: a path is outside the current "
                                   "directory"));
    tt_free(&r);
    char *c1 = tt_path(tt_dir, "here/.emberlint-cache"), *c2 = tt_path(tt_dir, "tree/.emberlint-cache"),
         *c3 = tt_path(tt_dir, "tree/src/.emberlint-cache");
    assert_false(exists(c1));
    assert_false(exists(c2));
    assert_false(exists(c3));
    r = lt_lint(here, "-v", "--cache-dir", "mine", "../tree/src", NULL);
    assert_false(tt_contains(r.err, "no cache"));
    tt_free(&r);
    char *mine = tt_path(tt_dir, "here/mine/CACHEDIR.TAG");
    assert_true(exists(mine));
    free(mine);
    free(c1);
    free(c2);
    free(c3);
    free(here);
}

/* The temporary file of a store: with a predictable name, a symbolic
 * link planted there had its target overwritten. */
static void test_temporary_files_are_new_files(void **state)
{
    (void)state;
    char *cdir = tt_path(tt_dir, "cache");
    char *err = NULL;
    el_cache *c = el_cache_open(cdir, tt_dir, &err);
    assert_non_null(c);
    char *victim = tt_write(tt_dir, "victim", "precious\n");
    el_hash128 key = {0x1234, 0x5678};
    char hex[33];
    el_hash_hex(key, hex);
    for (unsigned serial = 0; serial < 4; serial++) { /* the old names */
        char *name = tt_fmt("cache/%s.json.%ld.%u.tmp", hex, (long)getpid(), serial);
        char *p = tt_path(tt_dir, name);
        assert_int_equal(symlink(victim, p), 0);
        free(p);
        free(name);
    }
    el_tu_result r;
    memset(&r, 0, sizeof r);
    char *a = tt_write(tt_dir, "src/a.c", "int a;\n");
    el_result_add_dep(&r, a, key);
    el_cache_store(c, key, &r);
    el_result_free(&r);
    el_cache_close(c);
    tt_assert_file(tt_dir, "victim", "precious\n");
    char *entry = tt_fmt("cache/%s.json", hex);
    assert_true(tt_file_contains(tt_dir, entry, "emberlint-cache 2 "));
    free(entry);
    free(a);
    free(victim);
    free(cdir);
}

/* Messages may show paths relative to the current directory (EH000 in an
 * included file): a run from elsewhere in the tree does not reuse them. */
static void test_other_current_directory(void **state)
{
    (void)state;
    tt_w("inc/bad.h", "int broken(void) { return 1 +; }\n");
    tt_w("src/a.c", "#include <bad.h>\nint a(void) { return 0; }\n");
    tt_w(".emberlint.json", "{}\n"); /* one configuration, wherever the run starts */
    tt_w(".git/HEAD", "ref: refs/heads/main\n"); /* one repository root too */
    char *src = tt_path(tt_dir, "src"), *cache = tt_path(tt_dir, "cache");
    char *inc = tt_fmt("-I%s/inc", tt_dir); /* the same arguments from both */
    tt_run top = lt_lint(tt_dir, "--cache-dir", cache, "--format", "json", src, "--", inc, NULL);
    assert_true(tt_contains(top.out, "in included file 'inc/bad.h'"));
    tt_run sub = lt_lint(src, "--cache-dir", cache, "--format", "json", src, "--", inc, NULL);
    tt_run fresh = lt_lint(src, "--no-cache", "--format", "json", src, "--", inc, NULL);
    assert_string_equal(sub.out, fresh.out);
    assert_true(tt_contains(sub.out, "in included file '../inc/bad.h'"));
    tt_free(&top);
    tt_free(&sub);
    tt_free(&fresh);
    free(inc);
    free(cache);
    free(src);
}

/* Stored text stands for the root with a placeholder; found by
 * tests/fuzz/fuzz_cli.c: a source holding the placeholder itself (in a
 * missing header's name, so in EH000's message) came back from the cache
 * with the root's path in its place. */
static void test_text_holding_the_placeholder(void **state)
{
    (void)state;
    char *code = tt_fmt("#include \"no_such\x1b{root}x.h\"\n"
                        "#include \"%s/also\x1b\x1b\x1bmissing.h\"\n"
                        "int a(void) { return 0; }\n",
                        tt_dir);
    tt_w("src/a.c", code);
    free(code);
    tt_run fresh = lint_uncached();
    assert_true(tt_contains(fresh.out, "no_such {root}x.h")); /* ESC shown as a space */
    assert_int_equal(same_as_uncached(), 0);
    assert_int_equal(same_as_uncached(), 1);
    tt_free(&fresh);
}

/* ---- a moved tree -------------------------------------------------------------------------- */

static void test_moved_tree_hits(void **state)
{
    (void)state;
    tt_w("a/src/m.c", "#include \"m.h\"\n#include <cblas.h>\nint m(void) { return M; }\n");
    tt_w("a/src/m.h", "#define M 1\n");
    tt_w("a/inc/n.h", "#define N 1\n");
    tt_w("a/src/n.c", "#include <n.h>\nint n(void) { return N; }\n");
    tt_w("a/.git/HEAD", "ref: refs/heads/main\n");
    tt_w("a/.emberlint.json", "{\"exclude\": [\"generated/\"]}\n");
    char *a = tt_path(tt_dir, "a"), *b = tt_path(tt_dir, "b");
    char *ia = tt_fmt("-I%s/inc", a), *ib = tt_fmt("-I%s/inc", b);
    tt_run cold = lt_lint(a, "-v", "--format", "json", "src", "--", ia, NULL);
    unsigned tus, cached;
    tu_counts(cold.err, &tus, &cached);
    assert_int_equal(tus, 2);
    assert_int_equal(cached, 0);
    assert_int_equal(rename(a, b), 0);
    /* from the new checkout (paths are relative to the repository,
     * .git's directory) */
    tt_run warm = lt_lint(b, "-v", "--format", "json", "src", "--", ib, NULL);
    tu_counts(warm.err, &tus, &cached);
    assert_int_equal(cached, 2);
    assert_string_equal(warm.out, cold.out);
    tt_free(&cold);
    tt_free(&warm);
    free(ia);
    free(ib);
    free(a);
    free(b);
}

/* What a CI cache does: a tree linted in one checkout, its cache (kept
 * outside the tree) saved, then both restored elsewhere as plain copies
 * (new modification times), the original still in place.  Every TU hits,
 * the SARIF (fixes included) is the original's with the new root, and an
 * edit in the copy misses only where it should. */
static void test_copied_tree_and_cache_hit(void **state)
{
    (void)state;
    tt_w("x/a/src/m.c", "#include \"m.h\"\n#include <cblas.h>\nint m(void) { return M; }\n");
    tt_w("x/a/src/m.h", "#define M 1\n");
    tt_w("x/a/inc/n.h", "#define N 1\n");
    tt_w("x/a/src/n.c", "#include <n.h>\n#include <cblas.h>\nint n(void) { return N; }\n");
    tt_w("x/a/src/o.c", "#include <cblas.h>\nint o(void) { return 0; }\n");
    tt_w("x/a/.git/HEAD", "ref: refs/heads/main\n");
    char *a = tt_path(tt_dir, "x/a"), *b = tt_path(tt_dir, "y/b");
    char *ca = tt_path(tt_dir, "cache-a"), *cb = tt_path(tt_dir, "cache-b");
    char *ia = tt_fmt("-I%s/inc", a), *ib = tt_fmt("-I%s/inc", b);
    tt_run cold = lt_lint(a, "-v", "--cache-dir", ca, "--format", "sarif", "src", "--", ia, NULL);
    unsigned tus, cached;
    tu_counts(cold.err, &tus, &cached);
    assert_int_equal(tus, 3);
    assert_int_equal(cached, 0);
    assert_true(tt_contains(cold.out, "\"fixes\""));
    char *y = tt_path(tt_dir, "y");
    assert_int_equal(mkdir(y, 0755), 0);
    free(y);
    tt_copytree(a, b);
    tt_copytree(ca, cb);
    tt_run warm = lt_lint(b, "-v", "--cache-dir", cb, "--format", "sarif", "src", "--", ib, NULL);
    tu_counts(warm.err, &tus, &cached);
    assert_int_equal(tus, 3);
    assert_int_equal(cached, 3);
    char *want = tt_replace_all(cold.out, a, b);
    assert_string_equal(warm.out, want);
    /* the copy's own header, edited: its TU misses, the others hit */
    tt_w("y/b/inc/n.h", "#define N 2\n");
    tt_run edited = lt_lint(b, "-v", "--cache-dir", cb, "--format", "sarif", "src", "--", ib, NULL);
    tu_counts(edited.err, &tus, &cached);
    assert_int_equal(cached, 2);
    free(want);
    tt_free(&cold);
    tt_free(&warm);
    tt_free(&edited);
    free(ia);
    free(ib);
    free(ca);
    free(cb);
    free(a);
    free(b);
}

int main(void)
{
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "test_cache_trust: %s\n", err);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        tt_scratch_test(test_header_edited_while_linting),
        tt_scratch_test(test_old_header_edited_with_an_old_time),
        tt_scratch_test(test_recent_header_edited_in_the_same_second),
        tt_scratch_test(test_header_text_is_the_parsed_one),
        tt_scratch_test(test_new_header_shadows),
        tt_scratch_test(test_edited_truncated_swapped_entries_miss),
        tt_scratch_test(test_hostile_entries_never_hang),
        tt_scratch_test(test_planted_symlinks_are_not_followed),
        tt_scratch_test(test_temporary_files_are_new_files),
        tt_scratch_test(test_no_default_cache_outside_the_current_directory),
        tt_scratch_test(test_other_current_directory),
        tt_scratch_test(test_text_holding_the_placeholder),
        tt_scratch_test(test_moved_tree_hits),
        tt_scratch_test(test_copied_tree_and_cache_hit),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    el_knowledge_free();
    el_meta_free();
    return rc;
}
