/*
 * Many threads at once get exactly the answers one thread gets: occupancy, the searches, the sweeps, the
 * ptxas reader and the cubin reader share nothing mutable.  Built with -Db_sanitize=thread it is the
 * ThreadSanitizer check of scripts/check (build-tsan, suite `threads`); it runs in the other builds too.
 * A plain program (no Criterion, whose own threads and forks would cloud ThreadSanitizer's report).
 * Usage: test_threads PTXAS_LOG CUBIN
 */
#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 3
#define MAX_KERNELS 64

static const char *const devices[] = {"sm_75", "A100", "H100", "RTX 4090", "sm_120"};
#define N_DEVICES (sizeof devices / sizeof devices[0])
#define N_LAUNCHES 24

/* Everything one pass computes, compared byte for byte (every field is written, padding zeroed). */
struct answers {
    gpuocc_result occupancy[N_DEVICES][N_LAUNCHES];
    int32_t rc[N_DEVICES][N_LAUNCHES][6];
    int32_t best_threads[N_DEVICES][N_LAUNCHES], best_grid[N_DEVICES][N_LAUNCHES];
    int64_t dynamic_available[N_DEVICES][N_LAUNCHES];
    int32_t regs_for_two[N_DEVICES][N_LAUNCHES];
    int64_t next_value[N_DEVICES][N_LAUNCHES], next_shed[N_DEVICES][N_LAUNCHES];
    gpuocc_sweep_point steps[N_DEVICES][64];
    int32_t step_count[N_DEVICES];
    gpuocc_compiled_kernel ptxas[MAX_KERNELS], cubin[MAX_KERNELS];
    int32_t ptxas_rc, ptxas_count, ptxas_line, cubin_rc, cubin_count;
};

static const char *ptxas_text;
static size_t ptxas_length;
static const unsigned char *cubin_data;
static size_t cubin_length;

static gpuocc_kernel launch(int32_t i)
{
    gpuocc_kernel k;
    gpuocc_kernel_init(&k);
    k.threads_per_block = 32 * (1 + i % 32);
    k.regs_per_thread = 16 + 8 * (i % 15);
    k.smem_static_bytes = 1024 * (i % 7);
    k.smem_dynamic_bytes = 4096 * (i % 5);
    k.smem_optin = i % 2;
    return k;
}

static void compute(struct answers *a)
{
    memset(a, 0, sizeof *a);
    for (size_t d = 0; d < N_DEVICES; d++) {
        gpuocc_device dev = {.size = sizeof dev};
        if (gpuocc_device_lookup(devices[d], &dev) != GPUOCC_OK)
            abort();
        for (int32_t i = 0; i < N_LAUNCHES; i++) {
            gpuocc_kernel k = launch(i);
            a->occupancy[d][i].size = sizeof a->occupancy[d][i];
            int32_t *rc = a->rc[d][i];
            rc[0] = gpuocc_occupancy(&dev, &k, &a->occupancy[d][i]);
            rc[1] = gpuocc_best_block_affine(&dev, &k, 1024 * (i % 3), 8 * (i % 4), &a->best_threads[d][i],
                                             &a->best_grid[d][i]);
            rc[2] = gpuocc_smem_dynamic_available(&dev, &k, 1 + i % 4, &a->dynamic_available[d][i]);
            rc[3] = gpuocc_regs_max_for_blocks(&dev, &k, 1 + i % 6, &a->regs_for_two[d][i]);
            rc[4] = gpuocc_next_step(&dev, &k, i % GPUOCC_RESOURCE_COUNT, &a->next_value[d][i],
                                     &a->next_shed[d][i]);
            rc[5] = 0;
        }
        gpuocc_kernel k = launch(5);
        a->rc[d][0][5] = gpuocc_sweep_steps(&dev, &k, GPUOCC_AXIS_REGS, 0, 255, a->steps[d], 64, &a->step_count[d]);
    }
    a->ptxas_rc = gpuocc_ptxas_parse(ptxas_text, ptxas_length, a->ptxas, MAX_KERNELS, &a->ptxas_count,
                                     &a->ptxas_line);
    a->cubin_rc = gpuocc_cubin_read(cubin_data, cubin_length, a->cubin, MAX_KERNELS, &a->cubin_count);
}

static struct answers reference;

static void *worker(void *arg)
{
    int *mismatches = arg;
    struct answers *mine = malloc(sizeof *mine);
    if (!mine)
        abort();
    for (int round = 0; round < ROUNDS; round++) {
        compute(mine);
        if (memcmp(mine, &reference, sizeof *mine) != 0)
            (*mismatches)++;
    }
    free(mine);
    return NULL;
}

static unsigned char *slurp(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "test_threads: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        exit(1);
    fclose(f);
    *length = (size_t)n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_threads PTXAS_LOG CUBIN\n");
        return 2;
    }
    ptxas_text = (const char *)slurp(argv[1], &ptxas_length);
    cubin_data = slurp(argv[2], &cubin_length);
    compute(&reference);
    /* the reference itself is meaningful: both readers found kernels, occupancy answered */
    if (reference.ptxas_rc != GPUOCC_OK || reference.ptxas_count < 1 || reference.cubin_rc != GPUOCC_OK ||
        reference.cubin_count < 1 || reference.rc[2][0][0] != GPUOCC_OK ||
        reference.occupancy[2][0].blocks_per_sm < 1) {
        fprintf(stderr, "test_threads: the single-threaded reference failed\n");
        return 1;
    }
    pthread_t threads[THREADS];
    int mismatches[THREADS] = {0};
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, worker, &mismatches[t]) != 0)
            return 1;
    int total = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        total += mismatches[t];
    }
    printf("test_threads: %d threads x %d rounds, %d answers differ from one thread's (ptxas %d kernels, "
           "cubin %d kernels)\n",
           THREADS, ROUNDS, total, reference.ptxas_count, reference.cubin_count);
    free((void *)ptxas_text);
    free((void *)cubin_data);
    return total ? 1 : 0;
}
