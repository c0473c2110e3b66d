/* Waves and the tail: how a grid of blocks fills the machine. */
#include "../core/core.h"

int32_t gpuocc_waves(int64_t grid_blocks, int32_t sm_count, int32_t blocks_per_sm, gpuocc_waves_result *out)
{
    if (grid_blocks < 1 || blocks_per_sm < 1)
        return GPUOCC_ERR_ARGUMENT;
    if (sm_count < 1)
        return GPUOCC_ERR_SM_COUNT;
    gpuocc_waves_result w;
    memset(&w, 0, sizeof w);
    w.size = sizeof w;
    w.blocks_per_wave = (int64_t)sm_count * blocks_per_sm; /* < 2^62 */
    w.full_waves = grid_blocks / w.blocks_per_wave;
    int64_t tail = grid_blocks % w.blocks_per_wave;
    w.waves = w.full_waves + (tail != 0);
    w.last_wave_blocks = tail ? tail : w.blocks_per_wave;
    w.last_wave_utilization = (double)w.last_wave_blocks / (double)w.blocks_per_wave;
    w.efficiency = (double)grid_blocks / ((double)w.waves * (double)w.blocks_per_wave);
    w.grid_down = w.full_waves * w.blocks_per_wave;
    if (w.waves > INT64_MAX / w.blocks_per_wave)
        return GPUOCC_ERR_OVERFLOW; /* the tail-free grid above does not fit */
    w.grid_up = w.waves * w.blocks_per_wave;
    return gpuocc_struct_store(out, sizeof w, &w, sizeof w);
}
