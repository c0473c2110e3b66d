/*
 * A Zstandard frame decoder written from RFC 8878 (section numbers below are the RFC's).  The whole
 * frame is decoded into the caller's flat output buffer, so matches copy from what is already there and
 * no window buffer is kept; tables and the literals of the current block live in the caller's workspace.
 * Dictionaries are not supported (fatbinaries do not use them).
 */
#include "decode.h"

#include <string.h>

#define ZSTD_MAGIC 0xFD2FB528u
#define BLOCK_MAX (128u * 1024u) /* Block_Maximum_Size's ceiling, 3.1.1.2.3 */
#define LITERALS_PAD 32u          /* room after the literals for 16-byte chunk copies */

#define LL_MAX_SYMBOL 35
#define ML_MAX_SYMBOL 52
#define OF_MAX_SYMBOL 31
#define LL_MAX_LOG 9
#define ML_MAX_LOG 9
#define OF_MAX_LOG 8
#define WEIGHT_MAX_LOG 6
#define HUF_MAX_BITS 11

/* ------------------------------------------------------------------------------------------------ */
/* Tables of section 3.1.1.3.2.1.1 (codes to baselines and extra bits) and the predefined
   distributions of 3.1.1.3.2.2.                                                                      */

static const uint32_t ll_base[LL_MAX_SYMBOL + 1] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,   14,   15,   16,   18,
    20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const uint8_t ll_bits[LL_MAX_SYMBOL + 1] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                                  1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint32_t ml_base[ML_MAX_SYMBOL + 1] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,  16,  17,  18,  19,   20,   21,   22,   23,   24,    25,    26,    27,    28,   29,
    30, 31, 32, 33, 34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const uint8_t ml_bits[ML_MAX_SYMBOL + 1] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
                                                  2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int16_t ll_default[LL_MAX_SYMBOL + 1] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
                                                      2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2,
                                                      2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const int16_t ml_default[ML_MAX_SYMBOL + 1] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const int16_t of_default[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
                                       1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/* ------------------------------------------------------------------------------------------------ */

/* One state of an FSE decoding table (4.1.1): its symbol, and the next state's baseline and bits. */
struct zstd_fse_cell {
    uint16_t baseline;
    uint8_t bits;
    uint8_t symbol;
};

struct zstd_fse_table {
    uint32_t log;
    bool ready;
    struct zstd_fse_cell cells[1u << LL_MAX_LOG];
};

/* One entry of a Huffman table indexed by the next max_bits bits. */
struct zstd_huf_cell {
    uint8_t symbol;
    uint8_t bits;
};

struct zstd_workspace {
    struct zstd_fse_table ll, ml, of; /* kept across blocks for Repeat_Mode */
    struct zstd_fse_table weights;
    struct zstd_huf_cell huf[1u << HUF_MAX_BITS];
    uint32_t huf_bits;
    bool huf_ready; /* kept across blocks for Treeless_Literals_Block */
    int16_t norm[256];
    uint16_t next[256];
    uint8_t huf_weights[256];
    uint8_t literals[BLOCK_MAX + LITERALS_PAD];
};

#define WORKSPACE_ALIGN 16u

size_t gpuocc_zstd_workspace_bytes(void)
{
    return sizeof(struct zstd_workspace) + WORKSPACE_ALIGN;
}

static inline uint64_t zstd_load_partial(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i > 0; i--)
        v = v << 8 | p[i - 1];
    return v;
}

static inline uint64_t zstd_load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline int zstd_highbit32(uint32_t v) /* v > 0 */
{
    int n = 0;
    while (v >>= 1)
        n++;
    return n;
}

/* ------------------------------------------------------------------------------------------------ */
/* Backward bitstreams (4.1): read from the end; the last byte's highest set bit marks the start.
   `pos` counts the bits not yet read; reading past the first byte yields zeros and leaves pos < 0,
   which the callers treat as corruption (or, for Huffman weights, as the end). */

struct zstd_bits {
    const uint8_t *p;
    size_t n;
    int64_t pos;
};

static int32_t zstd_bits_init(struct zstd_bits *b, const uint8_t *p, size_t n)
{
    if (n == 0 || p[n - 1] == 0)
        return GPUOCC_ERR_FORMAT;
    b->p = p;
    b->n = n;
    b->pos = (int64_t)n * 8 - 8 + zstd_highbit32(p[n - 1]);
    return GPUOCC_OK;
}

