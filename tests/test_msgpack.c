/*
 * The MessagePack reader (lib/readers/msgpack.c, private: compiled into this test) on documents assembled
 * by hand from the specification's format table (github.com/msgpack/msgpack/blob/master/spec.md), each
 * byte commented with the format it encodes; every proper prefix of a document is truncated; counts and
 * lengths past the end, nesting past the limit, the never-used byte 0xc1 and trailing bytes are refused.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/readers/msgpack.h"

/* {"amdhsa.version": [1, 2], "amdhsa.kernels": [{".name": "k", ".vgpr_count": 300, ".x": -2}]} */
static const uint8_t doc[] = {
    0x82,                                                             /* fixmap, 2 pairs */
    0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'v', 'e', 'r', 's', 'i', 'o', 'n', /* fixstr 14 */
    0x92, 0x01, 0x02,                                                 /* fixarray 2: 1, 2 */
    0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e', 'r', 'n', 'e', 'l', 's',
    0x91,                                                             /* fixarray 1 */
    0x83,                                                             /* fixmap 3 */
    0xa5, '.', 'n', 'a', 'm', 'e', 0xa1, 'k',                         /* ".name": "k" */
    0xab, '.', 'v', 'g', 'p', 'r', '_', 'c', 'o', 'u', 'n', 't', 0xcd, 0x01, 0x2c, /* uint 16: 300 */
    0xa2, '.', 'x', 0xfe,                                             /* negative fixint -2 */
};

static struct gpuocc_mp_value read_ok(struct gpuocc_mp *r)
{
    struct gpuocc_mp_value v;
    cr_assert_eq(gpuocc_mp_read(r, &v), GPUOCC_OK, "at byte %zu", r->pos);
    return v;
}

Test(msgpack, walks_a_hand_assembled_document)
{
    struct gpuocc_mp r = {doc, sizeof doc, 0, 0};
    struct gpuocc_mp_value v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_MAP);
    cr_assert_eq(v.length, 2);
    v = read_ok(&r);
    cr_assert(gpuocc_mp_str_is(&v, "amdhsa.version"));
    cr_assert_not(gpuocc_mp_str_is(&v, "amdhsa.versio"));
    v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_ARRAY);
    cr_assert_eq(v.length, 2);
    v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_UINT);
    cr_assert_eq(v.u, 1);
    v = read_ok(&r);
    cr_assert_eq(v.u, 2);
    v = read_ok(&r);
    cr_assert(gpuocc_mp_str_is(&v, "amdhsa.kernels"));
    size_t kernels_at = r.pos;
    cr_assert_eq(gpuocc_mp_skip(&r), GPUOCC_OK);
    cr_assert_eq(r.pos, sizeof doc, "the skip ends at the document's end");
    r.pos = kernels_at;
    v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_ARRAY);
    v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_MAP);
    cr_assert_eq(v.length, 3);
    v = read_ok(&r);
    cr_assert(gpuocc_mp_str_is(&v, ".name"));
    v = read_ok(&r);
    cr_assert(gpuocc_mp_str_is(&v, "k"));
    cr_assert_eq(v.data, doc + 43, "strings point into the input (byte 43: 1 + 15 + 3 + 15 + 1 + 1 + 6 + 1)");
    v = read_ok(&r);
    cr_assert(gpuocc_mp_str_is(&v, ".vgpr_count"));
    v = read_ok(&r);
    int64_t x;
    cr_assert(gpuocc_mp_int64(&v, &x));
    cr_assert_eq(x, 300);
    read_ok(&r);
    v = read_ok(&r);
    cr_assert_eq(v.type, GPUOCC_MP_INT);
    cr_assert_eq(v.i, -2);
    cr_assert_eq(gpuocc_mp_read(&r, &v), GPUOCC_ERR_TRUNCATED, "nothing after the end");
    cr_assert_eq(gpuocc_mp_check(doc, sizeof doc, 0), GPUOCC_OK);
}

Test(msgpack, every_proper_prefix_is_truncated)
{
    for (size_t n = 0; n < sizeof doc; n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees a read past them */
        memcpy(copy, doc, n);
        cr_assert_eq(gpuocc_mp_check(copy, n, 0), GPUOCC_ERR_TRUNCATED, "prefix of %zu bytes", n);
        free(copy);
    }
}

/* One scalar document: its type and value. */
static struct gpuocc_mp_value scalar(const uint8_t *p, size_t n)
{
    struct gpuocc_mp r = {p, n, 0, 0};
    struct gpuocc_mp_value v = read_ok(&r);
    cr_assert_eq(r.pos, n, "the value takes all %zu bytes", n);
    return v;
}

