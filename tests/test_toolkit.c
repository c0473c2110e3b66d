/*
 * The device code NVIDIA ships: every shared library under the toolkit's lib64 (cuBLAS, cuBLASLt, cuFFT,
 * cuSPARSE, cuSOLVER, cuRAND, and cuDNN and NCCL where they are installed there) is read entry by entry
 * with zero failed entries, and the kernel count of each is logged.  A sample of sm_75/sm_80 kernels is
 * checked against an independent reading of the decompressed cubin: binutils `readelf -SW`, where
 * `.text.<k>` carries the register count in sh_info bits 24-31 and `.nv.shared.<k>` the shared memory.
 * Skipped when the toolkit (found next to nvcc) is absent.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define GPUOCC_EXPERIMENTAL /* the experimental part of gpuocc.h: models, readers, clusters, Hopper/Blackwell checks */
#include "gpuocc.h"

#ifdef TOOLKIT_LIB64
struct mapped {
    const uint8_t *p;
    size_t n;
};

static bool map_file(const char *path, struct mapped *m)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return false;
    m->p = p;
    m->n = (size_t)st.st_size;
    return true;
}

/* The decoded cubin in the workspace: it starts with an ELF header for EM_CUDA; its length is where its
   section table ends (the last thing nvcc writes). */
static bool find_image(const uint8_t *ws, size_t n, const uint8_t **image, size_t *len)
{
    for (size_t i = 0; i + 64 <= n; i++) {
        if (memcmp(ws + i, "\177ELF\002\001", 6) != 0 || (ws[i + 18] | ws[i + 19] << 8) != 190)
            continue;
        uint64_t shoff = 0;
        for (int b = 7; b >= 0; b--)
            shoff = shoff << 8 | ws[i + 40 + b];
        size_t shnum = (size_t)(ws[i + 60] | ws[i + 61] << 8);
        if (shoff + shnum * 64 > n - i)
            continue;
        *image = ws + i;
        *len = (size_t)(shoff + shnum * 64);
        return true;
    }
    return false;
}

/* readelf -SW of the image: registers (sh_info >> 24 of .text.<name>) and the size of .nv.shared.<name>. */
static void independent_reading(const uint8_t *image, size_t len, const char *name, size_t name_len, int *regs,
                                long long *smem)
{
    char path[] = "/tmp/gpuocc-toolkit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, image, len), (ssize_t)len);
    close(fd);
    char command[512];
    snprintf(command, sizeof command, "readelf -SW '%s' 2>/dev/null", path);
    FILE *p = popen(command, "r");
    cr_assert(p);
    *regs = -1;
    *smem = 0;
    char line[4096];
    while (fgets(line, sizeof line, p)) {
        char *bracket = strchr(line, ']');
        if (!bracket)
            continue;
        /* Name Type Address Off Size ES Flg Lk Inf Al, whitespace-separated (sections of interest have flags) */
        char *tok[12];
        int n = 0;
        for (char *t = strtok(bracket + 1, " \t\n"); t && n < 12; t = strtok(NULL, " \t\n"))
            tok[n++] = t;
        if (n < 5)
            continue;
        if (n >= 10 && !strncmp(tok[0], ".text.", 6) && strlen(tok[0] + 6) == name_len &&
            !memcmp(tok[0] + 6, name, name_len))
            *regs = (int)(strtoull(tok[8], NULL, 10) >> 24);
        if (!strncmp(tok[0], ".nv.shared.", 11) && strlen(tok[0] + 11) == name_len && !memcmp(tok[0] + 11, name, name_len))
            *smem = (long long)strtoull(tok[4], NULL, 16);
    }
    pclose(p);
    unlink(path);
}

