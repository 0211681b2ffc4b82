#include <eh/eh.h>
eh_tensor *eh_ref_add(const eh_tensor *a, const eh_tensor *b);
#include "generic/t.c"
#include "inst.h"
