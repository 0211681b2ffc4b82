/* The library's frontend API. */
#ifndef TL_H
#define TL_H
#include <stddef.h>
#include <stdint.h>
typedef struct tl_tensor tl_tensor;
typedef struct tl_backend tl_backend;
tl_tensor *tl_new(int64_t n);
tl_tensor *tl_new_from(const float *data, int64_t n);
tl_tensor *tl_add(tl_tensor *a, tl_tensor *b);
tl_tensor *tl_scale(tl_tensor *a, float s);
tl_tensor *tl_mul_mat(tl_tensor *a, tl_tensor *b);
float *tl_get_data_f32(tl_tensor *t);
float tl_get_f32_1d(tl_tensor *t, int i);
void tl_backend_tensor_get(tl_tensor *t, void *data, size_t offset, size_t size);
int tl_backend_is_cpu(tl_backend *b);
int tl_backend_is_gpu(tl_backend *b);
const char *tl_backend_name(tl_backend *b);
tl_backend *tl_backend_init_best(void);
void tl_compute(tl_backend *b, tl_tensor *t);
#endif