/* The `count` (<= 56) bits below pos, without consuming them. */
static inline uint64_t zstd_bits_peek(const struct zstd_bits *b, unsigned count)
{
    int64_t at = b->pos - (int64_t)count;
    uint64_t mask = ((uint64_t)1 << count) - 1;
    if (at >= 0) {
        size_t byte = (size_t)(at >> 3);
        uint64_t w = byte + 8 <= b->n ? zstd_load64(b->p + byte) : zstd_load_partial(b->p + byte, b->n - byte);
        return (w >> (at & 7)) & mask;
    }
    if (b->pos <= 0)
        return 0;
    uint64_t w = zstd_load_partial(b->p, b->n < 8 ? b->n : 8);
    return (w << (unsigned)(-at)) & mask;
}

static inline uint64_t zstd_bits_read(struct zstd_bits *b, unsigned count)
{
    uint64_t v = zstd_bits_peek(b, count);
    b->pos -= count;
    return v;
}

/* ------------------------------------------------------------------------------------------------ */
/* FSE tables (4.1.1).                                                                               */

/* Read a table description from the forward bitstream at p: norm[0..*symbols), *log; *used bytes. */
static int32_t fse_read_description(const uint8_t *p, size_t n, int max_symbol, uint32_t max_log, int16_t *norm,
                                    int *symbols, uint32_t *log, size_t *used)
{
    size_t bitpos = 0, limit = n * 8;
/* Reads `count` bits at bitpos from the little-endian forward stream; past the end is an error. */
#define FWD_READ(out, count)                                                                                 \
    do {                                                                                                     \
        if (bitpos + (count) > limit)                                                                        \
            return GPUOCC_ERR_FORMAT;                                                                        \
        size_t byte_ = bitpos >> 3;                                                                          \
        uint64_t w_ = byte_ + 8 <= n ? zstd_load64(p + byte_) : zstd_load_partial(p + byte_, n - byte_);               \
        (out) = (uint32_t)((w_ >> (bitpos & 7)) & (((uint64_t)1 << (count)) - 1));                           \
    } while (0)
    uint32_t v;
    FWD_READ(v, 4);
    bitpos += 4;
    uint32_t accuracy = v + 5;
    if (accuracy > max_log)
        return GPUOCC_ERR_FORMAT;
    int32_t remaining = (1 << accuracy) + 1, threshold = 1 << accuracy;
    unsigned nbits = accuracy + 1;
    int symbol = 0;
    while (remaining > 1) {
        if (symbol > max_symbol)
            return GPUOCC_ERR_FORMAT;
        int32_t max = 2 * threshold - 1 - remaining;
        uint32_t value;
        /* small values take one bit less; the rest read the full width and fold the top down */
        FWD_READ(value, nbits - 1);
        if ((int32_t)value < max) {
            bitpos += nbits - 1;
        } else {
            FWD_READ(value, nbits);
            if ((int32_t)value >= threshold)
                value -= (uint32_t)max;
            bitpos += nbits;
        }
        int32_t probability = (int32_t)value - 1;
        remaining -= probability < 0 ? -probability : probability;
        norm[symbol++] = (int16_t)probability;
        if (probability == 0) {
            /* zeros repeat: 2-bit counts, 3 meaning another count follows */
            for (;;) {
                uint32_t repeat;
                FWD_READ(repeat, 2);
                bitpos += 2;
                if (symbol + (int)repeat > max_symbol + 1)
                    return GPUOCC_ERR_FORMAT;
                for (uint32_t i = 0; i < repeat; i++)
                    norm[symbol++] = 0;
                if (repeat != 3)
                    break;
            }
        }
        while (remaining < threshold && threshold > 1) {
            nbits--;
            threshold >>= 1;
        }
    }
#undef FWD_READ
    if (remaining != 1)
        return GPUOCC_ERR_FORMAT;
    *symbols = symbol;
    *log = accuracy;
    *used = (bitpos + 7) / 8;
    return GPUOCC_OK;
}

/* Build the decoding table from normalized counts (4.1.1, "FSE decoding: from normalized distribution
   to decoding tables").  `next` is scratch for 256 counters. */
