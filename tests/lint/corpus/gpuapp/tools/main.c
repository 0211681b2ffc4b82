/* Setting and passing the backend selector is not a branch. */
#include <stdlib.h>
#include "../include/app.h"

int gpu_index = 0;

int main(int argc, char **argv)
{
    if (argc > 1)
        gpu_index = atoi(argv[1]);
    cuda_log(argc > 2 ? argv[2] : "start");
    return 0;
}
