__kernel void copy(__global const float *a, __global float *b)
{
    size_t i = get_global_id(0);
    b[i] = a[i];
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void reduce(__global const float *a, __global float *out)
{
    __local float tile[1024];
    size_t l = get_local_id(0);
    tile[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s)
            tile[l] += tile[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tile[0];
}