Test(msgpack, every_numeric_format)
{
    int64_t x;
    struct gpuocc_mp_value v;
    v = scalar((const uint8_t[]){0x7f}, 1); /* positive fixint */
    cr_assert(v.type == GPUOCC_MP_UINT && v.u == 127);
    v = scalar((const uint8_t[]){0xe0}, 1); /* negative fixint: 0xe0 = -32 */
    cr_assert(v.type == GPUOCC_MP_INT && v.i == -32);
    v = scalar((const uint8_t[]){0xcc, 0xff}, 2); /* uint 8 */
    cr_assert(v.type == GPUOCC_MP_UINT && v.u == 255);
    v = scalar((const uint8_t[]){0xce, 0x01, 0x02, 0x03, 0x04}, 5); /* uint 32 */
    cr_assert_eq(v.u, 0x01020304u);
    v = scalar((const uint8_t[]){0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 9); /* uint 64 max */
    cr_assert_eq(v.u, UINT64_MAX);
    cr_assert_not(gpuocc_mp_int64(&v, &x), "above INT64_MAX");
    v = scalar((const uint8_t[]){0xd0, 0x80}, 2); /* int 8 */
    cr_assert(v.type == GPUOCC_MP_INT && v.i == -128);
    v = scalar((const uint8_t[]){0xd1, 0x7f, 0xff}, 3); /* int 16, positive */
    cr_assert_eq(v.i, 32767);
    v = scalar((const uint8_t[]){0xd2, 0xff, 0xff, 0xff, 0xfe}, 5); /* int 32 */
    cr_assert_eq(v.i, -2);
    v = scalar((const uint8_t[]){0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}, 9); /* int 64 min */
    cr_assert_eq(v.i, INT64_MIN);
    cr_assert(gpuocc_mp_int64(&v, &x) && x == INT64_MIN);
    v = scalar((const uint8_t[]){0xca, 0x3f, 0xc0, 0x00, 0x00}, 5); /* float 32: 1.5 */
    cr_assert(v.type == GPUOCC_MP_FLOAT && v.f == 1.5);
    v = scalar((const uint8_t[]){0xcb, 0xc0, 0x04, 0, 0, 0, 0, 0, 0}, 9); /* float 64: -2.5 */
    cr_assert_eq(v.f, -2.5);
    cr_assert_not(gpuocc_mp_int64(&v, &x), "a float is not an integer");
    v = scalar((const uint8_t[]){0xc0}, 1);
    cr_assert_eq(v.type, GPUOCC_MP_NIL);
    v = scalar((const uint8_t[]){0xc3}, 1);
    cr_assert(v.type == GPUOCC_MP_BOOL && v.b);
    v = scalar((const uint8_t[]){0xc2}, 1);
    cr_assert(v.type == GPUOCC_MP_BOOL && !v.b);
}

Test(msgpack, strings_binaries_extensions)
{
    struct gpuocc_mp_value v;
    v = scalar((const uint8_t[]){0xd9, 0x02, 'h', 'i'}, 4); /* str 8 */
    cr_assert(gpuocc_mp_str_is(&v, "hi"));
    v = scalar((const uint8_t[]){0xda, 0x00, 0x01, 'z'}, 4); /* str 16 */
    cr_assert(gpuocc_mp_str_is(&v, "z"));
    v = scalar((const uint8_t[]){0xdb, 0, 0, 0, 0}, 5); /* str 32, empty */
    cr_assert(gpuocc_mp_str_is(&v, ""));
    v = scalar((const uint8_t[]){0xc4, 0x03, 1, 2, 3}, 5); /* bin 8 */
    cr_assert(v.type == GPUOCC_MP_BIN && v.length == 3 && v.data[2] == 3);
    cr_assert_not(gpuocc_mp_str_is(&v, "\x01\x02\x03"), "a binary is not a string");
    v = scalar((const uint8_t[]){0xd4, 0xff, 0x2a}, 3); /* fixext 1, type -1 */
    cr_assert(v.type == GPUOCC_MP_EXT && v.ext_type == -1 && v.length == 1 && v.data[0] == 0x2a);
    v = scalar((const uint8_t[]){0xd8, 0x05, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 18); /* fixext 16 */
    cr_assert(v.ext_type == 5 && v.length == 16 && v.data[15] == 15);
    v = scalar((const uint8_t[]){0xc7, 0x02, 0x07, 0xaa, 0xbb}, 5); /* ext 8: length, type, data */
    cr_assert(v.ext_type == 7 && v.length == 2 && v.data[1] == 0xbb);
    v = scalar((const uint8_t[]){0xc9, 0, 0, 0, 0, 0x01}, 6); /* ext 32, empty */
    cr_assert(v.ext_type == 1 && v.length == 0);
    /* array 16 and map 16 with their elements */
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xdc, 0x00, 0x02, 0xc0, 0xc0}, 5, 0), GPUOCC_OK);
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xdf, 0, 0, 0, 0x01, 0xa1, 'a', 0x90}, 8, 0), GPUOCC_OK);
}

