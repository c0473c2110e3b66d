/*
 * A cubin's kernels in linear time: gpuocc_binary_read_entry on a synthetic cubin of 4,000
 * kernels against one of 1,000, in the same process.  The cubins are generated here with the layout
 * docs/inputs.md describes (a symbol per kernel marked STO_CUDA_ENTRY, .text.<k>, .nv.info.<k>,
 * .nv.shared.<k> naming the text section in sh_info, and the module-wide .nv.info holding REGCOUNT and
 * FRAME_SIZE records, written in reverse symbol order so that no scan order helps).  Linear is a ratio of
 * 4; the check passes at 6 or less and exits 1 above.  The old whole-file reader (gpuocc_cubin_read, no
 * workspace, one pass per 128 kernels) is timed beside it for information.
 */
#define _POSIX_C_SOURCE 200809L
#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"
#include "load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct out {
    unsigned char *p;
    size_t n, cap;
};

static size_t put(struct out *o, const void *data, size_t n)
{
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2;
        o->p = realloc(o->p, o->cap);
        if (!o->p)
            exit(2);
    }
    memcpy(o->p + o->n, data, n);
    o->n += n;
    return o->n - n;
}

static void le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

struct shdr {
    uint32_t name, type, info, link;
    uint64_t flags, offset, size, entsize;
};

/* A cubin of `k` kernels: registers 16 + i % 64 for kernel i. */
static unsigned char *make_cubin(int k, size_t *length)
{
    int nsec = 5 + 3 * k;
    struct shdr *sh = calloc((size_t)nsec, sizeof *sh);
    struct out shstr = {0}, str = {0}, sym = {0}, info = {0}, file = {0};
    char name[64];
    unsigned char rec[24] = {0};
    put(&shstr, "", 1);
    put(&str, "", 1);
    put(&sym, rec, 24);
    sh[1].name = (uint32_t)put(&shstr, ".shstrtab", 10), sh[1].type = 3;
    sh[2].name = (uint32_t)put(&shstr, ".strtab", 8), sh[2].type = 3;
    sh[3].name = (uint32_t)put(&shstr, ".symtab", 8), sh[3].type = 2, sh[3].link = 2, sh[3].entsize = 24;
    sh[4].name = (uint32_t)put(&shstr, ".nv.info", 9), sh[4].type = 0x70000000;
    for (int i = 0; i < k; i++) {
        uint32_t text = (uint32_t)(5 + 3 * i);
        int len = snprintf(name, sizeof name, "kernel_%d", i);
        memset(rec, 0, sizeof rec);
        le(rec, put(&str, name, (size_t)len + 1), 4);
        rec[4] = 0x12; /* STB_GLOBAL, STT_FUNC */
        rec[5] = 0x10; /* STO_CUDA_ENTRY */
        le(rec + 6, text, 2);
        le(rec + 16, 16, 8);
        put(&sym, rec, 24);
        snprintf(name, sizeof name, ".text.kernel_%d", i);
        sh[text].name = (uint32_t)put(&shstr, name, strlen(name) + 1);
        sh[text].type = 1, sh[text].flags = 6, sh[text].size = 16, sh[text].info = (uint32_t)(16 + i % 64) << 24;
        snprintf(name, sizeof name, ".nv.info.kernel_%d", i);
        sh[text + 1].name = (uint32_t)put(&shstr, name, strlen(name) + 1);
        sh[text + 1].type = 0x70000000, sh[text + 1].info = text, sh[text + 1].size = 4;
        snprintf(name, sizeof name, ".nv.shared.kernel_%d", i);
        sh[text + 2].name = (uint32_t)put(&shstr, name, strlen(name) + 1);
        sh[text + 2].type = 8, sh[text + 2].info = text, sh[text + 2].size = 256;
    }
    for (int i = k - 1; i >= 0; i--) { /* REGCOUNT and FRAME_SIZE {symbol, value}, last kernel first */
        unsigned char a[12] = {4, 0x2f, 8, 0};
        le(a + 4, (uint64_t)i + 1, 4);
        le(a + 8, (uint64_t)(16 + i % 64), 4);
        put(&info, a, 12);
        a[1] = 0x11;
        le(a + 8, 0, 4);
        put(&info, a, 12);
    }
    unsigned char ehdr[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7};
    le(ehdr + 16, 2, 2);   /* ET_EXEC */
    le(ehdr + 18, 190, 2); /* EM_CUDA */
    le(ehdr + 20, 1, 4);
    le(ehdr + 48, 80, 4); /* sm_80, ABI version 7 */
    le(ehdr + 52, 64, 2);
    le(ehdr + 58, 64, 2);
    le(ehdr + 60, (uint64_t)nsec, 2);
    le(ehdr + 62, 1, 2);
    put(&file, ehdr, 64);
    struct out *parts[] = {&shstr, &str, &sym, &info};
    for (int i = 0; i < 4; i++) {
        sh[1 + i].offset = put(&file, parts[i]->p, parts[i]->n);
        sh[1 + i].size = parts[i]->n;
    }
    unsigned char maxreg[4] = {3, 0x1b, 255, 0}; /* EIFMT_HVAL MAXREG_COUNT 255 */
    for (int i = 0; i < k; i++) {
        unsigned char code[16] = {0};
        sh[5 + 3 * i].offset = put(&file, code, 16);
        sh[6 + 3 * i].offset = put(&file, maxreg, 4);
        sh[7 + 3 * i].offset = file.n;
    }
    while (file.n % 8)
        put(&file, "", 1);
    size_t shoff = file.n;
    for (int i = 0; i < nsec; i++) {
        unsigned char h[64] = {0};
        le(h, sh[i].name, 4), le(h + 4, sh[i].type, 4), le(h + 8, sh[i].flags, 8), le(h + 24, sh[i].offset, 8);
        le(h + 32, sh[i].size, 8), le(h + 40, sh[i].link, 4), le(h + 44, sh[i].info, 4), le(h + 56, sh[i].entsize, 8);
        put(&file, h, 64);
    }
    le(file.p + 40, shoff, 8);
    for (int i = 0; i < 4; i++)
        free(parts[i]->p);
    free(sh);
    *length = file.n;
    return file.p;
}

