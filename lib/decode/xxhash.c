/*
 * XXH64, as the xxHash specification (doc/xxhash_spec.md, "XXH64 algorithm description") defines it:
 * four accumulators over 32-byte stripes, a xxh_merge, the tail in 8-, 4- and 1-byte steps, and an avalanche.
 * Zstandard's content checksum is its low 32 bits with seed 0 (RFC 8878, section 3.1.1).
 */
#include "decode.h"

#include <string.h>

#define PRIME1 0x9E3779B185EBCA87u
#define PRIME2 0xC2B2AE3D27D4EB4Fu
#define PRIME3 0x165667B19E3779F9u
#define PRIME4 0x85EBCA77C2B2AE63u
#define PRIME5 0x27D4EB2F165667C5u

static inline uint64_t xxh_rotl64(uint64_t x, unsigned r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t xxh_load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint32_t xxh_load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t xxh_round64(uint64_t acc, uint64_t lane)
{
    return xxh_rotl64(acc + lane * PRIME2, 31) * PRIME1;
}

static inline uint64_t xxh_merge(uint64_t acc, uint64_t v)
{
    return (acc ^ xxh_round64(0, v)) * PRIME1 + PRIME4;
}

uint64_t gpuocc_xxh64(const void *data, size_t length, uint64_t seed)
{
    const uint8_t *p = (const uint8_t *)data, *end = p + length;
    uint64_t acc;
    if (length >= 32) {
        uint64_t v1 = seed + PRIME1 + PRIME2, v2 = seed + PRIME2, v3 = seed, v4 = seed - PRIME1;
        for (; end - p >= 32; p += 32) {
            v1 = xxh_round64(v1, xxh_load64(p));
            v2 = xxh_round64(v2, xxh_load64(p + 8));
            v3 = xxh_round64(v3, xxh_load64(p + 16));
            v4 = xxh_round64(v4, xxh_load64(p + 24));
        }
        acc = xxh_rotl64(v1, 1) + xxh_rotl64(v2, 7) + xxh_rotl64(v3, 12) + xxh_rotl64(v4, 18);
        acc = xxh_merge(xxh_merge(xxh_merge(xxh_merge(acc, v1), v2), v3), v4);
    } else {
        acc = seed + PRIME5;
    }
    acc += (uint64_t)length;
    for (; end - p >= 8; p += 8)
        acc = xxh_rotl64(acc ^ xxh_round64(0, xxh_load64(p)), 27) * PRIME1 + PRIME4;
    if (end - p >= 4) {
        acc = xxh_rotl64(acc ^ (uint64_t)xxh_load32(p) * PRIME1, 23) * PRIME2 + PRIME3;
        p += 4;
    }
    for (; p < end; p++)
        acc = xxh_rotl64(acc ^ *p * PRIME5, 11) * PRIME1;
    acc ^= acc >> 33;
    acc *= PRIME2;
    acc ^= acc >> 29;
    acc *= PRIME3;
    acc ^= acc >> 32;
    return acc;
}
