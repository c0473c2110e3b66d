/* Comparing what a ptxas report and a binary say about the same compile (test_cubin.c, test_nvcc.c). */
#ifndef GPUOCC_TEST_COMPILED_H
#define GPUOCC_TEST_COMPILED_H

#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 256

struct kernels {
    uint8_t *data;
    size_t n;
    gpuocc_compiled_kernel k[MAX_KERNELS];
    int32_t count;
};

static inline uint8_t *load_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "open %s", path);
    size_t cap = 1 << 16;
    uint8_t *buf = malloc(cap);
    *n = 0;
    for (size_t got; buf && (got = fread(buf + *n, 1, cap - *n, f)) > 0;)
        if ((*n += got) == cap)
            buf = realloc(buf, cap *= 2);
    cr_assert(buf, "read %s", path);
    fclose(f);
    return buf;
}

#ifdef DATA_DIR
/* tests/data/<name>; the buffer is the calling thread's own. */
static inline const char *fixture_path(const char *name)
{
    static _Thread_local char path[512];
    snprintf(path, sizeof path, "%s/%s", DATA_DIR, name);
    return path;
}
#endif

static inline void read_binary(const char *path, struct kernels *out)
{
    out->data = load_file(path, &out->n);
    cr_assert_eq(gpuocc_cubin_read(out->data, out->n, out->k, MAX_KERNELS, &out->count), GPUOCC_OK, "%s", path);
}

/* Every kernel of a binary through the entry-by-entry reader (compressed entries decoded), as
   gpuocc_compiled_kernel records whose names are copied into out->data; *summary tells how it went. */
static inline void read_entries(const uint8_t *file, size_t n, struct kernels *out, gpuocc_binary_summary *summary)
{
    summary->size = sizeof *summary;
    cr_assert_eq(gpuocc_binary_scan(file, n, summary), GPUOCC_OK);
    uint8_t *ws = summary->workspace_bytes ? malloc(summary->workspace_bytes) : NULL;
    size_t names_cap = 1 << 16, used = 0;
    out->data = malloc(names_cap);
    out->n = 0;
    out->count = 0;
    static _Thread_local gpuocc_binary_kernel records[MAX_KERNELS];
    gpuocc_binary_kernel_init(&records[0]);
    for (int32_t e = 0; e < summary->entries; e++) {
        int32_t count = 0;
        if (gpuocc_binary_read_entry(file, n, e, ws, summary->workspace_bytes, records, MAX_KERNELS, &count,
                                     summary) != GPUOCC_OK)
            continue; /* counted in the summary */
        cr_assert_leq(out->count + count, MAX_KERNELS);
        for (int32_t i = 0; i < count; i++) {
            const gpuocc_binary_kernel *b = &records[i];
            const uint8_t *base = b->name_buffer == GPUOCC_BINARY_NAME_INPUT ? file : ws;
            cr_assert_eq(b->entry, e);
            cr_assert_eq(b->size, sizeof *b);
            if (used + b->name_length > names_cap)
                out->data = realloc(out->data, names_cap = 2 * (used + b->name_length));
            memcpy(out->data + used, base + b->name_offset, b->name_length);
            gpuocc_compiled_kernel *k = &out->k[out->count++];
            memset(k, 0, sizeof *k);
            k->name_offset = used;
            k->name_length = b->name_length;
            k->short_offset = used + (b->short_offset - b->name_offset);
            k->short_length = b->short_length;
            used += b->name_length;
            k->cc = b->cc;
            k->registers = b->registers;
            k->barriers = b->barriers;
            k->smem_bytes = b->smem_bytes;
            k->cmem_bytes = b->cmem_bytes;
            k->stack_frame_bytes = b->stack_frame_bytes;
            k->spill_store_bytes = k->spill_load_bytes = k->lmem_bytes = -1;
            k->max_threads_per_block = b->max_threads_per_block;
            k->min_blocks_per_sm = b->min_blocks_per_sm;
            k->max_regs_per_thread = b->max_regs_per_thread;
            k->max_blocks_per_cluster = b->max_blocks_per_cluster;
            k->cluster_x = b->cluster_x;
            k->cluster_y = b->cluster_y;
            k->cluster_z = b->cluster_z;
            k->arch_variant = b->arch_variant;
        }
    }
    out->n = used;
    free(ws);
}

