/* Frontend arithmetic on the library's own vectors: no tensor storage is
 * configured for this project, so none of it is EH2xx. */
#include "../priv.h"

smpl_t peak(const fvec_t *v)
{
    smpl_t m = 0;
    for (uint_t i = 0; i < v->length; i++)
        if (v->data[i] > m)
            m = sqrtf(v->data[i] * v->data[i]);
    return m;
}

smpl_t mean_hop(uint_t total, uint_t n) { return (smpl_t)total / n; }
smpl_t centre(uint_t size) { return size / 2 + .5; }     // expect: EH302
