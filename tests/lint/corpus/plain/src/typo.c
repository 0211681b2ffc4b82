/* A real error: reported at its place, once. */
int answer(void)
{
    return 6 * ;                                 // expect: EH000
}
