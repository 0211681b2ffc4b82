/* tests/structure/call_circle/pong.c -- the other half of the circle. */
void structure_ping(int n);
void structure_pong(int n);

void structure_pong(int n)
{
    if (n > 0)
        structure_ping(n - 1);
}
