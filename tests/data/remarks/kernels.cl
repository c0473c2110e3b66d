// Kernels for LLVM's kernel-resource-usage remarks (tests/test_remarks.c, tests/amd/remarks_live.py): the
// resources are pinned with inline-asm register clobbers, static LDS arrays and amdgpu_flat_work_group_size,
// so that each target gives known, varied figures.  Captured by capture.sh.

// the occupancy limited by LDS: 16 KiB per workgroup of up to 256 threads
__attribute__((amdgpu_flat_work_group_size(1, 256)))
kernel void lds_16k(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    local int s[4096];
    s[t % 4096] = o[t];
    __builtin_amdgcn_s_barrier();
    o[t] = s[(t * 7u) % 4096u];
}

// VGPRs: 97 (v96 clobbered), SGPRs: s60
__attribute__((amdgpu_flat_work_group_size(1, 128)))
kernel void vgpr_97(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = (int)t;
    __asm__ volatile("" ::: "v96", "s60");
}

// VGPRs: 200, compiled for workgroups of up to 1024
__attribute__((amdgpu_flat_work_group_size(1, 1024)))
kernel void vgpr_200_wg1024(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = (int)t;
    __asm__ volatile("" ::: "v199");
}

// many SGPRs (they limit on gfx9: more than 100 -> 7 waves)
__attribute__((amdgpu_flat_work_group_size(1, 64)))
kernel void sgpr_heavy(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = (int)t;
    __asm__ volatile("" ::: "s100");
}

// a small LDS array and no register pressure, default workgroup bounds (OpenCL: up to 256)
kernel void plain(global float *o, float x)
{
    o[get_global_id(0)] = x * o[get_global_id(0)];
}

// 48 KiB of LDS for a single-wave workgroup
__attribute__((amdgpu_flat_work_group_size(64, 64)))
kernel void lds_48k_wave(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    local int s[12288];
    s[t] = o[t];
    s[t + 6000] = o[t + 1];
    __builtin_amdgcn_s_barrier();
    o[t] = s[(t * 13u) % 12288u] + s[(t * 5u + 6000u) % 12288u];
}

// a call the compiler cannot inline: a stack, and scratch
__attribute__((noinline)) int helper(global int *o, int i)
{
    volatile int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = o[i + k];
    return a[i & 15];
}

kernel void with_call(global int *o)
{
    unsigned t = __builtin_amdgcn_workitem_id_x();
    o[t] = helper(o, (int)t);
}
