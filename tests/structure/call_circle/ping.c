/* tests/structure/call_circle/ping.c -- with pong.c, a call circle
 * (ping calls pong, pong calls ping): mk/check-circles.sh must reject it. */
void structure_ping(int n);
void structure_pong(int n);

void structure_ping(int n)
{
    if (n > 0)
        structure_pong(n - 1);
}
