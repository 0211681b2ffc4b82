/* Fit a line to noisy samples two ways -- least squares, and the normal
 * equations solved directly -- on every backend libeh was built with. */
#include <stdio.h>
#include <eh/eh.h>

#define N_POINTS 50
#define SLOPE 3.0
#define INTERCEPT 0.5

static int fit_on(const char *backend)
{
    if (eh_set_backend(backend) != EH_OK)
        return 1;
    double lstsq_coef[2], normal_coef[2];

    eh_seed(7);
    eh_scope_begin();
    eh_tensor *x = eh_linspace(0.0, 1.0, N_POINTS, 1, EH_F64);
    eh_tensor *noise = eh_random_normal(1, (const int64_t[]){N_POINTS}, 0.0, 0.05, EH_F64);
    eh_tensor *y = eh_add(eh_add_scalar(eh_multiply_scalar(x, SLOPE), INTERCEPT), noise);
    const eh_tensor *columns[2] = {x, eh_ones_like(x)};
    eh_tensor *design = eh_stack(columns, 2, 1);                  /* (N, 2) */
    eh_tensor *coef = eh_lstsq(design, y);
    eh_tensor *design_t = eh_transpose(design, NULL, 0);
    eh_tensor *gram = eh_matmul(design_t, design);                /* A^T A */
    eh_tensor *moment = eh_matmul(design_t, y);                   /* A^T y */
    eh_tensor *coef2 = eh_solve(gram, moment);
    eh_status st = eh_to_buffer(coef, lstsq_coef, sizeof lstsq_coef);
    if (st == EH_OK)
        st = eh_to_buffer(coef2, normal_coef, sizeof normal_coef);
    eh_scope_end();

    if (st != EH_OK) {
        fprintf(stderr, "regression: %s\n", eh_error_message());
        return 1;
    }
    printf("[%s] y = %.4f x + %.4f (lstsq), y = %.4f x + %.4f (normal equations)\n", backend,
           lstsq_coef[0], lstsq_coef[1], normal_coef[0], normal_coef[1]);
    return 0;
}

int main(void)
{
    const char *backends[8];
    int n = eh_list_backends(backends, 8);
    int failed = 0;
    printf("true line: y = %.4f x + %.4f\n", SLOPE, INTERCEPT);
    for (int k = 0; k < n && k < 8; k++)
        failed |= fit_on(backends[k]);
    return failed;
}