static int32_t fse_build(struct zstd_fse_table *t, const int16_t *norm, int symbols, uint32_t log, uint16_t *next)
{
    uint32_t size = 1u << log, high = size - 1;
    for (int s = 0; s < symbols; s++) {
        if (norm[s] == -1) {
            t->cells[high--].symbol = (uint8_t)s;
            next[s] = 1;
        } else {
            next[s] = (uint16_t)norm[s];
        }
    }
    uint32_t step = (size >> 1) + (size >> 3) + 3, mask = size - 1, position = 0;
    for (int s = 0; s < symbols; s++) {
        for (int i = 0; i < norm[s]; i++) {
            t->cells[position].symbol = (uint8_t)s;
            do
                position = (position + step) & mask;
            while (position > high);
        }
    }
    if (position != 0)
        return GPUOCC_ERR_FORMAT;
    for (uint32_t i = 0; i < size; i++) {
        struct zstd_fse_cell *c = &t->cells[i];
        uint32_t state = next[c->symbol]++;
        uint32_t bits = log - (uint32_t)zstd_highbit32(state);
        c->bits = (uint8_t)bits;
        c->baseline = (uint16_t)((state << bits) - size);
    }
    t->log = log;
    t->ready = true;
    return GPUOCC_OK;
}

static void fse_build_rle(struct zstd_fse_table *t, uint8_t symbol)
{
    t->cells[0] = (struct zstd_fse_cell){0, 0, symbol};
    t->log = 0;
    t->ready = true;
}

/* ------------------------------------------------------------------------------------------------ */
/* Huffman literals (4.2).                                                                           */

/* Huffman weights compressed with FSE (4.2.1.2): two interleaved states, until the stream runs out. */
static int32_t zstd_read_fse_weights(struct zstd_workspace *w, const uint8_t *p, size_t n, int *count)
{
    int symbols;
    uint32_t log;
    size_t used;
    int32_t rc = fse_read_description(p, n, 255, WEIGHT_MAX_LOG, w->norm, &symbols, &log, &used);
    if (rc != GPUOCC_OK || (rc = fse_build(&w->weights, w->norm, symbols, log, w->next)) != GPUOCC_OK)
        return rc;
    struct zstd_bits b;
    if ((rc = zstd_bits_init(&b, p + used, n - used)) != GPUOCC_OK)
        return rc;
    const struct zstd_fse_cell *cells = w->weights.cells;
    uint32_t s1 = (uint32_t)zstd_bits_read(&b, log), s2 = (uint32_t)zstd_bits_read(&b, log);
    if (b.pos < 0)
        return GPUOCC_ERR_FORMAT;
    int out = 0;
    for (;;) {
        if (out > 252) /* at most 255 explicit weights */
            return GPUOCC_ERR_FORMAT;
        w->huf_weights[out++] = cells[s1].symbol;
        s1 = cells[s1].baseline + (uint32_t)zstd_bits_read(&b, cells[s1].bits);
        if (b.pos < 0) {
            w->huf_weights[out++] = cells[s2].symbol;
            break;
        }
        w->huf_weights[out++] = cells[s2].symbol;
        s2 = cells[s2].baseline + (uint32_t)zstd_bits_read(&b, cells[s2].bits);
        if (b.pos < 0) {
            w->huf_weights[out++] = cells[s1].symbol;
            break;
        }
    }
    *count = out;
    return GPUOCC_OK;
}

/* The tree description (4.2.1) at p: weights, the implied last weight, and the decoding table. */
static int32_t zstd_read_huffman_tree(struct zstd_workspace *w, const uint8_t *p, size_t n, size_t *used)
{
    if (n < 1)
        return GPUOCC_ERR_FORMAT;
    uint32_t header = p[0];
    int count;
    if (header < 128) {
        if (header == 0 || header > n - 1)
            return GPUOCC_ERR_FORMAT;
        int32_t rc = zstd_read_fse_weights(w, p + 1, header, &count);
        if (rc != GPUOCC_OK)
            return rc;
        *used = 1 + header;
    } else {
        count = (int)header - 127;
        size_t bytes = ((size_t)count + 1) / 2;
        if (bytes > n - 1)
            return GPUOCC_ERR_FORMAT;
        for (int i = 0; i < count; i++)
            w->huf_weights[i] = (uint8_t)(i % 2 == 0 ? p[1 + i / 2] >> 4 : p[1 + i / 2] & 15);
        *used = 1 + bytes;
    }
    uint32_t total = 0;
    for (int i = 0; i < count; i++) {
        if (w->huf_weights[i] > HUF_MAX_BITS)
            return GPUOCC_ERR_FORMAT;
        if (w->huf_weights[i])
            total += 1u << (w->huf_weights[i] - 1);
    }
    if (total == 0)
        return GPUOCC_ERR_FORMAT;
    /* the last weight brings the total to the next power of two, itself a power of two */
    uint32_t max_bits = (uint32_t)zstd_highbit32(total) + 1, rest = (1u << max_bits) - total;
    if (max_bits > HUF_MAX_BITS || (rest & (rest - 1)) != 0)
        return GPUOCC_ERR_FORMAT;
    w->huf_weights[count++] = (uint8_t)(zstd_highbit32(rest) + 1);
    /* Codes are handed out from the lowest weight (longest code) up, by symbol within a weight: a
       symbol of weight k covers 2^(k-1) consecutive entries of the table. */
    uint32_t position = 0;
    for (uint32_t weight = 1; weight <= max_bits; weight++) {
        uint32_t span = 1u << (weight - 1);
        for (int s = 0; s < count; s++) {
            if (w->huf_weights[s] != weight)
                continue;
            struct zstd_huf_cell cell = {(uint8_t)s, (uint8_t)(max_bits + 1 - weight)};
            for (uint32_t i = 0; i < span; i++)
                w->huf[position + i] = cell;
            position += span;
        }
    }
    w->huf_bits = max_bits;
    w->huf_ready = true;
    return GPUOCC_OK;
}

