#include "shared.h"

int uses_shared_b(void)
{
    return 1;
}
