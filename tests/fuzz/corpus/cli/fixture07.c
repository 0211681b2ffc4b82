/* EH301 look-alikes: casts that do not narrow tensor data. */
#include <eh/eh.h>

double widening(eh_tensor *t)
{
    float *p = eh_data_f32(t);
    return (double)p[0] + (double)eh_item(t);
}

float not_tensor_data(eh_tensor *t, int64_t i)
{
    double local = 3.141592653589793;
    double host[2];
    if (eh_to_buffer(t, host, sizeof host) != EH_OK)
        return 0.0f;
    int n = (int)eh_size(t);                 /* integer to integer */
    return (float)local + (float)i + (float)host[0] + (float)n;
}

int truth_and_bits(eh_tensor *t, eh_tensor *h)
{
    float *p = eh_data_f32(t);
    uint16_t *bits = eh_data_f16(h);
    _Bool nonzero = (_Bool)p[0];             /* a truth test */
    float raw = (float)bits[0];              /* integer to floating */
    return nonzero && raw > 0.0f;
}

int64_t index_from_storage(eh_tensor *t, eh_tensor *idx)
{
    int32_t *k = eh_data_i32(idx);
    float *p = eh_data_f32(t);
    return (int64_t)k[0] + (int64_t)(p - (float *)eh_data(t));
}