/* CPU seconds per read of every kernel, best of a few rounds; false when the reader disagrees. */
static bool time_read(const unsigned char *cubin, size_t n, int k, bool fast, double *seconds)
{
    gpuocc_binary_kernel *ks = malloc((size_t)k * sizeof *ks);
    gpuocc_compiled_kernel *cs = malloc((size_t)k * sizeof *cs);
    gpuocc_binary_entry info = {.size = sizeof info};
    if (!ks || !cs || gpuocc_binary_entry_info(cubin, n, 0, &info, NULL) != GPUOCC_OK)
        return false;
    void *ws = malloc(info.fast_workspace_bytes + 1);
    gpuocc_binary_kernel_init(&ks[0]);
    bool ok = ws != NULL;
    *seconds = 1e30;
    int reps = fast ? 20000 / k + 2 : 2;
    for (int round = 0; round < 3 && ok; round++) {
        double t0 = cpu_s();
        for (int r = 0; r < reps && ok; r++) {
            int32_t count = 0;
            int32_t rc = fast ? gpuocc_binary_read_entry(cubin, n, 0, ws, (size_t)info.fast_workspace_bytes, ks, k,
                                                         &count, NULL)
                              : gpuocc_cubin_read(cubin, n, cs, k, &count);
            ok = rc == GPUOCC_OK && count == k;
            for (int i = 0; ok && i < k; i++)
                ok = (fast ? ks[i].registers : cs[i].registers) == 16 + i % 64 &&
                     (fast ? ks[i].smem_bytes : cs[i].smem_bytes) == 256;
        }
        double t = (cpu_s() - t0) / reps;
        *seconds = t < *seconds ? t : *seconds;
    }
    free(ws);
    free(ks);
    free(cs);
    return ok;
}

int main(void)
{
    size_t n1, n4;
    unsigned char *small = make_cubin(1000, &n1), *large = make_cubin(4000, &n4);
    double t1, t4, o1, o4;
    if (!time_read(small, n1, 1000, true, &t1) || !time_read(large, n4, 4000, true, &t4) ||
        !time_read(small, n1, 1000, false, &o1) || !time_read(large, n4, 4000, false, &o4)) {
        printf("cubin: a reader disagrees with the generated cubin\n");
        return 1;
    }
    double load = bench_load();
    double ratio = t4 / t1;
    printf("cubin of 1,000 kernels: %.3f ms, of 4,000: %.3f ms (gpuocc_binary_read_entry, fast workspace): "
           "ratio %.2f (linear 4, limit 6)\n", 1e3 * t1, 1e3 * t4, ratio);
    printf("gpuocc_cubin_read (no workspace, batches of 128): %.3f ms, %.3f ms: ratio %.2f; load %.2f\n", 1e3 * o1,
           1e3 * o4, o4 / o1, load);
    return ratio <= 6 ? 0 : 1;
}
