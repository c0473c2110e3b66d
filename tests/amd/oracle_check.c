/*
 * Checker for the LLVM oracle (tests/amd/corpus.py): one kernel per input line, as LLVM 19 compiled it,
 *   target wave cu_mode flat_min flat_max lds vgprs agprs sgprs llvm_occupancy config
 * and gpuocc's LLVM 19 model (GPUOCC_MODEL_LLVM19) must give LLVM's occupancy.  Prints each mismatch, a count per
 * configuration, and "N passed, N failed"; exit 1 on any mismatch or unreadable line.
 */
#include <gpuocc.h>

#include <stdio.h>
#include <string.h>

struct tally {
    char config[48];
    int passed, failed;
};

int main(void)
{
    static struct tally tallies[128];
    int ntallies = 0, passed = 0, failed = 0;
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        char target[32], config[48];
        int wave, cu_mode, lo, hi, lds, vgprs, agprs, sgprs, expected;
        if (line[0] == '\n')
            continue;
        if (sscanf(line, "%31s %d %d %d %d %d %d %d %d %d %47s", target, &wave, &cu_mode, &lo, &hi, &lds, &vgprs,
                   &agprs, &sgprs, &expected, config) != 11) {
            printf("unreadable line: %s", line);
            failed++;
            continue;
        }
        gpuocc_device d = {.size = sizeof d};
        gpuocc_kernel k;
        gpuocc_kernel_init(&k);
        gpuocc_result r = {.size = sizeof r};
        int32_t rc = gpuocc_device_lookup(target, &d);
        k.threads_per_block = hi;
        k.max_threads_per_block = hi;
        k.regs_per_thread = vgprs;
        k.agprs = agprs;
        k.sgprs = sgprs;
        k.smem_static_bytes = lds;
        k.wave_size = wave;
        k.cu_mode = cu_mode;
        k.model = GPUOCC_MODEL_LLVM19;
        if (rc == GPUOCC_OK)
            rc = gpuocc_occupancy(&d, &k, &r);
        bool ok = rc == GPUOCC_OK && r.waves_per_simd == expected;
        int t = 0;
        while (t < ntallies && strcmp(tallies[t].config, config) != 0)
            t++;
        if (t == ntallies && ntallies < 128)
            snprintf(tallies[ntallies++].config, sizeof tallies[0].config, "%s", config);
        if (t < 128)
            ok ? tallies[t].passed++ : tallies[t].failed++;
        if (ok) {
            passed++;
        } else {
            failed++;
            if (failed <= 40)
                printf("MISMATCH %s flat %d..%d lds %d vgprs %d agprs %d sgprs %d: LLVM %d, gpuocc %d (%s)\n",
                       config, lo, hi, lds, vgprs, agprs, sgprs, expected, r.waves_per_simd, gpuocc_status_name(rc));
        }
    }
    for (int t = 0; t < ntallies; t++)
        printf("%-28s %5d kernels match LLVM 19, %d do not\n", tallies[t].config, tallies[t].passed, tallies[t].failed);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
