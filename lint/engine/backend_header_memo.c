/* lint/engine/backend_header_memo.c -- el_config_is_backend_header and
 * el_config_legacy_backend, once a thread per question
 * (backend_header_memo.h). */
#include "backend_header_memo.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "mem.h"
#include "rule.h"
#include "strmap.h"

#define YES ((void *)2)
#define NO ((void *)1)

static pthread_key_t key;
static bool have_key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* A thread's memo: one map per configuration (its fingerprint and root),
 * so that a question's key is its spelling and file alone, written
 * without formatting (el_xasprintf of the whole key was 6 000
 * instructions a question). */
typedef struct cfg_memo {
    el_hash128 fingerprint;
    char *root;
    el_strmap answers;
} cfg_memo;

typedef struct thread_memo {
    cfg_memo *v;
    size_t n, cap;
} thread_memo;

static void free_memo(void *p)
{
    thread_memo *t = p;
    for (size_t i = 0; i < t->n; i++) {
        el_strmap_free(&t->v[i].answers);
        free(t->v[i].root);
    }
    free(t->v);
    free(t);
}

static void make_key(void)
{
    have_key = pthread_key_create(&key, free_memo) == 0; /* else no memo */
}

static el_strmap *memo(const el_config *cfg)
{
    pthread_once(&once, make_key);
    if (!have_key)
        return NULL;
    thread_memo *t = pthread_getspecific(key);
    if (!t) {
        t = el_xcalloc(1, sizeof *t);
        if (pthread_setspecific(key, t) != 0) {
            free(t);
            return NULL;
        }
    }
    const char *root = cfg->root ? cfg->root : "";
    for (size_t i = 0; i < t->n; i++)
        if (el_hash_eq(t->v[i].fingerprint, cfg->fingerprint) && strcmp(t->v[i].root, root) == 0)
            return &t->v[i].answers;
    el_grow(&t->v, &t->cap, t->n + 1, sizeof *t->v);
    cfg_memo *m = &t->v[t->n++];
    memset(m, 0, sizeof *m);
    m->fingerprint = cfg->fingerprint;
    m->root = el_xstrdup(root);
    return &m->answers;
}

static bool legacy_backend(const el_config *cfg, const char *spelled, const char *resolved)
{
    (void)spelled;
    return resolved && el_config_legacy_backend(cfg, resolved, NULL, 0);
}

/* Appends the n bytes of s to the key at k (cap bytes at most; false
 * when it does not fit). */
static bool put(char *k, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len + n >= cap)
        return false;
    memcpy(k + *len, s, n);
    *len += n;
    return true;
}

/* The answer of ask(cfg, spelled, resolved), kept under the question's
 * kind (a letter) in this thread's memo of cfg. */
static bool answer(char kind, bool (*ask)(const el_config *, const char *, const char *),
                   const el_config *cfg, const char *spelled, const char *resolved)
{
    el_strmap *m = memo(cfg);
    if (!m)
        return ask(cfg, spelled, resolved);
    const char *sp = spelled ? spelled : "", *res = resolved ? resolved : "";
    size_t spn = strlen(sp), resn = strlen(res);
    /* "<kind><length of the spelling>:<spelling> <+resolved or ->": the
     * length first, so no spelling or path can pose as another; '-' for
     * "not found" */
    char num[24], small[1024];
    size_t numn = 0;
    for (size_t v = spn;; v /= 10) {
        num[sizeof num - 1 - numn++] = (char)('0' + v % 10);
        if (v < 10)
            break;
    }
    size_t need = 1 + numn + 1 + spn + 2 + resn + 1;
    char *k = need <= sizeof small ? small : el_xmalloc(need);
    size_t len = 0;
    k[len++] = kind;
    put(k, need, &len, num + sizeof num - numn, numn);
    k[len++] = ':';
    put(k, need, &len, sp, spn);
    k[len++] = ' ';
    k[len++] = resolved ? '+' : '-';
    put(k, need, &len, res, resn);
    k[len] = '\0';
    void *v = el_strmap_get(m, k);
    if (!v) {
        v = ask(cfg, spelled, resolved) ? YES : NO;
        el_strmap_put(m, k, v);
    }
    if (k != small)
        free(k);
    return v == YES;
}

bool el_backend_header_memo(const el_config *cfg, const char *spelled, const char *resolved)
{
    return answer('H', el_config_is_backend_header, cfg, spelled, resolved);
}

bool el_legacy_backend_memo(const el_config *cfg, const char *resolved)
{
    return answer('L', legacy_backend, cfg, NULL, resolved);
}

static bool own_macro_file(const el_config *cfg, const char *spelled, const char *resolved)
{
    (void)spelled;
    char be[64];
    return resolved && el_config_in_project(cfg, resolved) &&
           !el_config_is_vendor_header(cfg, resolved) &&
           el_config_classify(cfg, resolved, be, sizeof be) != EL_FILE_BACKEND;
}

bool el_own_macro_file_memo(const el_config *cfg, const char *resolved)
{
    return answer('M', own_macro_file, cfg, NULL, resolved);
}
