// Device code without a kernel: a cubin of zero kernels (tests/cuda/capture.sh, tests/test_cli_containers.py).
__device__ float no_kernel_value;

__device__ float no_kernel_twice(float x)
{
    return 2.0f * x + no_kernel_value;
}
