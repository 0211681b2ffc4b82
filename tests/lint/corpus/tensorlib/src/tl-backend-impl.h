/* The backend interface (core): a vtable. */
#ifndef TL_BACKEND_IMPL_H
#define TL_BACKEND_IMPL_H
#include "../include/tl.h"
struct tl_backend_i {
    const char *(*get_name)(tl_backend *b);
    void (*free)(tl_backend *b);
    void (*compute)(tl_backend *b, tl_tensor *t);
    void (*sync)(tl_backend *b);
};
#endif
