/* Look-alikes: no suppression here, so nothing is unused. */
static const char *const text = "// emberlint-ignore EH101";
/* the emberlint-ignored comment is not a directive */
/* see emberlint-ignore EH101 in the docs: not at the start of the comment */
#include <cblas.h>              // expect: EH101

int not_directives(void)
{
    return text[0];
}
