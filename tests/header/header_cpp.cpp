// The public header compiles on its own in C++ and links with C linkage, its experimental part too.
#define GPUOCC_EXPERIMENTAL
#include "gpuocc.h"

int main()
{
    gpuocc_device d;
    gpuocc_cluster c;
    return gpuocc_device_lookup("sm_90", (d.size = sizeof d, &d)) == GPUOCC_OK &&
                   gpuocc_cluster_init(&c) == GPUOCC_OK ? 0 : 1;
}
