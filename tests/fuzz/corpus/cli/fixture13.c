// emberlint-ignore-file EH001
/* EH001 itself can be suppressed for a file: this stale suppression is
 * kept on purpose. */
#include <eh/eh.h>              // emberlint-ignore EH101

int kept_on_purpose(void)
{
    return 0;
}
