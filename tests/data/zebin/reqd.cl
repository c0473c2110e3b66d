__attribute__((reqd_work_group_size(128, 1, 1)))
__kernel void fixed(__global const float *a, __global float *b)
{
    size_t i = get_global_id(0);
    b[i] = a[i] * 2.0f;
}

__attribute__((reqd_work_group_size(8, 4, 2)))
__kernel void tile(__global float *b)
{
    size_t l = get_local_id(0) + 8 * (get_local_id(1) + 4 * get_local_id(2));
    b[get_group_id(0) * 64 + l] = (float)l;
}

__attribute__((work_group_size_hint(256, 1, 1)))
__kernel void hinted(__global float *b)
{
    b[get_global_id(0)] = 1.0f;
}
