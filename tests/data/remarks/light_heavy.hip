// Two HIP kernels without the HIP headers (-nogpuinc), one light and one register-heavy, captured by capture.sh
// for two targets in one command: each target's remarks in turn, naming neither target.
#define __global__ __attribute__((global))
__global__ void light(float *out, const float *in)
{
    unsigned i = __builtin_amdgcn_workitem_id_x();
    out[i] = in[i] * 2.0f;
}

__global__ void heavy(float *out, const float *in, int n)
{
    float acc[96];
    unsigned t = __builtin_amdgcn_workitem_id_x();
#pragma unroll
    for (int j = 0; j < 96; j++)
        acc[j] = in[t + j * 64];
    for (int r = 0; r < n; r++) {
#pragma unroll
        for (int j = 0; j < 96; j++)
            acc[j] = acc[j] * acc[(j + 1) % 96] + in[r + j];
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < 96; j++)
        s += acc[j] * (float)j;
    out[t] = s;
}
