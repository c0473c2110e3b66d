/*
 * Clang offload bundles (clang's ClangOffloadBundler documentation, "Bundled Binary File Layout"), the
 * device code of HIP programs: a file of its own, or the .hip_fatbin section of a host object, executable
 * or shared library, where bundles follow one another with zero padding between them.  Little-endian:
 *   "__CLANG_OFFLOAD_BUNDLE__" (24 bytes), u64 number of entries, then per entry u64 offset (from the
 *   bundle's start), u64 size, u64 triple size and the triple ("hipv4-amdgcn-amd-amdhsa--gfx90a";
 *   "host-x86_64-..." for the host's empty entry).
 * Compressed bundles (the same documentation, "Compressed Offload Bundles"; clang 19 writes version 2):
 *   "CCOB", u16 version, u16 method (llvm::compression::Format: 0 zlib, 1 zstd), then
 *   v1: u32 uncompressed size, u64 hash (20 bytes in all; the bundle's end is not recorded)
 *   v2: u32 total size, u32 uncompressed size, u64 hash (24 bytes)
 *   v3: u64 total size, u64 uncompressed size, u64 hash (32 bytes)
 *   and the compressed uncompressed-bundle.  The hash is not checked (the zstd frame's checksum is).
 * Every AMDGPU entry of an uncompressed bundle is one entry of the walk; a compressed bundle is one.
 */
#include "bundle.h"

#include "bytes.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_SIZE 24u
#define BUNDLE_HEADER_SIZE 32u /* magic and entry count */
#define DESCRIPTOR_SIZE 24u    /* offset, size, triple size; the triple follows */
#define CCOB_MAGIC "CCOB"

static bool is_plain_bundle(const uint8_t *p, size_t n)
{
    return n >= BUNDLE_MAGIC_SIZE && memcmp(p, BUNDLE_MAGIC, BUNDLE_MAGIC_SIZE) == 0;
}

static bool is_compressed_bundle(const uint8_t *p, size_t n)
{
    return n >= 4 && memcmp(p, CCOB_MAGIC, 4) == 0;
}

bool gpuocc_is_bundle(const uint8_t *p, size_t n)
{
    return is_plain_bundle(p, n) || is_compressed_bundle(p, n);
}

/* Whether an entry's triple names AMDGPU device code: "<kind>-amdgcn-...". */
static bool is_amdgpu_triple(const uint8_t *t, uint64_t length)
{
    const uint8_t *dash = (const uint8_t *)memchr(t, '-', (size_t)length);
    if (!dash)
        return false;
    size_t rest = (size_t)(length - (uint64_t)(dash + 1 - t));
    return rest >= 6 && memcmp(dash + 1, "amdgcn", 6) == 0;
}

/* One entry descriptor at `pos` of the bundle `p` (n bytes from the bundle's start), checked. */
struct descriptor {
    uint64_t offset, size, next; /* next: the following descriptor's position */
    bool amdgpu;
};

static int32_t read_descriptor(const uint8_t *p, size_t n, uint64_t pos, struct descriptor *d)
{
    if (!gpuocc_fits(n, pos, DESCRIPTOR_SIZE))
        return GPUOCC_ERR_TRUNCATED;
    d->offset = gpuocc_le64(p + pos);
    d->size = gpuocc_le64(p + pos + 8);
    uint64_t triple = gpuocc_le64(p + pos + 16);
    if (!gpuocc_fits(n, pos + DESCRIPTOR_SIZE, triple))
        return GPUOCC_ERR_TRUNCATED;
    if (!gpuocc_fits(n, d->offset, d->size))
        return GPUOCC_ERR_FORMAT; /* the entry lies outside the bundle */
    d->amdgpu = d->size > 0 && is_amdgpu_triple(p + pos + DESCRIPTOR_SIZE, triple);
    d->next = pos + DESCRIPTOR_SIZE + triple;
    return GPUOCC_OK;
}

/* The number of entries, checked against the bytes left (each descriptor takes 24 at least). */
static int32_t entry_count(const uint8_t *p, size_t n, uint64_t *count)
{
    if (n < BUNDLE_HEADER_SIZE)
        return GPUOCC_ERR_TRUNCATED;
    *count = gpuocc_le64(p + BUNDLE_MAGIC_SIZE);
    return *count > (n - BUNDLE_HEADER_SIZE) / DESCRIPTOR_SIZE ? GPUOCC_ERR_TRUNCATED : GPUOCC_OK;
}

/* An uncompressed bundle at `at` of its section: its AMDGPU entries from ordinal `first`; *used is its
   size (the furthest end of its descriptors and entries). */
static int32_t walk_plain(const uint8_t *p, size_t n, uint32_t section, uint64_t at, uint64_t first, int32_t *index,
                          gpuocc_entry_visit visit, void *ctx, size_t *used)
{
    uint64_t count;
    int32_t rc = entry_count(p, n, &count);
    if (rc != GPUOCC_OK)
        return rc;
    uint64_t pos = BUNDLE_HEADER_SIZE, end = pos;
    for (uint64_t i = 0; i < count; i++) {
        struct descriptor d;
        if ((rc = read_descriptor(p, n, pos, &d)) != GPUOCC_OK)
            return rc;
        pos = d.next;
        end = pos > end ? pos : end;
        end = d.offset + d.size > end ? d.offset + d.size : end;
        if (i < first || !d.amdgpu)
            continue;
        if (*index == INT32_MAX)
            return GPUOCC_ERR_OVERFLOW;
        struct gpuocc_entry e = {{*index, section, at, i}, {*index + 1, section, at, i + 1}, p + d.offset,
                                 (size_t)d.size, 0, d.size, 0, GPUOCC_CONTAINER_AMDGPU, 0};
        ++*index;
        if ((rc = visit(ctx, &e)) != GPUOCC_OK)
            return rc;
    }
    *used = (size_t)end;
    return GPUOCC_OK;
}

