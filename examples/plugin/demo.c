/* examples/plugin/demo.c -- an application that loads an out-of-tree
 * backend and runs the same code on it and on ref.
 *
 *   plugin-demo PATH/libeh-blis.so
 *
 * Frontend code: it includes <eh/eh.h> only and never names a backend's
 * functions; the plugin is a file it loads, and "blis" a name it selects.
 * (EH_BACKEND_PATH=PATH/libeh-blis.so EH_BACKEND=blis selects it without
 * any code.)  The program must export libeh's symbols to the plugin: it is
 * linked with libeh.a and -rdynamic (or with libeh.so). */
#include <math.h>
#include <stdio.h>
#include <eh/eh.h>

/* y = relu(x @ w + 1), summed: the same expression on every backend. */
static double forward(const eh_tensor *x, const eh_tensor *w)
{
    eh_scope_begin();
    eh_tensor *y = eh_sum(eh_relu(eh_add_scalar(eh_matmul(x, w), 1.0)), NULL, 0, 0);
    double s = y ? eh_item(y) : 0.0;
    eh_scope_end();
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: plugin-demo PATH/libeh-blis.so\n");
        return 2;
    }
    if (eh_backend_load(argv[1]) != EH_OK) {
        fprintf(stderr, "plugin-demo: %s\n", eh_error_message());
        return 2;
    }
    const char *names[16];
    int n = eh_list_backends(names, 16);
    printf("backends:");
    for (int k = 0; k < n && k < 16; k++)
        printf(" %s", names[k]);
    printf("\n");

    eh_seed(7);
    eh_tensor *x = eh_random_normal(2, (const int64_t[]){64, 128}, 0.0, 1.0, EH_F64);
    eh_tensor *w = eh_random_normal(2, (const int64_t[]){128, 32}, 0.0, 0.1, EH_F64);
    double on_ref = 0.0, on_blis = 0.0;
    if (eh_set_backend("ref") == EH_OK)
        on_ref = forward(x, w);
    if (eh_set_backend("blis") == EH_OK)
        on_blis = forward(x, w);
    int ok = eh_last_error() == EH_OK;
    double diff = fabs(on_ref - on_blis); /* summation order differs: not bit for bit */
    printf("ref:  %.6f\nblis: %.6f\n%s\n", on_ref, on_blis,
           ok && diff <= 1e-9 * fabs(on_ref) ? "same result on both backends (within 1e-9)"
                                             : "the backends disagree");
    if (!ok)
        fprintf(stderr, "plugin-demo: %s\n", eh_error_message());
    eh_release(x);
    eh_release(w);
    return ok ? 0 : 1;
}