Test(msgpack, lengths_and_counts_past_the_end)
{
    struct gpuocc_mp_value v;
    /* str 32 claiming 4 GiB - 1 */
    static const uint8_t big_str[] = {0xdb, 0xff, 0xff, 0xff, 0xff, 'a'};
    struct gpuocc_mp r = {big_str, sizeof big_str, 0, 0};
    cr_assert_eq(gpuocc_mp_read(&r, &v), GPUOCC_ERR_TRUNCATED);
    cr_assert_eq(r.pos, 0, "the position is untouched");
    /* array 32 and map 32 announcing more elements than bytes remain */
    static const uint8_t big_array[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0, 0xc0};
    cr_assert_eq(gpuocc_mp_check(big_array, sizeof big_array, 0), GPUOCC_ERR_TRUNCATED);
    static const uint8_t map3[] = {0x82, 0xc0, 0xc0, 0xc0}; /* 2 pairs need 4 values, 3 bytes left */
    cr_assert_eq(gpuocc_mp_check(map3, sizeof map3, 0), GPUOCC_ERR_TRUNCATED);
    /* a length field cut short, an extension without its type byte, a uint 64 cut short */
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xda, 0x00}, 2, 0), GPUOCC_ERR_TRUNCATED);
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xc7, 0x00}, 2, 0), GPUOCC_ERR_TRUNCATED);
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xcf, 1, 2, 3, 4, 5, 6, 7}, 8, 0), GPUOCC_ERR_TRUNCATED);
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xd5, 0x01, 0x00}, 3, 0), GPUOCC_ERR_TRUNCATED);
}

Test(msgpack, malformed)
{
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0xc1}, 1, 0), GPUOCC_ERR_FORMAT, "never used");
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0x92, 0x01, 0xc1}, 3, 0), GPUOCC_ERR_FORMAT);
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0x01, 0x02}, 2, 0), GPUOCC_ERR_FORMAT, "a byte after the value");
    cr_assert_eq(gpuocc_mp_check((const uint8_t[]){0}, 0, 0), GPUOCC_ERR_TRUNCATED, "empty");
}

Test(msgpack, nesting_limit)
{
    /* 33 arrays, each holding the next, the innermost empty */
    uint8_t deep[GPUOCC_MP_DEPTH_MAX + 1];
    memset(deep, 0x91, sizeof deep);
    deep[sizeof deep - 1] = 0x90;
    cr_assert_eq(gpuocc_mp_check(deep, sizeof deep, 0), GPUOCC_ERR_UNSUPPORTED, "33 levels, 32 allowed");
    cr_assert_eq(gpuocc_mp_check(deep + 1, sizeof deep - 1, 0), GPUOCC_OK, "32 levels");
    cr_assert_eq(gpuocc_mp_check(deep + 1, sizeof deep - 1, 1000), GPUOCC_OK, "a limit above the most is the most");
    cr_assert_eq(gpuocc_mp_check(deep + sizeof deep - 3, 3, 2), GPUOCC_ERR_UNSUPPORTED, "3 levels, 2 allowed");
    cr_assert_eq(gpuocc_mp_check(deep + sizeof deep - 2, 2, 2), GPUOCC_OK, "2 levels, 2 allowed");
    /* a long flat array is not deep: 1000 nils */
    uint8_t flat[3 + 1000];
    flat[0] = 0xdc, flat[1] = 0x03, flat[2] = 0xe8;
    memset(flat + 3, 0xc0, 1000);
    cr_assert_eq(gpuocc_mp_check(flat, sizeof flat, 1), GPUOCC_OK);
}

/* Where a check fails: the value whose head does not read, the array that opens a level past the limit, the
   first byte after the value; untouched on success. */
Test(msgpack, check_says_where)
{
    size_t at = 99;
    cr_assert_eq(gpuocc_mp_check_at((const uint8_t[]){0x92, 0x01, 0xc1}, 3, 0, &at), GPUOCC_ERR_FORMAT);
    cr_expect_eq(at, 2);
    cr_assert_eq(gpuocc_mp_check_at((const uint8_t[]){0x01, 0x02}, 2, 0, &at), GPUOCC_ERR_FORMAT);
    cr_expect_eq(at, 1);
    cr_assert_eq(gpuocc_mp_check_at((const uint8_t[]){0x92, 0x01, 0xda, 0x00}, 4, 0, &at), GPUOCC_ERR_TRUNCATED);
    cr_expect_eq(at, 2, "the str 16 whose length is cut");
    uint8_t deep[1000];
    memset(deep, 0x91, sizeof deep);
    deep[sizeof deep - 1] = 0xc0;
    cr_assert_eq(gpuocc_mp_check_at(deep, sizeof deep, 0, &at), GPUOCC_ERR_UNSUPPORTED);
    cr_expect_eq(at, GPUOCC_MP_DEPTH_MAX, "the 33rd array, at byte 32");
    cr_assert_eq(gpuocc_mp_check_at(deep, sizeof deep, 5, &at), GPUOCC_ERR_UNSUPPORTED);
    cr_expect_eq(at, 5);
    at = 99;
    cr_assert_eq(gpuocc_mp_check_at(deep + sizeof deep - 3, 3, 0, &at), GPUOCC_OK);
    cr_expect_eq(at, 99);
    cr_assert_eq(gpuocc_mp_check_at(deep, sizeof deep, 0, NULL), GPUOCC_ERR_UNSUPPORTED);
}
