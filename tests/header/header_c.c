/* The public header compiles on its own in C11 with every warning as an error: its stable part alone, then
   included again with GPUOCC_EXPERIMENTAL defined, which adds the experimental part (as zstd.h's
   ZSTD_STATIC_LINKING_ONLY section does). */
#include "gpuocc.h"

#ifdef GPUOCC_H_EXPERIMENTAL
#error "the experimental part is declared without GPUOCC_EXPERIMENTAL"
#endif
/* a stable-only program cannot name an experimental declaration: the same name declared as something else */
typedef int gpuocc_binary_kernel;

static int stable_part(void)
{
    gpuocc_binary_kernel unused = 0;
    gpuocc_device d;
    gpuocc_result r;
    return (int)sizeof d + (int)sizeof r + unused > 0 && gpuocc_version() == GPUOCC_VERSION_MAJOR * 10000 +
           GPUOCC_VERSION_MINOR * 100 + GPUOCC_VERSION_PATCH;
}

int main(void)
{
    return stable_part() ? 0 : 1;
}