/* Records of two reads agree field for field (names compared by their text). */
static inline void expect_same_records(const struct kernels *a, const struct kernels *b, const char *label)
{
    cr_assert_eq(a->count, b->count, "%s: %d vs %d kernels", label, a->count, b->count);
    for (int32_t i = 0; i < a->count; i++) {
        const gpuocc_compiled_kernel *x = &a->k[i], *y = &b->k[i];
        cr_assert_eq(x->name_length, y->name_length, "%s: kernel %d", label, i);
        cr_assert(memcmp(a->data + x->name_offset, b->data + y->name_offset, x->name_length) == 0, "%s: %d", label, i);
        cr_assert_eq(x->short_offset - x->name_offset, y->short_offset - y->name_offset);
        cr_assert_eq(x->short_length, y->short_length);
        cr_expect(x->cc == y->cc && x->registers == y->registers && x->barriers == y->barriers &&
                      x->smem_bytes == y->smem_bytes && x->cmem_bytes == y->cmem_bytes &&
                      x->stack_frame_bytes == y->stack_frame_bytes &&
                      x->max_threads_per_block == y->max_threads_per_block &&
                      x->min_blocks_per_sm == y->min_blocks_per_sm && x->max_regs_per_thread == y->max_regs_per_thread &&
                      x->max_blocks_per_cluster == y->max_blocks_per_cluster && x->cluster_x == y->cluster_x &&
                      x->cluster_y == y->cluster_y && x->cluster_z == y->cluster_z &&
                      x->arch_variant == y->arch_variant,
                  "%s: kernel %d (%.*s) differs", label, i, (int)x->name_length, (const char *)a->data + x->name_offset);
    }
}

static inline void read_log(const char *path, struct kernels *out)
{
    out->data = load_file(path, &out->n);
    int32_t line;
    cr_assert_eq(gpuocc_ptxas_parse((const char *)out->data, out->n, out->k, MAX_KERNELS, &out->count, &line),
                 GPUOCC_OK, "%s line %d", path, line);
}

/* The kernel of that readable name for target cc (any target when cc is 0). */
static inline const gpuocc_compiled_kernel *find_kernel(const struct kernels *ks, const char *short_name, int32_t cc)
{
    for (int32_t i = 0; i < ks->count; i++)
        if ((cc == 0 || ks->k[i].cc == cc) && ks->k[i].short_length == strlen(short_name) &&
            !memcmp(ks->data + ks->k[i].short_offset, short_name, ks->k[i].short_length))
            return &ks->k[i];
    cr_assert_fail("no kernel %s for sm_%d", short_name, cc);
    return NULL;
}

/* The binary's record for the log's kernel (same mangled name and target, its variant included), or NULL. */
static inline const gpuocc_compiled_kernel *counterpart(const struct kernels *log, const gpuocc_compiled_kernel *p,
                                                        const struct kernels *bin)
{
    for (int32_t j = 0; j < bin->count; j++) {
        const gpuocc_compiled_kernel *c = &bin->k[j];
        if (c->cc == p->cc && c->arch_variant == p->arch_variant && c->name_length == p->name_length &&
            memcmp(bin->data + c->name_offset, log->data + p->name_offset, p->name_length) == 0)
            return c;
    }
    return NULL;
}

/* Every kernel of the log is in the binary, once per target (its variant included), with the same resources,
   and the engine gives both records the same occupancy at 256 threads. */
static inline void expect_agreement(const struct kernels *log, const struct kernels *bin, const char *label)
{
    cr_expect_eq(bin->count, log->count, "%s: %d kernels in the binary, %d in the log", label, bin->count,
                 log->count);
    for (int32_t i = 0; i < log->count; i++) {
        const gpuocc_compiled_kernel *p = &log->k[i], *c = counterpart(log, p, bin);
        int len = (int)p->name_length;
        const char *name = (const char *)log->data + p->name_offset;
        cr_assert(c, "%s: %.*s (sm_%d%s) is not in the binary", label, len, name, p->cc,
                  p->arch_variant == 'a' ? "a" : p->arch_variant == 'f' ? "f" : "");
        cr_expect_eq(c->registers, p->registers, "%s: %.*s sm_%d registers", label, len, name, p->cc);
        cr_expect_eq(c->barriers, p->barriers, "%s: %.*s sm_%d barriers", label, len, name, p->cc);
        cr_expect_eq(c->smem_bytes, p->smem_bytes, "%s: %.*s sm_%d smem %lld vs %lld", label, len, name, p->cc,
                     (long long)c->smem_bytes, (long long)p->smem_bytes);
        cr_expect_eq(c->stack_frame_bytes, p->stack_frame_bytes, "%s: %.*s sm_%d stack", label, len, name, p->cc);
        if (p->cmem_bytes >= 0) /* CUDA 13 prints cmem for sm_75 and sm_80 only */
            cr_expect_eq(c->cmem_bytes, p->cmem_bytes, "%s: %.*s sm_%d cmem", label, len, name, p->cc);
        cr_expect_eq(c->short_length, p->short_length);
        cr_expect_eq(c->spill_store_bytes, -1, "a cubin does not record spills");

        char arch[16];
        snprintf(arch, sizeof arch, "sm_%d", p->cc);
        gpuocc_device d = test_device(arch);
        gpuocc_kernel kp = test_kernel(256, p->registers, p->smem_bytes, 0);
        gpuocc_kernel kc = test_kernel(256, c->registers, c->smem_bytes, 0);
        kp.barriers = p->barriers;
        kc.barriers = c->barriers;
        gpuocc_result rp = test_occupancy(&d, &kp), rc = test_occupancy(&d, &kc);
        cr_expect_eq(rp.blocks_per_sm, rc.blocks_per_sm);
        cr_expect_eq(rp.limiters, rc.limiters);
    }
}

#endif