/* One Huffman-coded stream into out[0..count); the stream must be used up exactly. */
static int32_t zstd_huffman_stream(const struct zstd_workspace *w, const uint8_t *p, size_t n, uint8_t *out, size_t count)
{
    struct zstd_bits b;
    int32_t rc = zstd_bits_init(&b, p, n);
    if (rc != GPUOCC_OK)
        return rc;
    const unsigned max_bits = w->huf_bits;
    const struct zstd_huf_cell *table = w->huf;
    size_t i = 0;
    /* While 56 bits lie below pos, one load serves four symbols (4 x 11 bits); the 8 bytes loaded end
       at or before the stream's end since pos < 8 * n. */
    while (i + 4 <= count && b.pos >= 56) {
        size_t byte = (size_t)((b.pos - 56) >> 3);
        uint64_t word = zstd_load64(b.p + byte);
        unsigned avail = (unsigned)(b.pos - (int64_t)byte * 8); /* bits of word below pos: 56..63 */
        for (int k = 0; k < 4; k++) {
            const struct zstd_huf_cell c = table[(word << (64 - avail)) >> (64 - max_bits)];
            out[i++] = c.symbol;
            avail -= c.bits;
        }
        b.pos = (int64_t)byte * 8 + avail;
    }
    for (; i < count; i++) {
        const struct zstd_huf_cell c = table[zstd_bits_peek(&b, max_bits)];
        out[i] = c.symbol;
        b.pos -= c.bits;
    }
    return b.pos == 0 ? GPUOCC_OK : GPUOCC_ERR_FORMAT;
}

/* ------------------------------------------------------------------------------------------------ */
/* Blocks (3.1.1.2 - 3.1.1.4).                                                                       */

struct zstd_frame {
    uint8_t *dst;
    size_t cap, op;    /* output so far */
    uint32_t rep[3];   /* repeat offsets, kept across blocks */
    struct zstd_workspace *w;
};

