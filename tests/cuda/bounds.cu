// Launch bounds checked: what nvcc records for __launch_bounds__(T, B), and a minimum that shared
// memory prevents.  tests/cuda/capture.sh builds tests/data/bounds_sm90.cubin from it.

// (256, 4): ptxas caps registers at 65536 / (256 x 4) = 64; nothing else limits, 4 blocks are reached
extern "C" __global__ void __launch_bounds__(256, 4) bounds_reached(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}

// (256, 8): a cap of 32 registers guarantees 8 blocks, but 32 KiB of __shared__ (+ 1 KiB reserved) leaves
// 233472 / 33792 = 6 on sm_90
extern "C" __global__ void __launch_bounds__(256, 8) bounds_smem(float *out)
{
    __shared__ float tile[8192];
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}
