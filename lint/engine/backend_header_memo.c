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

static void free_memo(void *p)
{
    el_strmap_free(p);
    free(p);
}

static void make_key(void)
{
    have_key = pthread_key_create(&key, free_memo) == 0; /* else no memo */
}

static el_strmap *memo(void)
{
    pthread_once(&once, make_key);
    if (!have_key)
        return NULL;
    el_strmap *m = pthread_getspecific(key);
    if (!m) {
        m = el_xcalloc(1, sizeof *m);
        if (pthread_setspecific(key, m) != 0) {
            free(m);
            return NULL;
        }
    }
    return m;
}

static bool legacy_backend(const el_config *cfg, const char *spelled, const char *resolved)
{
    (void)spelled;
    return resolved && el_config_legacy_backend(cfg, resolved, NULL, 0);
}

/* The answer of ask(cfg, spelled, resolved), kept under the question's
 * kind (a letter) in this thread's memo. */
static bool answer(char kind, bool (*ask)(const el_config *, const char *, const char *),
                   const el_config *cfg, const char *spelled, const char *resolved)
{
    el_strmap *m = memo();
    if (!m)
        return ask(cfg, spelled, resolved);
    char fp[33];
    el_hash_hex(cfg->fingerprint, fp);
    const char *root = cfg->root ? cfg->root : "", *sp = spelled ? spelled : "";
    /* lengths first: no spelling or path can pose as another; '-' for
     * "not found" */
    char *k = el_xasprintf("%c%s %zu:%s %zu:%s %s%s", kind, fp, strlen(root), root, strlen(sp), sp,
                           resolved ? "+" : "-", resolved ? resolved : "");
    void *v = el_strmap_get(m, k);
    if (!v) {
        v = ask(cfg, spelled, resolved) ? YES : NO;
        el_strmap_put(m, k, v);
    }
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
