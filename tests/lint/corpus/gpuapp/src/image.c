/* Includes the backend's header and uses nothing from it: the include is
 * still the backend's. */
#include "gpu.h"                                 // expect: EH101

int image_width(int w) { return w; }
