// Small kernels for the container fixtures (a fatbinary and a host object; tests/cuda/capture.sh).
extern "C" __global__ void unit_add(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += in[i];
}

__global__ void __launch_bounds__(128, 4) unit_bounded(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x & 63] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) & 63];
}
