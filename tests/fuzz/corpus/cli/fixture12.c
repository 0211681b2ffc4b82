/* An unknown identifier, and a second error counted in the message. */
int undeclared(void)
{
    int x = not_declared_anywhere;   // expect: EH000
    return x + also_not_declared;
}
