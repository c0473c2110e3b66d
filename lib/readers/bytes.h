/* Bounded little-endian reads: the readers' lowest primitive. */
#ifndef GPUOCC_READERS_BYTES_H
#define GPUOCC_READERS_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether [offset, offset + size) lies inside a buffer of `length` bytes, without overflow. */
static inline bool gpuocc_fits(size_t length, uint64_t offset, uint64_t size)
{
    return offset <= length && size <= length - offset;
}

static inline uint16_t gpuocc_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t gpuocc_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t gpuocc_le64(const uint8_t *p)
{
    return (uint64_t)gpuocc_le32(p) | (uint64_t)gpuocc_le32(p + 4) << 32;
}

static inline bool gpuocc_has_prefix(const char *s, size_t length, const char *prefix)
{
    size_t n = strlen(prefix);
    return length >= n && memcmp(s, prefix, n) == 0;
}

#endif
