/*
 * A bounded MessagePack reader (msgpack.h).  Format bytes, from the specification's "Formats" overview:
 *   0x00-0x7f positive fixint   0x80-0x8f fixmap   0x90-0x9f fixarray   0xa0-0xbf fixstr   0xc0 nil
 *   0xc1 never used   0xc2/0xc3 false/true   0xc4-0xc6 bin 8/16/32   0xc7-0xc9 ext 8/16/32
 *   0xca/0xcb float 32/64   0xcc-0xcf uint 8-64   0xd0-0xd3 int 8-64   0xd4-0xd8 fixext 1/2/4/8/16
 *   0xd9-0xdb str 8/16/32   0xdc/0xdd array 16/32   0xde/0xdf map 16/32   0xe0-0xff negative fixint
 * Lengths are the bytes after the format byte, big-endian; an extension's type byte follows its length.
 */
#include "msgpack.h"

/* An unsigned big-endian number of `bytes` (1, 2, 4 or 8) bytes. */
static uint64_t be(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v = v << 8 | p[k];
    return v;
}

/* Two's complement of `bytes` bytes, without an implementation-defined conversion. */
static int64_t as_signed(uint64_t v, unsigned bytes)
{
    uint64_t sign = (uint64_t)1 << (bytes * 8 - 1);
    if (!(v & sign))
        return (int64_t)v;
    uint64_t magnitude = bytes == 8 ? ~v + 1 : (sign << 1) - v; /* 1 .. sign */
    return -(int64_t)(magnitude - 1) - 1;
}

static uint32_t depth_limit(const struct gpuocc_mp *r)
{
    return r->depth_max == 0 || r->depth_max > GPUOCC_MP_DEPTH_MAX ? GPUOCC_MP_DEPTH_MAX : r->depth_max;
}

int32_t gpuocc_mp_read(struct gpuocc_mp *r, struct gpuocc_mp_value *out)
{
    if (r->pos >= r->n)
        return GPUOCC_ERR_TRUNCATED;
    const uint8_t *p = r->p + r->pos;
    size_t left = r->n - r->pos - 1; /* bytes after the format byte */
    uint8_t b = p[0];
    struct gpuocc_mp_value v;
    memset(&v, 0, sizeof v);
    size_t head = 1;     /* format byte and length or value bytes */
    uint64_t count = 0;  /* payload bytes (str, bin, ext) or elements (array, map) */
    unsigned size_bytes = 0;
    if (b <= 0x7f) {
        v.type = GPUOCC_MP_UINT;
        v.u = b;
    } else if (b <= 0x8f) {
        v.type = GPUOCC_MP_MAP;
        count = b & 0x0fu;
    } else if (b <= 0x9f) {
        v.type = GPUOCC_MP_ARRAY;
        count = b & 0x0fu;
    } else if (b <= 0xbf) {
        v.type = GPUOCC_MP_STR;
        count = b & 0x1fu;
    } else if (b >= 0xe0) {
        v.type = GPUOCC_MP_INT;
        v.i = (int64_t)b - 256;
    } else {
        switch (b) {
        case 0xc0: v.type = GPUOCC_MP_NIL; break;
        case 0xc1: return GPUOCC_ERR_FORMAT;
        case 0xc2: case 0xc3: v.type = GPUOCC_MP_BOOL; v.b = b == 0xc3; break;
        case 0xc4: case 0xc5: case 0xc6: v.type = GPUOCC_MP_BIN; size_bytes = 1u << (b - 0xc4); break;
        case 0xc7: case 0xc8: case 0xc9: v.type = GPUOCC_MP_EXT; size_bytes = 1u << (b - 0xc7); break;
        case 0xca: case 0xcb: v.type = GPUOCC_MP_FLOAT; head += b == 0xca ? 4 : 8; break;
        case 0xcc: case 0xcd: case 0xce: case 0xcf: v.type = GPUOCC_MP_UINT; head += 1u << (b - 0xcc); break;
        case 0xd0: case 0xd1: case 0xd2: case 0xd3: v.type = GPUOCC_MP_INT; head += 1u << (b - 0xd0); break;
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
            v.type = GPUOCC_MP_EXT;
            count = 1u << (b - 0xd4);
            break;
        case 0xd9: case 0xda: case 0xdb: v.type = GPUOCC_MP_STR; size_bytes = 1u << (b - 0xd9); break;
        case 0xdc: case 0xdd: v.type = GPUOCC_MP_ARRAY; size_bytes = 2u << (b - 0xdc); break;
        default: v.type = GPUOCC_MP_MAP; size_bytes = 2u << (b - 0xde); break; /* 0xde, 0xdf */
        }
    }
    if (size_bytes) { /* an explicit length */
        if (left < size_bytes)
            return GPUOCC_ERR_TRUNCATED;
        count = be(p + 1, size_bytes);
        head += size_bytes;
    }
    if (head - 1 > left)
        return GPUOCC_ERR_TRUNCATED;
    if (v.type == GPUOCC_MP_EXT) { /* the type byte */
        if (head - 1 == left)
            return GPUOCC_ERR_TRUNCATED;
        v.ext_type = (int8_t)as_signed(p[head], 1);
        head++;
    }
    left -= head - 1;
    if (v.type == GPUOCC_MP_FLOAT) {
        if (b == 0xca) {
            uint32_t bits = (uint32_t)be(p + 1, 4);
            float f;
            memcpy(&f, &bits, sizeof f);
            v.f = f;
        } else {
            uint64_t bits = be(p + 1, 8);
            memcpy(&v.f, &bits, sizeof v.f);
        }
    } else if (v.type == GPUOCC_MP_UINT && b >= 0xcc) {
        v.u = be(p + 1, (unsigned)(head - 1));
    } else if (v.type == GPUOCC_MP_INT && b < 0xe0) {
        v.i = as_signed(be(p + 1, (unsigned)(head - 1)), (unsigned)(head - 1));
    }
    size_t payload = 0;
    if (v.type == GPUOCC_MP_STR || v.type == GPUOCC_MP_BIN || v.type == GPUOCC_MP_EXT) {
        if (count > left)
            return GPUOCC_ERR_TRUNCATED;
        payload = (size_t)count;
        v.data = p + head;
    } else if (v.type == GPUOCC_MP_ARRAY || v.type == GPUOCC_MP_MAP) {
        /* each element takes at least one byte: a count past the bytes left is a lie */
        if (count > left || (v.type == GPUOCC_MP_MAP && count > left / 2))
            return GPUOCC_ERR_TRUNCATED;
    }
    v.length = (uint32_t)count; /* at most 32 bits wide in every format */
    r->pos += head + payload;
    *out = v;
    return GPUOCC_OK;
}

