// The public header compiles on its own in C++ and links with C linkage.
#include "gpuocc.h"

int main()
{
    gpuocc_device d;
    return gpuocc_device_lookup("sm_90", (d.size = sizeof d, &d)) == GPUOCC_OK ? 0 : 1;
}
