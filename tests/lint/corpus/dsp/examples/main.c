#include <stdio.h>
#ifdef HAVE_JACK
#include "jack_io.h"
#endif
int main(void) { puts("dsp"); return 0; }