/* Literals_Section (3.1.1.3.1).  *literals points at the regenerated literals, *used is the section size. */
static int32_t zstd_read_literals(struct zstd_frame *f, const uint8_t *p, size_t n, const uint8_t **literals,
                             size_t *literals_len, const uint8_t **literals_end, size_t *used)
{
    if (n < 1)
        return GPUOCC_ERR_FORMAT;
    uint32_t type = p[0] & 3, format = (p[0] >> 2) & 3;
    size_t regenerated, compressed = 0, header;
    if (type < 2) {
        if ((format & 1) == 0) {
            header = 1;
            regenerated = p[0] >> 3;
        } else if (format == 1) {
            header = 2;
            if (n < 2)
                return GPUOCC_ERR_FORMAT;
            regenerated = (p[0] >> 4) + ((size_t)p[1] << 4);
        } else {
            header = 3;
            if (n < 3)
                return GPUOCC_ERR_FORMAT;
            regenerated = (p[0] >> 4) + ((size_t)p[1] << 4) + ((size_t)p[2] << 12);
        }
    } else {
        header = format < 2 ? 3 : format == 2 ? 4 : 5;
        if (n < header)
            return GPUOCC_ERR_FORMAT;
        uint64_t v = zstd_load_partial(p, header);
        unsigned width = format < 2 ? 10 : format == 2 ? 14 : 18;
        regenerated = (size_t)((v >> 4) & ((1u << width) - 1));
        compressed = (size_t)((v >> (4 + width)) & ((1u << width) - 1));
    }
    if (regenerated > BLOCK_MAX)
        return GPUOCC_ERR_FORMAT;
    p += header;
    n -= header;
    struct zstd_workspace *w = f->w;
    if (type == 0) { /* Raw: the literals are the next bytes */
        if (regenerated > n)
            return GPUOCC_ERR_FORMAT;
        *literals = p;
        *literals_end = p + n; /* readable up to here */
        *literals_len = regenerated;
        *used = header + regenerated;
        return GPUOCC_OK;
    }
    if (type == 1) { /* RLE: one byte, repeated */
        if (n < 1)
            return GPUOCC_ERR_FORMAT;
        memset(w->literals, p[0], regenerated);
        *literals = w->literals;
        *literals_end = w->literals + sizeof w->literals;
        *literals_len = regenerated;
        *used = header + 1;
        return GPUOCC_OK;
    }
    if (compressed > n)
        return GPUOCC_ERR_FORMAT;
    size_t tree = 0;
    int32_t rc;
    if (type == 2) {
        if ((rc = zstd_read_huffman_tree(w, p, compressed, &tree)) != GPUOCC_OK)
            return rc;
    } else if (!w->huf_ready) {
        return GPUOCC_ERR_FORMAT; /* treeless with no previous tree */
    }
    const uint8_t *s = p + tree;
    size_t streams_len = compressed - tree;
    if (format == 0) {
        rc = zstd_huffman_stream(w, s, streams_len, w->literals, regenerated);
    } else {
        /* four streams behind a jump table of three sizes; each of the first three gives a quarter */
        if (streams_len < 6 || regenerated < 6)
            return GPUOCC_ERR_FORMAT;
        size_t s1 = s[0] | (size_t)s[1] << 8, s2 = s[2] | (size_t)s[3] << 8, s3 = s[4] | (size_t)s[5] << 8;
        size_t total = streams_len - 6;
        if (s1 + s2 + s3 > total)
            return GPUOCC_ERR_FORMAT;
        size_t s4 = total - s1 - s2 - s3, quarter = (regenerated + 3) / 4;
        const uint8_t *q = s + 6;
        uint8_t *out = w->literals;
        if ((rc = zstd_huffman_stream(w, q, s1, out, quarter)) == GPUOCC_OK &&
            (rc = zstd_huffman_stream(w, q + s1, s2, out + quarter, quarter)) == GPUOCC_OK &&
            (rc = zstd_huffman_stream(w, q + s1 + s2, s3, out + 2 * quarter, quarter)) == GPUOCC_OK)
            rc = zstd_huffman_stream(w, q + s1 + s2 + s3, s4, out + 3 * quarter, regenerated - 3 * quarter);
    }
    if (rc != GPUOCC_OK)
        return rc;
    *literals = w->literals;
    *literals_end = w->literals + sizeof w->literals;
    *literals_len = regenerated;
    *used = header + compressed;
    return GPUOCC_OK;
}

/* One of the three sequence tables, by its Symbol_Compression_Mode (3.1.1.3.2.2). */
static int32_t zstd_read_sequence_table(struct zstd_workspace *w, struct zstd_fse_table *t, uint32_t mode, const uint8_t *p,
                                   size_t n, int max_symbol, uint32_t max_log, const int16_t *defaults,
                                   int default_symbols, uint32_t default_log, size_t *used)
{
    *used = 0;
    switch (mode) {
    case 0: /* Predefined_Mode */
        return fse_build(t, defaults, default_symbols, default_log, w->next);
    case 1: /* RLE_Mode */
        if (n < 1 || p[0] > max_symbol)
            return GPUOCC_ERR_FORMAT;
        fse_build_rle(t, p[0]);
        *used = 1;
        return GPUOCC_OK;
    case 2: { /* FSE_Compressed_Mode */
        int symbols;
        uint32_t log;
        int32_t rc = fse_read_description(p, n, max_symbol, max_log, w->norm, &symbols, &log, used);
        return rc != GPUOCC_OK ? rc : fse_build(t, w->norm, symbols, log, w->next);
    }
    default: /* Repeat_Mode */
        return t->ready ? GPUOCC_OK : GPUOCC_ERR_FORMAT;
    }
}