/* Where the next bundle's magic is after `from` (n when none): a v1 CCOB does not record its size. */
static size_t next_magic(const uint8_t *p, size_t n, size_t from)
{
    for (size_t i = from; i < n; i++)
        if ((p[i] == 'C' || p[i] == '_') && gpuocc_is_bundle(p + i, n - i))
            return i;
    return n;
}

/* A compressed bundle at `at`: one entry (unless `first` is past it); *used is its size. */
static int32_t walk_compressed(const uint8_t *p, size_t n, uint32_t section, uint64_t at, uint64_t first,
                               int32_t *index, gpuocc_entry_visit visit, void *ctx, size_t *used)
{
    if (n < 8)
        return GPUOCC_ERR_TRUNCATED;
    uint32_t version = gpuocc_le16(p + 4), method = gpuocc_le16(p + 6);
    uint64_t header, total, uncompressed;
    switch (version) {
    case 1:
        header = 20;
        if (n < header)
            return GPUOCC_ERR_TRUNCATED;
        uncompressed = gpuocc_le32(p + 8);
        total = next_magic(p, n, (size_t)header);
        break;
    case 2:
        header = 24;
        if (n < header)
            return GPUOCC_ERR_TRUNCATED;
        total = gpuocc_le32(p + 8);
        uncompressed = gpuocc_le32(p + 12);
        break;
    case 3:
        header = 32;
        if (n < header)
            return GPUOCC_ERR_TRUNCATED;
        total = gpuocc_le64(p + 8);
        uncompressed = gpuocc_le64(p + 16);
        break;
    default:
        return GPUOCC_ERR_UNSUPPORTED;
    }
    if (total < header || uncompressed == 0)
        return GPUOCC_ERR_FORMAT;
    if (total > n)
        return GPUOCC_ERR_TRUNCATED;
    *used = (size_t)total;
    if (first > 0)
        return GPUOCC_OK;
    if (*index == INT32_MAX)
        return GPUOCC_ERR_OVERFLOW;
    struct gpuocc_entry e = {{*index, section, at, 0}, {*index + 1, section, at, 1}, p + header,
                             (size_t)(total - header), method, total - header, uncompressed, GPUOCC_CONTAINER_CCOB, 0};
    ++*index;
    return visit(ctx, &e);
}

static int32_t ignore_entry(void *ctx, const struct gpuocc_entry *e)
{
    (void)ctx;
    (void)e;
    return GPUOCC_OK;
}

bool gpuocc_bundle_check(const uint8_t *p, size_t n, size_t *size)
{
    int32_t index = 0;
    size_t used = 0;
    int32_t rc = is_plain_bundle(p, n)        ? walk_plain(p, n, 0, 0, 0, &index, ignore_entry, NULL, &used)
                 : is_compressed_bundle(p, n) ? walk_compressed(p, n, 0, 0, 0, &index, ignore_entry, NULL, &used)
                                              : GPUOCC_ERR_FORMAT;
    *size = used;
    return rc == GPUOCC_OK && used > 0;
}

int32_t gpuocc_bundles_walk(const uint8_t *p, size_t n, uint32_t section, uint64_t from, uint64_t first,
                            int32_t *index, gpuocc_entry_visit visit, void *ctx, struct gpuocc_walk_counts *counts)
{
    for (uint64_t pos = from; pos < n;) {
        if (p[pos] == 0) { /* padding to the next bundle's alignment */
            pos++;
            first = 0;
            continue;
        }
        const uint8_t *b = p + pos;
        size_t left = (size_t)(n - pos), used = 0;
        int32_t rc;
        if (is_plain_bundle(b, left))
            rc = walk_plain(b, left, section, pos, first, index, visit, ctx, &used);
        else if (is_compressed_bundle(b, left))
            rc = walk_compressed(b, left, section, pos, first, index, visit, ctx, &used);
        else
            rc = GPUOCC_ERR_FORMAT;
        if (rc != GPUOCC_OK)
            return rc;
        if (counts && counts->containers < INT32_MAX)
            counts->containers++;
        pos += used;
        first = 0;
    }
    return GPUOCC_OK;
}

int32_t gpuocc_bundle_code_objects(const uint8_t *p, size_t n,
                                   int32_t (*each)(void *ctx, const uint8_t *object, size_t n), void *ctx)
{
    if (!is_plain_bundle(p, n))
        return GPUOCC_ERR_FORMAT;
    uint64_t count;
    int32_t rc = entry_count(p, n, &count);
    for (uint64_t i = 0, pos = BUNDLE_HEADER_SIZE; rc == GPUOCC_OK && i < count; i++) {
        struct descriptor d;
        if ((rc = read_descriptor(p, n, pos, &d)) != GPUOCC_OK)
            break;
        pos = d.next;
        if (d.amdgpu)
            rc = each(ctx, p + d.offset, (size_t)d.size);
    }
    return rc;
}
