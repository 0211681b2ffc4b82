/* tests/fuzz/fuzz_config.c -- the configuration reader on any bytes.
 *
 * The input is written as a .emberlint.json and read both ways emberlint
 * reads one (--config FILE, and discovered above a file); a file that
 * reads is then asked every question the rules ask (classes, excludes,
 * backend headers, prefixes and macros, rewrites) about fixed paths and
 * names, which runs its path patterns.  A malformed file must give an
 * error message with a position, never a crash, a hang or a leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fuzz_util.h"
#include "knowledge.h"
#include "metadata.h"
#include "registry.h"
#include "path.h"
#include "rule.h"

static char *dir, *cfg_path;

static const char *const paths[] = {
    "a.c", "src/x.c", "backends/blas/gemm.c", "vendor/x/backends/ref/k.c", "ops/torch/t.c",
    "libeh/src/ops.c", "third_party/a/b/c/d/e/f.c", "build/gen.c", "a/b/c/d/e/f/g/h/i/j/k/l.c",
};
static const char *const names[] = {"cblas_sgemm", "eh_blas_add", "EH_HAVE_BLAS", "cuda_malloc",
                                    "my_fn", "fftwf_plan", "LAPACKE_sgesv", ""};

static void ask(el_configs *s)
{
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char *abs = el_path_join(dir, paths[i]);
        char *err = NULL;
        const el_config *c = el_configs_for(s, abs, &err);
        free(err);
        if (c) {
            char be[64];
            el_config_classify(c, abs, be, sizeof be);
            el_config_excluded(c, abs);
            el_config_legacy_backend(c, abs, be, sizeof be);
            el_config_is_backend_header(c, paths[i], abs);
            for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
                char buf[64];
                el_config_backend_prefix(c, names[k]);
                el_backend_of_symbol(c, names[k], buf, sizeof buf);
                el_config_is_backend_macro(c, names[k]);
                el_config_rewrite_for(c, names[k]);
            }
        }
        free(abs);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    el_path_init();
    char *err = NULL;
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "fuzz_config: %s\n", err);
        abort();
    }
    dir = fuzz_tmpdir();
    cfg_path = el_path_join(dir, ".emberlint.json");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir)
        LLVMFuzzerInitialize(NULL, NULL);
    fuzz_write(cfg_path, data, size);
    for (int forced = 0; forced < 2; forced++) {
        char *err = NULL;
        el_configs *s = el_configs_new(forced ? cfg_path : NULL, &err);
        free(err);
        if (!s)
            continue;
        ask(s);
        el_configs_finalize(s);
        ask(s);
        el_configs_free(s);
    }
    return 0;
}
