/*
 * Benchmark of the compressed-binary path (meson test --benchmark), as ratios against references run in
 * the same process, with the machine's load printed beside them:
 *   1. zstd decode throughput of lib/decode against libzstd on the same frames (the zstd entries of
 *      libcublasLt when the toolkit is here, else frames libzstd makes from our cubins): at least 0.5x;
 *   2. reading the whole of libcublasLt (scan, then every entry decoded and read, as `gpuocc binary` does,
 *      in a child process) against `zstd -d` of the same frames: CPU time at most 2x, and the child reads
 *      every entry with its heap limited (RLIMIT_DATA) to 64 MiB plus the largest entry.  Its peak resident
 *      size is printed beside: it also counts the mapped file's pages the scan for fatbinaries in the data
 *      sections touches (file-backed, given back under memory pressure), about 400 MiB of libcublasLt's.
 * Part 2 is skipped (with the reason) without the toolkit or the zstd program.
 * Usage: bench_decode [--read FILE]   (--read: the child's job)
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include "load.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "../../lib/decode/decode.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const uint8_t *map_file(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    *n = (size_t)st.st_size;
    return p == MAP_FAILED ? NULL : p;
}

/* The child: what `gpuocc binary` does with a file, without printing. */
static int read_whole(const char *path)
{
    size_t n;
    const uint8_t *p = map_file(path, &n);
    if (!p)
        return 2;
    gpuocc_binary_summary s = {.size = sizeof s};
    if (gpuocc_binary_scan(p, n, &s) != GPUOCC_OK)
        return 2;
    uint8_t *ws = malloc(s.workspace_bytes ? s.workspace_bytes : 1);
    gpuocc_binary_kernel *k = malloc(4096 * sizeof *k);
    if (!ws || !k) {
        printf("child: no memory for the workspace (%llu bytes) under the heap limit\n",
               (unsigned long long)s.workspace_bytes);
        return 3;
    }
    gpuocc_binary_kernel_init(&k[0]);
    long long kernels = 0;
    for (int32_t e = 0; e < s.entries; e++) {
        int32_t count;
        if (gpuocc_binary_read_entry(p, n, e, ws, s.workspace_bytes, k, 4096, &count, &s) == GPUOCC_OK)
            kernels += count;
        if (e % 64 == 63)
            madvise((void *)p, n, MADV_DONTNEED);
    }
    printf("child: %d entries, %d failed, %lld kernels, largest entry %llu bytes\n", s.entries, s.entries_failed,
           kernels, (unsigned long long)s.largest_entry_bytes);
    return s.entries_failed ? 1 : 0;
}

struct frames {
    const uint8_t **p;
    size_t *len, *out;
    size_t count, cap, largest, total_in, total_out;
};

static void add_frame(struct frames *f, const uint8_t *p, size_t len, size_t out)
{
    if (f->count == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 1024;
        f->p = realloc(f->p, f->cap * sizeof *f->p);
        f->len = realloc(f->len, f->cap * sizeof *f->len);
        f->out = realloc(f->out, f->cap * sizeof *f->out);
    }
    f->p[f->count] = p;
    f->len[f->count] = len;
    f->out[f->count++] = out;
    f->total_in += len;
    f->total_out += out;
    if (out > f->largest)
        f->largest = out;
}

#ifdef TOOLKIT_LIB64 /* read only from the toolkit's libraries */
static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The zstd ELF entries of a host ELF's .nv_fatbin (layout in docs/inputs.md). */
static void collect_frames(const uint8_t *p, size_t n, struct frames *f)
{
    uint64_t shoff = le(p + 40, 8), shnum = le(p + 60, 2), shstr = le(p + 62, 2);
    const uint8_t *strtab = p + le(p + shoff + shstr * 64 + 24, 8);
    for (uint64_t i = 1; i < shnum; i++) {
        const uint8_t *h = p + shoff + i * 64;
        if (strcmp((const char *)strtab + le(h, 4), ".nv_fatbin") != 0)
            continue;
        const uint8_t *s = p + le(h + 24, 8);
        size_t size = (size_t)le(h + 32, 8);
        for (size_t pos = 0; pos + 16 <= size;) {
            if (s[pos] == 0) {
                pos++;
                continue;
            }
            size_t header = (size_t)le(s + pos + 6, 2), body = (size_t)le(s + pos + 8, 8);
            for (size_t e = pos + header; e < pos + header + body;) {
                size_t eh = (size_t)le(s + e + 4, 4), payload = (size_t)le(s + e + 8, 8);
                if (le(s + e, 2) == 2 && (le(s + e + 0x28, 8) & 0x8000))
                    add_frame(f, s + e + eh, (size_t)le(s + e + 0x10, 4), (size_t)le(s + e + 0x38, 8));
                e += eh + payload;
            }
            pos += header + body;
        }
    }
    (void)n;
}
#endif

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--read"))
        return read_whole(argv[2]);
    int failed = 0;
    struct frames f = {0};
    const char *lt = NULL;
