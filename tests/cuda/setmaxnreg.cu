// setmaxnreg under each way of fixing the register count at entry (tests/cuda/capture.sh: nvcc -cubin
// -arch=sm_90a -Xptxas -v, CUDA 13.0).  ptxas keeps setmaxnreg, and records EIATTR 0x54 (REG_RECONFIG), only
// where the count at entry is fixed: __maxnreg__ (fixed_maxnreg), or __launch_bounds__ with a minimum of blocks
// (fixed_bounds); with a maximum of threads alone (bound_only) or nothing (unbounded) it warns C7508
// ("'setmaxnreg' ignored; unable to determine register count at entry") and drops the instruction.
__global__ void unbounded(float *p)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    p[threadIdx.x] = 1.0f;
}

__global__ void __launch_bounds__(384) bound_only(float *p)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    p[threadIdx.x] = 1.0f;
}

__global__ void __launch_bounds__(384, 1) fixed_bounds(float *p)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    p[threadIdx.x] = 1.0f;
}

__global__ void __maxnreg__(168) fixed_maxnreg(float *p)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    p[threadIdx.x] = 1.0f;
}
