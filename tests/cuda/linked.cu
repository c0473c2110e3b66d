// Device-linked code (tests/cuda/capture.sh): built with -rdc=true and linked into an executable, so the
// file holds each kernel twice: the relocatable cubins (__nv_relfatbin) and the linked ones (.nv_fatbin).
#include <cuda_runtime.h>

__global__ void static_smem(float *out)
{
    __shared__ float s[64]; // 256 bytes of static shared memory
    s[threadIdx.x & 63] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) & 63];
}

__global__ void dynamic_smem(float *out)
{
    extern __shared__ float d[]; // dynamic only: no static shared memory
    d[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = d[threadIdx.x ^ 1];
}

__global__ void no_smem(float *out)
{
    out[threadIdx.x] = 3.0f;
}

int main()
{
    float *p;
    cudaMalloc(&p, 4096);
    static_smem<<<1, 64>>>(p);
    dynamic_smem<<<1, 64, 256>>>(p);
    no_smem<<<1, 64>>>(p);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