#ifdef TOOLKIT_LIB64
    static const char lt_path[] = TOOLKIT_LIB64 "/libcublasLt.so";
    size_t lt_n = 0;
    const uint8_t *lt_p = map_file(lt_path, &lt_n);
    if (lt_p) {
        collect_frames(lt_p, lt_n, &f);
        lt = lt_path;
    }
#endif
    if (f.count == 0) { /* no toolkit: frames of our own cubins, at nvcc's kind of level */
        static const char *fixtures[] = {DATA_DIR "/kernels_sm75.cubin", DATA_DIR "/kernels_sm90.cubin",
                                         DATA_DIR "/kernels_sm120.cubin"};
        for (int r = 0; r < 30; r++)
            for (size_t i = 0; i < 3; i++) {
                size_t n;
                const uint8_t *p = map_file(fixtures[i], &n);
                size_t cap = ZSTD_compressBound(n);
                uint8_t *c = malloc(cap);
                size_t cn = ZSTD_compress(c, cap, p, n, 19);
                add_frame(&f, c, cn, n);
            }
    }
    size_t wn = gpuocc_zstd_workspace_bytes();
    void *w = malloc(wn);
    uint8_t *out = malloc(f.largest), *ref = malloc(f.largest);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    /* best of three CPU times each, alternating, the same frames */
    double ours = 1e30, lib = 1e30;
    for (int round = 0; round < 3; round++) {
        double t0 = cpu_now();
        for (size_t i = 0; i < f.count; i++) {
            size_t dl, used;
            if (gpuocc_zstd_decompress(f.p[i], f.len[i], out, f.out[i], w, wn, &dl, &used) != GPUOCC_OK) {
                fprintf(stderr, "frame %zu: decode failed\n", i);
                return 1;
            }
        }
        double t1 = cpu_now();
        for (size_t i = 0; i < f.count; i++)
            if (ZSTD_isError(ZSTD_decompressDCtx(dctx, ref, f.out[i], f.p[i], f.len[i])))
                return 1;
        double t2 = cpu_now();
        if (t1 - t0 < ours)
            ours = t1 - t0;
        if (t2 - t1 < lib)
            lib = t2 - t1;
    }
    double ratio = lib / ours;
    printf("zstd decode: %zu frames, %.1f MB -> %.1f MB (%s); gpuocc %.3f s CPU (%.0f MB/s), libzstd %.3f s CPU "
           "(%.0f MB/s): throughput ratio %.2fx (need >= 0.5x); load %.2f\n",
           f.count, f.total_in / 1e6, f.total_out / 1e6, lt ? "libcublasLt" : "fixture cubins", ours,
           f.total_out / 1e6 / ours, lib, f.total_out / 1e6 / lib, ratio, bench_load());
    if (ratio < 0.5)
        failed = 1;

    if (!lt) {
        printf("whole library: skipped (no CUDA toolkit lib64 with libcublasLt.so)\n");
        return failed;
    }
    if (system("zstd --version > /dev/null 2>&1") != 0) {
        printf("whole library: skipped (no zstd program)\n");
        return failed;
    }
    /* the same frames for zstd -d, one after another in a file */
    char frames_path[] = "/tmp/gpuocc-bench-XXXXXX";
    int fd = mkstemp(frames_path);
    for (size_t i = 0; i < f.count; i++)
        if (write(fd, f.p[i], f.len[i]) != (ssize_t)f.len[i])
            return 1;
    close(fd);
    char command[512];
    snprintf(command, sizeof command, "zstd -q -d -c '%s' > /dev/null", frames_path);
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    int zrc = system(command);
    getrusage(RUSAGE_CHILDREN, &after);
    unlink(frames_path);
    double zstd_cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
                      (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec) * 1e-6 +
                      (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) +
                      (double)(after.ru_stime.tv_usec - before.ru_stime.tv_usec) * 1e-6;
    /* our whole read in a fresh process, for its own CPU time, its heap limited */
    double budget_mb = 64.0 + (double)f.largest / (1024.0 * 1024.0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit heap = {(rlim_t)(budget_mb * 1024 * 1024), (rlim_t)(budget_mb * 1024 * 1024)};
        if (setrlimit(RLIMIT_DATA, &heap) != 0)
            _exit(126);
        execl("/proc/self/exe", argv[0], "--read", lt, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage child;
    wait4(pid, &status, 0, &child);
    double ours_cpu = (double)child.ru_utime.tv_sec + (double)child.ru_utime.tv_usec * 1e-6 +
                      (double)child.ru_stime.tv_sec + (double)child.ru_stime.tv_usec * 1e-6;
    double rss_mb = (double)child.ru_maxrss / 1024.0;
    double whole = ours_cpu / zstd_cpu;
    bool read_all = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    printf("whole libcublasLt: gpuocc %.3f s CPU, zstd -d %.3f s CPU on the same %zu frames: %.2fx (need <= 2x); "
           "every entry read with the heap limited to %.1f MiB (64 MiB + largest entry): %s; peak RSS %.1f MiB "
           "(the mapped file's pages counted); load %.2f\n",
           ours_cpu, zstd_cpu, f.count, whole, budget_mb, read_all ? "yes" : "NO", rss_mb, bench_load());
    if (zrc != 0 || !read_all || whole > 2.0)
        failed = 1;
    return failed;
}