Test(toolkit, every_library_reads_without_failure, .timeout = 1800)
{
    DIR *d = opendir(TOOLKIT_LIB64);
    if (!d)
        cr_skip_test("no %s", TOOLKIT_LIB64);
    struct dirent *de;
    int libraries = 0, sampled = 0;
    long long total_kernels = 0;
    char names[128][256];
    int count = 0;
    while ((de = readdir(d)) && count < 128) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".so") && !strncmp(de->d_name, "lib", 3))
            if (snprintf(names[count], sizeof names[0], "%s", de->d_name) < (int)sizeof names[0])
                count++;
    }
    closedir(d);
    for (int f = 0; f < count; f++) {
        char path[1024];
        if (snprintf(path, sizeof path, "%s/%s", TOOLKIT_LIB64, names[f]) >= (int)sizeof path)
            continue;
        struct mapped m;
        if (!map_file(path, &m))
            continue;
        gpuocc_binary_summary s = {.size = sizeof s};
        int32_t rc = gpuocc_binary_scan(m.p, m.n, &s);
        if (rc == GPUOCC_ERR_FORMAT) { /* no device code in this library */
            munmap((void *)m.p, m.n);
            continue;
        }
        cr_assert_eq(rc, GPUOCC_OK, "%s: %s", names[f], gpuocc_strerror(rc));
        uint8_t *ws = s.workspace_bytes ? malloc(s.workspace_bytes) : NULL;
        int32_t capacity = 4096;
        gpuocc_binary_kernel *k = malloc((size_t)capacity * sizeof *k);
        gpuocc_binary_kernel_init(&k[0]);
        long long kernels = 0;
        bool sampled_here = false;
        for (int32_t e = 0; e < s.entries; e++) {
            int32_t n = 0;
            rc = gpuocc_binary_read_entry(m.p, m.n, e, ws, s.workspace_bytes, k, capacity, &n, &s);
            cr_expect_eq(rc, GPUOCC_OK, "%s entry %d: %s", names[f], e, gpuocc_strerror(rc));
            if (rc != GPUOCC_OK)
                continue;
            kernels += n;
            /* one compressed sm_75/sm_80 kernel per library, against readelf */
            if (!sampled_here && n > 0 && k[0].name_buffer == GPUOCC_BINARY_NAME_WORKSPACE && k[0].cc <= 80) {
                const uint8_t *image;
                size_t len;
                cr_assert(find_image(ws, s.workspace_bytes, &image, &len), "%s entry %d: image", names[f], e);
                int regs;
                long long smem;
                independent_reading(image, len, (const char *)ws + k[0].name_offset, k[0].name_length, &regs, &smem);
                cr_expect_eq(k[0].registers, regs, "%s entry %d: registers %d, readelf %d", names[f], e,
                             k[0].registers, regs);
                cr_expect_eq(k[0].smem_bytes, smem, "%s entry %d: smem %lld, readelf %lld", names[f], e,
                             (long long)k[0].smem_bytes, smem);
                sampled_here = true;
                sampled++;
            }
        }
        cr_expect_eq(s.entries_failed, 0, "%s: %d failed entries, first %d (%s)", names[f], s.entries_failed,
                     s.first_failed_entry, gpuocc_strerror(s.first_failure));
        cr_expect_eq(s.entries_read, s.entries);
        cr_log_info("%s: %d entries (%d compressed), %lld kernels, 0 failed", names[f], s.entries,
                    s.compressed_entries, kernels);
        fprintf(stderr, "# toolkit: %s: %d entries (%d compressed), %d failed, %lld kernels\n", names[f], s.entries,
               s.compressed_entries, s.entries_failed, kernels);
        total_kernels += kernels;
        libraries++;
        free(ws);
        free(k);
        munmap((void *)m.p, m.n);
    }
    fprintf(stderr, "# toolkit: %d libraries with device code, %lld kernels, %d sampled against readelf\n", libraries,
           total_kernels, sampled);
    cr_expect_gt(libraries, 0);
    cr_expect_gt(sampled, 0);
}
#else
Test(toolkit, every_library_reads_without_failure)
{
#ifndef TOOLKIT_SKIP
#define TOOLKIT_SKIP "no CUDA toolkit found next to nvcc: the libraries' device code is not read"
#endif
    cr_skip_test("%s", TOOLKIT_SKIP);
}
#endif
