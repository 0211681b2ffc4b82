/* IEEE 754 binary16 <-> binary32: the exported entry points.  The
 * conversions themselves live in <eh/backend_f16.h> (static inline), which
 * backends include directly for their per-element loops. */
#include <eh/backend_f16.h>
#include "internal.h"

float eh_f16_to_f32(uint16_t h) { return eh_f16_to_f32_inline(h); }

uint16_t eh_f32_to_f16(float f) { return eh_f32_to_f16_inline(f); }
