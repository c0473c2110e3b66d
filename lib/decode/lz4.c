/*
 * The LZ4 block format (lz4's doc/lz4_Block_format.md): a series of sequences, each a token (high nibble
 * literal length, low nibble match length - 4, 15 meaning "more bytes follow, each added, until one is
 * not 255"), the literals, a 2-byte little-endian offset (never 0) and the match, copied from `offset`
 * bytes back and possibly overlapping itself.  The last sequence has literals only and ends the block.
 */
#include "decode.h"

#include <string.h>

/* A length nibble of 15 continues in the following bytes. */
static int32_t lz4_read_length(const uint8_t **ip, const uint8_t *end, size_t *length)
{
    if (*length != 15)
        return GPUOCC_OK;
    for (;;) {
        if (*ip == end)
            return GPUOCC_ERR_TRUNCATED;
        uint8_t b = *(*ip)++;
        if (*length > SIZE_MAX - 255)
            return GPUOCC_ERR_FORMAT;
        *length += b;
        if (b != 255)
            return GPUOCC_OK;
    }
}

int32_t gpuocc_lz4_block_decompress(const void *src, size_t src_len, void *dst, size_t dst_cap, size_t *dst_len)
{
    if (!src || !dst_len || (!dst && dst_cap > 0))
        return GPUOCC_ERR_NULL;
    uint8_t none;
    const uint8_t *ip = (const uint8_t *)src, *iend = ip + src_len;
    uint8_t *out = dst ? (uint8_t *)dst : &none; /* dst_cap is 0: never written */
    size_t op = 0;
    if (src_len == 0)
        return GPUOCC_ERR_TRUNCATED;
    for (;;) {
        if (ip == iend)
            return GPUOCC_ERR_TRUNCATED;
        uint8_t token = *ip++;
        size_t literals = token >> 4;
        int32_t rc = lz4_read_length(&ip, iend, &literals);
        if (rc != GPUOCC_OK)
            return rc;
        if (literals > (size_t)(iend - ip))
            return GPUOCC_ERR_TRUNCATED;
        if (literals > dst_cap - op)
            return GPUOCC_ERR_BUFFER;
        memcpy(out + op, ip, literals);
        ip += literals;
        op += literals;
        if (ip == iend)
            break; /* the last sequence: literals only */
        if (iend - ip < 2)
            return GPUOCC_ERR_TRUNCATED;
        size_t offset = (size_t)ip[0] | (size_t)ip[1] << 8;
        ip += 2;
        if (offset == 0 || offset > op)
            return GPUOCC_ERR_FORMAT;
        size_t match = token & 15;
        if ((rc = lz4_read_length(&ip, iend, &match)) != GPUOCC_OK)
            return rc;
        match += 4;
        if (match > dst_cap - op)
            return GPUOCC_ERR_BUFFER;
        uint8_t *d = out + op;
        const uint8_t *s = d - offset;
        if (offset >= match) {
            memcpy(d, s, match);
        } else {
            /* overlapping: the bytes from s repeat with period `offset`; copy in growing chunks that
               never overlap what they read */
            for (size_t done = 0; done < match;) {
                size_t chunk = done + offset < match - done ? done + offset : match - done;
                memcpy(d + done, s, chunk);
                done += chunk;
            }
        }
        op += match;
    }
    *dst_len = op;
    return GPUOCC_OK;
}