/* Copies of at most 16 bytes past the end are allowed where both sides have that room. */
static inline void zstd_copy16(uint8_t *d, const uint8_t *s)
{
    memcpy(d, s, 16);
}

static inline void zstd_wild_copy(uint8_t *d, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i += 16)
        zstd_copy16(d + i, s + i);
}

/* A match of `length` bytes from `offset` back, possibly overlapping itself. */
static inline void zstd_copy_match(uint8_t *d, size_t offset, size_t length, bool room)
{
    const uint8_t *s = d - offset;
    if (offset >= 16 && room) {
        zstd_wild_copy(d, s, length);
    } else if (offset >= length) {
        memcpy(d, s, length);
    } else {
        /* s repeats with period `offset`: copy it in growing chunks that never overlap their source */
        for (size_t done = 0; done < length;) {
            size_t chunk = done + offset < length - done ? done + offset : length - done;
            memcpy(d + done, s, chunk);
            done += chunk;
        }
    }
}

/* Sequences_Section (3.1.1.3.2) and Sequence_Execution (3.1.1.4). */
static int32_t zstd_execute_sequences(struct zstd_frame *f, const uint8_t *p, size_t n, const uint8_t *lit, size_t lit_len,
                                 const uint8_t *lit_end, size_t block_start)
{
    struct zstd_workspace *w = f->w;
    if (n < 1)
        return GPUOCC_ERR_FORMAT;
    size_t count, header;
    if (p[0] < 128) {
        count = p[0];
        header = 1;
    } else if (p[0] < 255) {
        if (n < 2)
            return GPUOCC_ERR_FORMAT;
        count = ((size_t)(p[0] - 128) << 8) + p[1];
        header = 2;
    } else {
        if (n < 3)
            return GPUOCC_ERR_FORMAT;
        count = p[1] + ((size_t)p[2] << 8) + 0x7F00;
        header = 3;
    }
    const uint8_t *lit_stop = lit + lit_len;
    if (count == 0) {
        if (header != n)
            return GPUOCC_ERR_FORMAT;
    } else {
        if (n < header + 1)
            return GPUOCC_ERR_FORMAT;
        uint32_t modes = p[header];
        if (modes & 3)
            return GPUOCC_ERR_FORMAT;
        size_t pos = header + 1, used;
        int32_t rc;
        if ((rc = zstd_read_sequence_table(w, &w->ll, modes >> 6, p + pos, n - pos, LL_MAX_SYMBOL, LL_MAX_LOG, ll_default,
                                      LL_MAX_SYMBOL + 1, 6, &used)) != GPUOCC_OK)
            return rc;
        pos += used;
        if ((rc = zstd_read_sequence_table(w, &w->of, (modes >> 4) & 3, p + pos, n - pos, OF_MAX_SYMBOL, OF_MAX_LOG,
                                      of_default, 29, 5, &used)) != GPUOCC_OK)
            return rc;
        pos += used;
        if ((rc = zstd_read_sequence_table(w, &w->ml, (modes >> 2) & 3, p + pos, n - pos, ML_MAX_SYMBOL, ML_MAX_LOG,
                                      ml_default, ML_MAX_SYMBOL + 1, 6, &used)) != GPUOCC_OK)
            return rc;
        pos += used;
        struct zstd_bits b;
        if ((rc = zstd_bits_init(&b, p + pos, n - pos)) != GPUOCC_OK)
            return rc;
        const struct zstd_fse_cell *llc = w->ll.cells, *ofc = w->of.cells, *mlc = w->ml.cells;
        uint32_t ls = (uint32_t)zstd_bits_read(&b, w->ll.log);
        uint32_t os = (uint32_t)zstd_bits_read(&b, w->of.log);
        uint32_t ms = (uint32_t)zstd_bits_read(&b, w->ml.log);
        uint8_t *dst = f->dst, *dend = f->dst + f->cap;
        size_t op = f->op;
        for (size_t i = 0; i < count; i++) {
            uint32_t of_code = ofc[os].symbol, ml_code = mlc[ms].symbol, ll_code = llc[ls].symbol;
            if (of_code > OF_MAX_SYMBOL)
                return GPUOCC_ERR_FORMAT;
            uint64_t offset_value = ((uint64_t)1 << of_code) + zstd_bits_read(&b, of_code);
            size_t match = ml_base[ml_code] + (size_t)zstd_bits_read(&b, ml_bits[ml_code]);
            size_t literals = ll_base[ll_code] + (size_t)zstd_bits_read(&b, ll_bits[ll_code]);
            if (b.pos < 0)
                return GPUOCC_ERR_FORMAT;
            if (i + 1 < count) {
                ls = llc[ls].baseline + (uint32_t)zstd_bits_read(&b, llc[ls].bits);
                ms = mlc[ms].baseline + (uint32_t)zstd_bits_read(&b, mlc[ms].bits);
                os = ofc[os].baseline + (uint32_t)zstd_bits_read(&b, ofc[os].bits);
            }
            /* Repeat offsets (3.1.1.5): values 1-3 name recent offsets, shifted by one when there are
               no literals; larger values are new offsets + 3. */
            uint64_t offset;
            if (offset_value > 3) {
                offset = offset_value - 3;
                f->rep[2] = f->rep[1];
                f->rep[1] = f->rep[0];
                f->rep[0] = (uint32_t)(offset > UINT32_MAX ? UINT32_MAX : offset);
            } else {
                uint32_t index = (uint32_t)offset_value - (literals == 0 ? 0 : 1);
                if (index == 0) {
                    offset = f->rep[0];
                } else {
                    offset = index == 3 ? (uint64_t)f->rep[0] - 1 : f->rep[index];
                    if (index != 1)
                        f->rep[2] = f->rep[1];
                    f->rep[1] = f->rep[0];
                    f->rep[0] = (uint32_t)offset;
                }
            }
            if ((size_t)(lit_stop - lit) < literals)
                return GPUOCC_ERR_FORMAT;
            if ((size_t)(dend - (dst + op)) < literals || (size_t)(dend - (dst + op)) - literals < match)
                return GPUOCC_ERR_BUFFER;
            if (op + literals + match - block_start > BLOCK_MAX)
                return GPUOCC_ERR_FORMAT;
            uint8_t *d = dst + op;
            if ((size_t)(lit_end - lit) >= literals + 16 && (size_t)(dend - d) >= literals + 16) {
                zstd_wild_copy(d, lit, literals);
            } else {
                memcpy(d, lit, literals);
            }
            lit += literals;
            d += literals;
            op += literals;
            if (offset == 0 || offset > op)
                return GPUOCC_ERR_FORMAT;
            zstd_copy_match(d, (size_t)offset, match, (size_t)(dend - d) >= match + 16);
            op += match;
        }
        if (b.pos != 0)
            return GPUOCC_ERR_FORMAT;
        f->op = op;
    }
    /* the literals no sequence used follow the last match */
    size_t rest = (size_t)(lit_stop - lit);
    if (rest > f->cap - f->op)
        return GPUOCC_ERR_BUFFER;
    if (f->op + rest - block_start > BLOCK_MAX)
        return GPUOCC_ERR_FORMAT;
    memcpy(f->dst + f->op, lit, rest);
    f->op += rest;
    return GPUOCC_OK;
}

