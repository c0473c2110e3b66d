/* The public header with its experimental part, in C11 with every warning as an error: included once
   without GPUOCC_EXPERIMENTAL and again with it, the experimental declarations appear (zstd.h's pattern). */
#include "gpuocc.h"
#define GPUOCC_EXPERIMENTAL
#include "gpuocc.h"
#include "gpuocc.h"

int main(void)
{
    gpuocc_binary_kernel k;
    double warps = 0;
    return gpuocc_binary_kernel_init(&k) == GPUOCC_OK && gpuocc_warps_needed(4, 4, 1, &warps) == GPUOCC_OK &&
                   warps == 16 ? 0 : 1;
}
