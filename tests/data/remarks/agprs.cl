// AGPRs (gfx908, gfx90a and later): arch VGPRs and AGPRs pinned by clobbers.  Captured by capture.sh.
__attribute__((amdgpu_flat_work_group_size(1, 256)))
kernel void agpr_mix(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = (int)t;
    __asm__ volatile("" ::: "v37", "a63");
}

__attribute__((amdgpu_flat_work_group_size(1, 512)))
kernel void agpr_only(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = (int)t;
    __asm__ volatile("" ::: "a127");
}
