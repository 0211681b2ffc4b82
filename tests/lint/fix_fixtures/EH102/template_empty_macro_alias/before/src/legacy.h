/* A legacy solver with Fortran-style character arguments: where
 * STR_LENGTHS is defined, each one's length is passed after the last
 * argument (LENGTHS declares them, ONE_LENGTH passes one); elsewhere both
 * are empty. */
#ifndef LEGACY_H
#define LEGACY_H

#ifdef STR_LENGTHS
# define LENGTHS , unsigned long, unsigned long
# define ONE_LENGTH , 1UL
#else
# define LENGTHS
# define ONE_LENGTH
#endif

void legacy_trsv(const char *uplo, const char *trans, const double *a, int n, double *x LENGTHS);
void legacy_scal(int n, double s, double *x);

/* the new kernels */
void solve_upper(const double *a, int n, double *x);
void scale(double *x, int n, double s);

#endif