/* gpuocc_mp_skip, and on failure *fault = the offset of the value at fault. */
static int32_t skip(struct gpuocc_mp *r, size_t *fault)
{
    uint32_t depth_max = depth_limit(r);
    uint64_t left[GPUOCC_MP_DEPTH_MAX + 1]; /* values still to skip at each level */
    uint32_t depth = 0;
    struct gpuocc_mp at = *r;
    left[0] = 1;
    for (;;) {
        if (left[depth] == 0) {
            if (depth == 0)
                break;
            depth--;
            continue;
        }
        left[depth]--;
        struct gpuocc_mp_value v;
        *fault = at.pos;
        int32_t rc = gpuocc_mp_read(&at, &v);
        if (rc != GPUOCC_OK)
            return rc;
        if (v.type == GPUOCC_MP_ARRAY || v.type == GPUOCC_MP_MAP) {
            if (depth == depth_max)
                return GPUOCC_ERR_UNSUPPORTED;
            left[++depth] = v.type == GPUOCC_MP_MAP ? 2 * (uint64_t)v.length : v.length;
        }
    }
    r->pos = at.pos;
    return GPUOCC_OK;
}

int32_t gpuocc_mp_skip(struct gpuocc_mp *r)
{
    size_t fault;
    return skip(r, &fault);
}

int32_t gpuocc_mp_check_at(const uint8_t *p, size_t n, uint32_t depth_max, size_t *fault)
{
    struct gpuocc_mp r = {p, n, 0, depth_max};
    size_t at = 0;
    int32_t rc = skip(&r, &at);
    if (rc == GPUOCC_OK && r.pos != n)
        rc = GPUOCC_ERR_FORMAT, at = r.pos;
    if (rc != GPUOCC_OK && fault)
        *fault = at;
    return rc;
}

int32_t gpuocc_mp_check(const uint8_t *p, size_t n, uint32_t depth_max)
{
    return gpuocc_mp_check_at(p, n, depth_max, NULL);
}

bool gpuocc_mp_int64(const struct gpuocc_mp_value *v, int64_t *out)
{
    if (v->type == GPUOCC_MP_INT) {
        *out = v->i;
        return true;
    }
    if (v->type == GPUOCC_MP_UINT && v->u <= (uint64_t)INT64_MAX) {
        *out = (int64_t)v->u;
        return true;
    }
    return false;
}

bool gpuocc_mp_str_is(const struct gpuocc_mp_value *v, const char *s)
{
    size_t n = strlen(s);
    return v->type == GPUOCC_MP_STR && v->length == n && (n == 0 || memcmp(v->data, s, n) == 0);
}
