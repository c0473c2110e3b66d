/*
 * MessagePack, read in place (the format of the AMDGPU code-object metadata note).  Written from the
 * MessagePack specification (github.com/msgpack/msgpack/blob/master/spec.md): every value opens with one
 * format byte; multi-byte lengths and numbers are big-endian.  Nothing is allocated: strings, binaries
 * and extension payloads are pointers into the input.  Every read is checked against the input's end, and
 * nesting deeper than the reader's `depth_max` is refused, so a hostile document costs at most one pass.
 */
#ifndef GPUOCC_MSGPACK_H
#define GPUOCC_MSGPACK_H

#include "../core/core.h"

/* Nesting the readers accept at most (arrays and maps within one another). */
#define GPUOCC_MP_DEPTH_MAX 32u

enum {
    GPUOCC_MP_NIL = 1,
    GPUOCC_MP_BOOL,
    GPUOCC_MP_UINT,  /* positive fixint, uint 8/16/32/64: `u` */
    GPUOCC_MP_INT,   /* negative fixint, int 8/16/32/64: `i` (which may be >= 0) */
    GPUOCC_MP_FLOAT, /* float 32/64: `f` */
    GPUOCC_MP_STR,   /* `data`, `length` bytes (UTF-8 is not checked) */
    GPUOCC_MP_BIN,
    GPUOCC_MP_ARRAY, /* `length` elements follow */
    GPUOCC_MP_MAP,   /* `length` key/value pairs follow */
    GPUOCC_MP_EXT    /* `ext_type`, `data`, `length` */
};

struct gpuocc_mp_value {
    int type;
    bool b;
    int8_t ext_type;
    uint32_t length;
    uint64_t u;
    int64_t i;
    double f;
    const uint8_t *data;
};

/* A position in a document of `n` bytes at `p`. */
struct gpuocc_mp {
    const uint8_t *p;
    size_t n, pos;
    uint32_t depth_max; /* at most GPUOCC_MP_DEPTH_MAX; 0 means GPUOCC_MP_DEPTH_MAX */
};

/* Read one value's head at the position and move past it: a scalar whole, a string, binary or extension
   with its payload, an array or map with its count only (its elements follow).  GPUOCC_ERR_TRUNCATED if
   it runs past the end (an array or map also when it announces more elements than bytes remain: each
   element takes at least one), GPUOCC_ERR_FORMAT for the byte 0xc1 the format never uses.  The position
   and `v` are untouched on failure. */
int32_t gpuocc_mp_read(struct gpuocc_mp *r, struct gpuocc_mp_value *v);

/* Move past one whole value, nested ones included.  Errors of gpuocc_mp_read, and GPUOCC_ERR_UNSUPPORTED
   for nesting deeper than depth_max.  The position is untouched on failure. */
int32_t gpuocc_mp_skip(struct gpuocc_mp *r);

/* Whether [p, p + n) is exactly one well-formed value nested at most depth_max deep: GPUOCC_OK, an error
   of gpuocc_mp_skip, or GPUOCC_ERR_FORMAT when bytes follow the value. */
int32_t gpuocc_mp_check(const uint8_t *p, size_t n, uint32_t depth_max);
/* The same, and on failure *fault (may be NULL) is the offset of the value at fault: the one whose head
   does not read, the array or map that opens a level past depth_max, or the first byte after the value. */
int32_t gpuocc_mp_check_at(const uint8_t *p, size_t n, uint32_t depth_max, size_t *fault);

/* An integer value as int64_t; false for other types and for uint values above INT64_MAX. */
bool gpuocc_mp_int64(const struct gpuocc_mp_value *v, int64_t *out);

/* Whether `v` is the string `s`. */
bool gpuocc_mp_str_is(const struct gpuocc_mp_value *v, const char *s);

#endif