static int32_t zstd_compressed_block(struct zstd_frame *f, const uint8_t *p, size_t n)
{
    const uint8_t *lit, *lit_end;
    size_t lit_len, used;
    int32_t rc = zstd_read_literals(f, p, n, &lit, &lit_len, &lit_end, &used);
    if (rc != GPUOCC_OK)
        return rc;
    return zstd_execute_sequences(f, p + used, n - used, lit, lit_len, lit_end, f->op);
}

/* ------------------------------------------------------------------------------------------------ */
/* Frames (3.1.1).                                                                                   */

struct zstd_frame_header {
    size_t size;
    uint64_t content_size;
    bool has_content_size, checksum;
};

static int32_t zstd_read_frame_header(const uint8_t *p, size_t n, struct zstd_frame_header *h)
{
    if (n < 4)
        return GPUOCC_ERR_TRUNCATED;
    if (zstd_load_partial(p, 4) != ZSTD_MAGIC)
        return GPUOCC_ERR_FORMAT;
    if (n < 5)
        return GPUOCC_ERR_TRUNCATED;
    uint32_t d = p[4];
    uint32_t fcs_flag = d >> 6, single = (d >> 5) & 1, dict_flag = d & 3;
    if (d & 0x08) /* Reserved_bit */
        return GPUOCC_ERR_FORMAT;
    h->checksum = (d >> 2) & 1;
    static const size_t dict_sizes[4] = {0, 1, 2, 4}, fcs_sizes[4] = {0, 2, 4, 8};
    size_t fcs_size = fcs_flag == 0 ? single : fcs_sizes[fcs_flag];
    size_t size = 5 + !single + dict_sizes[dict_flag] + fcs_size;
    if (n < size)
        return GPUOCC_ERR_TRUNCATED;
    const uint8_t *q = p + 5;
    q += !single; /* Window_Descriptor: not needed, the whole output stays addressable */
    if (dict_flag && zstd_load_partial(q, dict_sizes[dict_flag]) != 0)
        return GPUOCC_ERR_UNSUPPORTED;
    q += dict_sizes[dict_flag];
    h->has_content_size = fcs_size != 0;
    h->content_size = zstd_load_partial(q, fcs_size) + (fcs_size == 2 ? 256 : 0);
    h->size = size;
    return GPUOCC_OK;
}

