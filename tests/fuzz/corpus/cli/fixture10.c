#include "no_such_header.h"      // expect: EH000

int missing_header(void)
{
    return 0;
}
