// A gfx90a kernel using 256 arch VGPRs (v255) and 10 AGPRs (a9): its note records .vgpr_count 266 (the
// unified file: VGPRs rounded up to 4 + AGPRs) and .agpr_count 10.  Built for tests/data/amdgpu_agpr_gfx90a.o:
//   clang-19 -x cl -nogpulib --target=amdgcn-amd-amdhsa -mcpu=gfx90a -O2 -c tests/amd/agpr.cl -o tests/data/amdgpu_agpr_gfx90a.o
__kernel void wide(__global float *out)
{
    __asm volatile("v_mov_b32 v255, 0" ::: "v255");
    __asm volatile("v_accvgpr_write_b32 a9, 0" ::: "a9");
    out[get_global_id(0)] = 1.0f;
}
