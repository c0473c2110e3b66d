// HIP kernels without the HIP headers (-nogpuinc): C++ names, mangled; captured by capture.sh for two targets.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __syncthreads() __builtin_amdgcn_s_barrier()
__global__ void saxpy(float *y, const float *x, float a) { unsigned i = __builtin_amdgcn_workitem_id_x(); y[i] = a * x[i] + y[i]; }
template <int N> __global__ void tiled(float *o) { __shared__ float t[N]; unsigned i = __builtin_amdgcn_workitem_id_x(); t[i % N] = o[i]; __syncthreads(); o[i] = t[(i * 7) % N]; }
template __global__ void tiled<1024>(float *);
