/* EH201 look-alikes: arithmetic that is not on elements of tensor
 * storage. */
#include <string.h>
#include <eh/eh.h>

/* Index arithmetic, loop counters and an element used as an index. */
void indices(eh_tensor *t, eh_tensor *idx, int64_t n)
{
    float *p = eh_data_f32(t);
    int32_t *k = eh_data_i32(idx);
    for (int64_t i = 0; i + 1 < n; i++) {
        p[i + 1] = p[i];
        p[k[i] + 1] = 0.0f;
        p[k[i] * 2] = 1.0f;
    }
}

/* Pointer arithmetic computes addresses, not values. */
int64_t pointers(eh_tensor *t, int64_t n)
{
    float *p = eh_data_f32(t);
    float *end = p + n;
    float *q = p;
    q++;
    q += 2;
    float *r = &p[n - 1];
    return (end - p) + (r - q);
}

/* A host copy made by eh_to_buffer is not storage (EH401 covers copies
 * that go back into a tensor). */
double host_copy(const eh_tensor *t)
{
    double buf[4];
    if (eh_to_buffer(t, buf, sizeof buf) != EH_OK)
        return 0.0;
    return buf[0] * 2.0 + buf[1];
}

/* Comparisons, copies and bit manipulation of f16 storage. */
int no_arithmetic(eh_tensor *t, eh_tensor *u, eh_tensor *h)
{
    float *p = eh_data_f32(t), *q = eh_data_f32(u);
    uint16_t *bits = eh_data_f16(h);
    q[0] = p[0];
    memcpy(q, p, sizeof *p);
    int exponent = (bits[0] >> 10) & 0x1f;
    return p[0] > 0.5f && exponent != 0;
}

/* A pointer parameter: the analysis is within one function. */
float parameter(const float *x)
{
    return x[0] * 2.0f;
}

/* Values that never came from storage: a local array, eh_item's result,
 * sizes. */
double not_storage(eh_tensor *t)
{
    float w[2] = {1.0f, 2.0f};
    double scaled = eh_item(t) * 2.0;
    int64_t bytes = (int64_t)sizeof(eh_data_f32(t)[0]) * eh_size(t);
    return w[0] * w[1] + scaled + (double)bytes;
}

/* Variables are told apart by declaration, not by name: the inner p is a
 * local array that shadows the storage pointer. */
float shadowed(eh_tensor *t)
{
    float *p = eh_data_f32(t);
    float s = 0.0f;
    {
        float p[2] = {1.0f, 2.0f};
        s = p[0] * 2.0f;
    }
    return s + (p ? 1.0f : 0.0f);
}
