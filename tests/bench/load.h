/* The benchmarks print the machine's load beside their ratios (a ratio is only read beside the load it was measured under). */
#ifndef GPUOCC_BENCH_LOAD_H
#define GPUOCC_BENCH_LOAD_H

#include <stdio.h>

/* The one-minute load average, now (-1 when /proc/loadavg cannot be read). */
static inline double bench_load(void)
{
    double load = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1;
        fclose(f);
    }
    return load;
}

#endif
