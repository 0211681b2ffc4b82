/* The project's own header named like NVIDIA's: its own. */
#ifndef OWN_CUBLAS_H
#define OWN_CUBLAS_H
int cublas_like_count(void);
#endif
