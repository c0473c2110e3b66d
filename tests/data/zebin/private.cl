__kernel void stack(__global const int *idx, __global float *out, int n)
{
    float buf[256];
    for (int i = 0; i < 256; i++)
        buf[i] = out[(get_global_id(0) + i) % n];
    out[get_global_id(0)] = buf[idx[get_global_id(0)] & 255];
}
