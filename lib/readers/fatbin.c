/*
 * NVIDIA fatbinaries, containers of cubins: one file of its own, or one per translation unit in a host
 * binary's .nv_fatbin section (walk.c finds them there).  Layout, measured on CUDA 13 output and
 * described in docs/inputs.md:
 *   header  u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries that follow;
 *   entry   u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64 payload size (padded to 8),
 *           u32 compressed size at 0x10, u32 SM at 0x1c, u64 flags at 0x28 (0x2000 LZ4, 0x8000 zstd),
 *           u64 uncompressed size at 0x38.
 */
#include "fatbin.h"

#include "bytes.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_HEADER_MIN 16u
#define ENTRY_HEADER_MIN 64u
#define ENTRY_KIND_ELF 2u

#define ENTRY_VERSION 0x0101u

struct walk {
    gpuocc_entry_visit visit;
    void *ctx;
    int32_t index; /* the next entry's ordinal */
    struct gpuocc_walk_counts *counts; /* NULL: not counted */
};

/* A header the walk stops at: `rc`, and what was wrong there for a walk that counts (a scan's), which the
   summary reports. */
static int32_t stop_at(const struct walk *w, int32_t rc, int32_t kind, uint64_t value, int32_t entry, const uint8_t *at)
{
    if (w->counts)
        w->counts->fault = (struct gpuocc_fault){kind, value > INT32_MAX ? INT32_MAX : (int32_t)value, entry, at};
    return rc;
}

/* One fatbinary at p (offset `at` of its section), its entries from offset `first`; *used is its size. */
static int32_t walk_fatbin(struct walk *w, const uint8_t *p, size_t n, uint32_t section, uint64_t at, uint64_t first,
                           size_t *used)
{
    if (n < FATBIN_HEADER_MIN)
        return stop_at(w, GPUOCC_ERR_TRUNCATED, GPUOCC_BINARY_FAULT_FATBIN_SIZE, n, -1, p);
    if (gpuocc_le32(p) != FATBIN_MAGIC)
        return stop_at(w, GPUOCC_ERR_FORMAT, GPUOCC_BINARY_FAULT_FATBIN_MAGIC, 0, -1, p);
    uint64_t header = gpuocc_le16(p + 6), size = gpuocc_le64(p + 8);
    if (header < FATBIN_HEADER_MIN)
        return stop_at(w, GPUOCC_ERR_FORMAT, GPUOCC_BINARY_FAULT_FATBIN_HEADER, header, -1, p);
    if (!gpuocc_fits(n, header, size))
        return stop_at(w, GPUOCC_ERR_TRUNCATED, GPUOCC_BINARY_FAULT_FATBIN_SIZE, n, -1, p);
    const uint8_t *entries = p + header;
    for (uint64_t pos = first; pos < size;) {
        const uint8_t *e = entries + pos;
        if (size - pos < ENTRY_HEADER_MIN)
            return stop_at(w, GPUOCC_ERR_FORMAT, GPUOCC_BINARY_FAULT_ENTRY_SIZE, size - pos, w->index, e);
        uint32_t kind = gpuocc_le16(e), entry_header = gpuocc_le32(e + 4);
        uint64_t payload = gpuocc_le64(e + 8);
        if (entry_header < ENTRY_HEADER_MIN)
            return stop_at(w, GPUOCC_ERR_FORMAT, GPUOCC_BINARY_FAULT_ENTRY_HEADER, entry_header, w->index, e);
        if (!gpuocc_fits((size_t)(size - pos), entry_header, payload))
            return stop_at(w, GPUOCC_ERR_FORMAT, GPUOCC_BINARY_FAULT_ENTRY_SIZE, size - pos, w->index, e);
        uint64_t next = pos + entry_header + payload;
        if (kind == ENTRY_KIND_ELF) {
            if (w->index == INT32_MAX)
                return GPUOCC_ERR_OVERFLOW;
            struct gpuocc_entry entry = {{w->index, section, at, pos}, {w->index + 1, section, at, next},
                                         e + entry_header, (size_t)payload, gpuocc_le64(e + 0x28),
                                         gpuocc_le32(e + 0x10), gpuocc_le64(e + 0x38), GPUOCC_CONTAINER_CUBIN,
                                         gpuocc_le32(e + 0x1c)};
            w->index++;
            int32_t rc = w->visit(w->ctx, &entry);
            if (rc != GPUOCC_OK)
                return rc;
        } else if (w->counts && w->counts->uncompiled < INT32_MAX) {
            w->counts->uncompiled++;
        }
        pos = next;
    }
    if (w->counts && w->counts->containers < INT32_MAX)
        w->counts->containers++;
    *used = (size_t)(header + size);
    return GPUOCC_OK;
}

/* Fatbinaries one after another from offset `from`, zero padding between them (a .nv_fatbin section);
   the first one's entries from `first`. */
static int32_t walk_fatbins(struct walk *w, const uint8_t *p, size_t n, uint32_t section, uint64_t from,
                            uint64_t first)
{
    for (uint64_t pos = from; pos < n;) {
        if (p[pos] == 0) {
            pos++;
            first = 0;
            continue;
        }
        size_t used;
        int32_t rc = walk_fatbin(w, p + pos, (size_t)(n - pos), section, pos, first, &used);
        if (rc != GPUOCC_OK)
            return rc;
        pos += used;
        first = 0;
    }
    return GPUOCC_OK;
}

bool gpuocc_fatbin_check(const uint8_t *p, size_t n, size_t *size)
{
    if (n < FATBIN_HEADER_MIN || gpuocc_le32(p) != FATBIN_MAGIC || gpuocc_le16(p + 4) != 1)
        return false;
    uint64_t header = gpuocc_le16(p + 6), total = gpuocc_le64(p + 8);
    if (header < FATBIN_HEADER_MIN || !gpuocc_fits(n, header, total))
        return false;
    const uint8_t *entries = p + header;
    uint64_t pos = 0;
    while (pos < total) {
        const uint8_t *e = entries + pos;
        if (total - pos < ENTRY_HEADER_MIN || gpuocc_le16(e) == 0 || gpuocc_le16(e + 2) != ENTRY_VERSION)
            return false;
        uint64_t entry_header = gpuocc_le32(e + 4), payload = gpuocc_le64(e + 8);
        if (entry_header < ENTRY_HEADER_MIN || !gpuocc_fits((size_t)(total - pos), entry_header, payload))
            return false;
        pos += entry_header + payload;
    }
    *size = (size_t)(header + total);
    return total > 0;
}

bool gpuocc_is_fatbin(const uint8_t *p, size_t n)
{
    return n >= 4 && gpuocc_le32(p) == FATBIN_MAGIC;
}

int32_t gpuocc_fatbins_walk(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first,
                            int32_t *index, gpuocc_entry_visit visit, void *ctx, struct gpuocc_walk_counts *counts)
{
    struct walk w = {visit, ctx, *index, counts};
    int32_t rc = walk_fatbins(&w, p, n, section, from, first);
    *index = w.index;
    return rc;
}