int32_t gpuocc_zstd_content_size(const void *src, size_t src_len, uint64_t *size)
{
    if (!src || !size)
        return GPUOCC_ERR_NULL;
    struct zstd_frame_header h;
    int32_t rc = zstd_read_frame_header((const uint8_t *)src, src_len, &h);
    if (rc != GPUOCC_OK)
        return rc;
    if (!h.has_content_size)
        return GPUOCC_ERR_UNSUPPORTED;
    *size = h.content_size;
    return GPUOCC_OK;
}

int32_t gpuocc_zstd_decompress(const void *src, size_t src_len, void *dst, size_t dst_cap, void *workspace,
                               size_t workspace_len, size_t *dst_len, size_t *src_used)
{
    if (!src || !dst_len || !src_used || !workspace || (!dst && dst_cap > 0))
        return GPUOCC_ERR_NULL;
    if (workspace_len < gpuocc_zstd_workspace_bytes())
        return GPUOCC_ERR_ARGUMENT;
    uint8_t none;
    if (!dst) /* dst_cap is 0: point at a byte that is never written, so no arithmetic on NULL */
        dst = &none;
    const uint8_t *p = (const uint8_t *)src;
    struct zstd_frame_header h;
    int32_t rc = zstd_read_frame_header(p, src_len, &h);
    if (rc != GPUOCC_OK)
        return rc;
    uintptr_t a = (uintptr_t)workspace;
    struct zstd_workspace *w = (struct zstd_workspace *)(void *)((uint8_t *)workspace + ((WORKSPACE_ALIGN - a % WORKSPACE_ALIGN) % WORKSPACE_ALIGN));
    w->ll.ready = w->ml.ready = w->of.ready = w->huf_ready = false;
    struct zstd_frame f = {(uint8_t *)dst, dst_cap, 0, {1, 4, 8}, w};
    size_t pos = h.size;
    for (bool last = false; !last;) {
        if (src_len - pos < 3)
            return GPUOCC_ERR_TRUNCATED;
        uint32_t bh = (uint32_t)zstd_load_partial(p + pos, 3);
        pos += 3;
        last = bh & 1;
        uint32_t type = (bh >> 1) & 3;
        size_t size = bh >> 3;
        if (type == 3)
            return GPUOCC_ERR_FORMAT;
        if (size > BLOCK_MAX)
            return GPUOCC_ERR_FORMAT;
        size_t stored = type == 1 ? 1 : size;
        if (src_len - pos < stored)
            return GPUOCC_ERR_TRUNCATED;
        if (type == 0 || type == 1) {
            if (size > f.cap - f.op)
                return GPUOCC_ERR_BUFFER;
            if (type == 0)
                memcpy(f.dst + f.op, p + pos, size);
            else
                memset(f.dst + f.op, p[pos], size);
            f.op += size;
        } else if ((rc = zstd_compressed_block(&f, p + pos, size)) != GPUOCC_OK) {
            return rc;
        }
        pos += stored;
    }
    if (h.has_content_size && h.content_size != f.op)
        return GPUOCC_ERR_FORMAT;
    if (h.checksum) {
        if (src_len - pos < 4)
            return GPUOCC_ERR_TRUNCATED;
        if ((uint32_t)gpuocc_xxh64(f.dst, f.op, 0) != (uint32_t)zstd_load_partial(p + pos, 4))
            return GPUOCC_ERR_FORMAT;
        pos += 4;
    }
    *dst_len = f.op;
    *src_used = pos;
    return GPUOCC_OK;
}
