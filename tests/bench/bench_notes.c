/*
 * Note sections in linear time: an Intel zebin and an AMDGPU code object (tests/data/amdgpu_gfx90a.o) whose
 * section headers all name one range of notes, read by gpuocc_binary_read_entry, with 4N headers over 4N notes
 * against N over N in the same process.  A reader that walks each note range once is linear: a ratio of 4
 * (the check passes at 6 or less and exits 1 above); one that walks the range once per header is quadratic,
 * a ratio of 16.
 */
#define _POSIX_C_SOURCE 200809L
#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"
#include "load.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A zebin: .ze_info (one kernel), `notes` IntelGT product-family notes (24 bytes each, family 1270), `headers`
   section headers .note.intelgt.compat all naming them, .shstrtab. */
static unsigned char *make_zebin(uint32_t headers, uint32_t notes, size_t *n)
{
    static const char info[] = "kernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n      simd_size: 16\n";
    static const char strtab[] = "\0.ze_info\0.note.intelgt.compat\0.shstrtab"; /* names at 1, 10, 31 */
    size_t notes_at = (64 + sizeof info - 1 + 3) & ~(size_t)3, str_at = notes_at + (size_t)notes * 24;
    size_t shoff = (str_at + sizeof strtab + 7) & ~(size_t)7;
    uint32_t shnum = headers + 3;
    *n = shoff + (size_t)shnum * 64;
    unsigned char *p = calloc(*n, 1);
    if (!p || shnum >= 0xff00)
        exit(2);
    memcpy(p, "\x7f" "ELF\x02\x01\x01", 7);
    le(p + 16, 2, 2), le(p + 18, 205, 2), le(p + 20, 1, 4), le(p + 40, shoff, 8);
    le(p + 52, 64, 2), le(p + 58, 64, 2), le(p + 60, shnum, 2), le(p + 62, shnum - 1, 2);
    memcpy(p + 64, info, sizeof info - 1);
    for (uint32_t i = 0; i < notes; i++) {
        unsigned char *q = p + notes_at + (size_t)i * 24;
        le(q, 8, 4), le(q + 4, 4, 4), le(q + 8, 1, 4), memcpy(q + 12, "IntelGT", 8), le(q + 20, 1270, 4);
    }
    memcpy(p + str_at, strtab, sizeof strtab);
    unsigned char *h = p + shoff + 64;
    le(h, 1, 4), le(h + 4, 0xff000011u, 4), le(h + 24, 64, 8), le(h + 32, sizeof info - 1, 8);
    for (uint32_t i = 0; i < headers; i++) {
        h = p + shoff + 64 * ((size_t)i + 2);
        le(h, 10, 4), le(h + 4, 7, 4), le(h + 24, notes_at, 8), le(h + 32, (uint64_t)notes * 24, 8);
    }
    h = p + shoff + 64 * ((size_t)shnum - 1);
    le(h, 31, 4), le(h + 4, 3, 4), le(h + 24, str_at, 8), le(h + 32, sizeof strtab, 8);
    return p;
}

/* The code object with `notes` notes of another owner appended, named by `headers` SHT_NOTE headers placed
   before its own .note's (moved to the end of a new section table). */
static unsigned char *make_amdgpu(const unsigned char *co, size_t size, uint32_t headers, uint32_t notes, size_t *n)
{
    uint64_t shoff = 0;
    for (int i = 0; i < 8; i++)
        shoff |= (uint64_t)co[40 + i] << (8 * i);
    uint32_t shnum = (uint32_t)(co[60] | co[61] << 8), note = 0;
    for (uint32_t i = 1; i < shnum && !note; i++)
        note = co[shoff + 64 * i + 4] == 7 ? i : 0;
    size_t junk = (size + 7) & ~(size_t)7, table = junk + (size_t)notes * 20;
    uint32_t total = shnum + headers;
    *n = table + (size_t)total * 64;
    unsigned char *p = calloc(*n, 1);
    if (!p || !note || total >= 0xff00)
        exit(2);
    memcpy(p, co, size);
    for (uint32_t i = 0; i < notes; i++) {
        unsigned char *q = p + junk + (size_t)i * 20;
        le(q, 4, 4), le(q + 4, 4, 4), le(q + 8, 1, 4), memcpy(q + 12, "GNU", 4);
    }
    unsigned char decoy[64];
    memcpy(p + table, co + shoff, (size_t)shnum * 64);
    memcpy(p + table + 64 * ((size_t)total - 1), co + shoff + 64 * (size_t)note, 64);
    memcpy(decoy, co + shoff + 64 * (size_t)note, 64);
    le(decoy + 24, junk, 8), le(decoy + 32, (uint64_t)notes * 20, 8);
    for (uint32_t i = 0; i <= headers; i++)
        memcpy(p + table + 64 * (size_t)(i < headers ? shnum + i - 1 : note), decoy, 64);
    le(p + 40, table, 8), le(p + 60, total, 2);
    return p;
}

/* CPU seconds per read, best of three rounds; false when the reader does not find `kernels` kernels. */
static bool time_read(const unsigned char *p, size_t n, int32_t kernels, double *seconds)
{
    gpuocc_binary_kernel ks[4];
    bool ok = true;
    *seconds = 1e30;
    for (int round = 0; round < 3 && ok; round++) {
        double t0 = cpu_s();
        for (int r = 0; r < 5 && ok; r++) {
            int32_t count = 0;
            gpuocc_binary_kernel_init(&ks[0]);
            ok = gpuocc_binary_read_entry(p, n, 0, NULL, 0, ks, 4, &count, NULL) == GPUOCC_OK && count == kernels;
        }
        double t = (cpu_s() - t0) / 5;
        *seconds = t < *seconds ? t : *seconds;
    }
    return ok;
}

int main(void)
{
    enum { HEADERS = 5000, NOTES = 20000 };
    size_t co_n;
    FILE *f = fopen(DATA_DIR "/amdgpu_gfx90a.o", "rb");
    unsigned char co[1 << 16];
    if (!f || (co_n = fread(co, 1, sizeof co, f)) == 0 || co_n == sizeof co)
        return 2;
    fclose(f);
    int failed = 0;
    for (int amd = 0; amd < 2; amd++) {
        size_t n1, n4;
        unsigned char *small = amd ? make_amdgpu(co, co_n, HEADERS, NOTES, &n1) : make_zebin(HEADERS, NOTES, &n1);
        unsigned char *large = amd ? make_amdgpu(co, co_n, 4 * HEADERS, 4 * NOTES, &n4)
                                   : make_zebin(4 * HEADERS, 4 * NOTES, &n4);
        double t1, t4;
        if (!time_read(small, n1, amd ? 2 : 1, &t1) || !time_read(large, n4, amd ? 2 : 1, &t4)) {
            printf("%s: the reader disagrees with the generated file\n", amd ? "amdgpu" : "zebin");
            return 1;
        }
        double ratio = t4 / t1;
        printf("%s, %d headers over one range of %d notes (%zu bytes): %.3f ms; 4x (%zu bytes): %.3f ms: ratio %.2f "
               "(linear 4, quadratic 16, limit 6); load %.2f\n", amd ? "AMDGPU code object" : "zebin", HEADERS, NOTES,
               n1, 1e3 * t1, n4, 1e3 * t4, ratio, bench_load());
        failed |= ratio > 6;
        free(small);
        free(large);
    }
    return failed;
}
