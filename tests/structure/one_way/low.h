/* tests/structure/one_way/low.h -- the helper below top.c. */
#ifndef STRUCTURE_LOW_H
#define STRUCTURE_LOW_H
int structure_low(int x);
#endif
