/* The vector layer (core): may use a library directly. */
#include "priv.h"
void fvec_zeros(fvec_t *v)
{
    for (uint_t i = 0; i < v->length; i++)
        v->data[i] = 0;
}
