/* The public header compiles on its own in C11 with every warning as an error. */
#include "gpuocc.h"

int main(void)
{
    return gpuocc_version() == GPUOCC_VERSION_MAJOR * 10000 + GPUOCC_VERSION_MINOR * 100 + GPUOCC_VERSION_PATCH ? 0 : 1;
}
