/* Portable C implementations of the tensor ops this
 * application needs.  Written before libeh had backends of its own: each
 * eh_ref_<op> takes the same arguments as the libeh op eh_<op> and covers
 * the shapes the application uses (f32 only).  They return NULL on a shape
 * or dtype they do not handle, or when libeh cannot allocate. */
#ifndef LEGACY_REF_OPS_H
#define LEGACY_REF_OPS_H

#include <eh/eh.h>

/* linalg.c */
eh_tensor *eh_ref_matmul(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_dot(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_lstsq(const eh_tensor *a, const eh_tensor *b);

/* elementwise.c */
eh_tensor *eh_ref_add(const eh_tensor *a, const eh_tensor *b);
eh_tensor *eh_ref_tanh(const eh_tensor *x);
eh_tensor *eh_ref_relu(const eh_tensor *x);

/* reduction.c */
eh_tensor *eh_ref_mean(const eh_tensor *x, const int *axes, int n_axes, int keepdims);
eh_tensor *eh_ref_softmax(const eh_tensor *x, int axis);

/* shape.c */
eh_tensor *eh_ref_transpose(const eh_tensor *x, const int *perm, int n_perm);

/* distance.c: the application's own op, which libeh does not have */
eh_tensor *eh_ref_pairwise_sqdist(const eh_tensor *x, const eh_tensor *y);

#endif
