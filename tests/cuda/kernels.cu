// Test corpus for the ptxas and cubin readers: one kernel per feature.
#include <cooperative_groups.h>

extern "C" __global__ void plain_copy(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void smem_heavy(float *out, const float *in)
{
    __shared__ float tile[8192];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x * 7) % 8192];
}

__global__ void __launch_bounds__(256, 2) register_heavy(float *out, const float *in, int n)
{
    float acc[32];
#pragma unroll
    for (int j = 0; j < 32; j++)
        acc[j] = in[threadIdx.x + j * n];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 8; k++)
#pragma unroll
        for (int j = 0; j < 32; j++)
            s = fmaf(acc[j], acc[(j + k) % 32], s);
    out[threadIdx.x] = s;
}

__global__ void spilling(float *out, const float *in, int n, int idx)
{
    float a[64];
    for (int j = 0; j < 64; j++)
        a[j] = in[j * n + threadIdx.x];
    out[threadIdx.x] = a[idx & 63] + a[(idx * 3) & 63];
}

__global__ void named_barriers(float *out)
{
    __shared__ float buf[256];
    buf[threadIdx.x] = threadIdx.x;
    asm volatile("bar.sync 1, 128;");
    asm volatile("bar.sync 2, 128;");
    asm volatile("bar.sync 3, 128;");
    out[threadIdx.x] = buf[255 - threadIdx.x];
}

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
__global__ void __cluster_dims__(2, 1, 1) cluster_kernel(float *out)
{
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)cluster.block_rank();
}
#endif

extern "C" __global__ void dynamic_smem(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
