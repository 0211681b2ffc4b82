// emberlint-ignore-file EH1O1 // expect: EH002
/* A letter O for a zero: the ID is unknown and nothing is suppressed. */
#include <fftw3.h>              // expect: EH101

int file_level(void)
{
    return 0;
}
