#include "shared.h"
eh_tensor *a(const eh_tensor *x) { return spectrum(x); }
