/* Names a macro's argument spells are renamed where they are written
 * (one edit, however often the macro expands the argument); a macro that
 * stringizes its argument makes the rename unsafe; a macro's body is
 * never edited. */
#include <eh/eh.h>
#define CHECK(x) ((x) ? (x) : (eh_tensor *)0)
#define KEEP(x) (x)
eh_tensor *f(const eh_tensor *a, const eh_tensor *b)
{
    eh_tensor *t = KEEP(eh_add(a, b));
    eh_tensor *u = KEEP(
        eh_add(t, b));
    return CHECK(eh_add(u, a));
}
