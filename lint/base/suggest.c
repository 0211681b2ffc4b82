/* lint/base/suggest.c -- see suggest.h. */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

#define MAX_LEN 64

/* Optimal string alignment distance between a and b, case ignored;
 * anything above 2 is returned as 3. */
static unsigned distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX_LEN || lb >= MAX_LEN)
        return 3;
    if ((la > lb ? la - lb : lb - la) > 2)
        return 3;
    unsigned d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            unsigned best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb] > 2 ? 3 : d[la][lb];
}

size_t el_suggest_all(const char *word, const char *const *candidates, size_t n,
                      const char **out, size_t max)
{
    /* a word under 5 characters gets one typo of slack, a longer one two: a
     * two-letter word is two edits from every other two-letter one */
    unsigned slack = strlen(word) < 5 ? 1 : 2, bd = slack + 1;
    size_t found = 0;
    for (size_t k = 0; k < n; k++) {
        unsigned dk = distance(word, candidates[k]);
        if (dk > slack || dk > bd)
            continue;
        if (dk < bd) {
            bd = dk;
            found = 0;
        }
        if (found < max)
            out[found] = candidates[k];
        found++;
    }
    return found;
}

const char *el_suggest(const char *word, const char *const *candidates, size_t n)
{
    const char *best = NULL;
    return el_suggest_all(word, candidates, n, &best, 1) == 1 ? best : NULL;
}
