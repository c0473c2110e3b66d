/*
 * The zstd and LZ4 decoders (lib/decode/), against the system's libzstd and liblz4 as oracles: frames and
 * blocks those libraries produce from generated data at every compression level decode to the original
 * bytes, and so do the compressed entries of real fatbinaries (tests/cuda/capture.sh); corrupted and
 * truncated input fails with a status and never reads or writes outside its buffers (the ASan build).
 * Without the libraries' headers the differential tests are skipped with the reason.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/decode/decode.h"

#ifdef HAVE_LIBZSTD
#include <zstd.h>
#endif
#ifdef HAVE_LIBLZ4
#include <lz4.h>
#include <lz4hc.h>
#endif

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

/* ------------------------------------------------------------------------------------------------ */
/* Inputs                                                                                            */

/* The inputs of the differential tests only: without libzstd-dev and liblz4-dev they are not compiled (else
   -Werror would fail the build on unused functions; the tests themselves are skipped with the reason). */
#if defined(HAVE_LIBZSTD) || defined(HAVE_LIBLZ4)
static uint32_t rng(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

enum { KIND_RANDOM, KIND_TEXT, KIND_RUNS, KIND_ZEROS, KIND_MACHINE, KIND_COUNT };

/* Data of a few shapes: incompressible, small-alphabet text with repeats, long runs, zeros, and
   instruction-like 16-byte words (what cubins hold). */
static void generate(uint8_t *p, size_t n, int kind, uint32_t seed)
{
    uint32_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case KIND_RANDOM:
            p[i] = (uint8_t)rng(&s);
            break;
        case KIND_TEXT:
            if (i > 32 && rng(&s) % 4 == 0)
                p[i] = p[i - 1 - rng(&s) % 32];
            else
                p[i] = (uint8_t)("etaoin shrdlu\n"[rng(&s) % 14]);
            break;
        case KIND_RUNS:
            p[i] = (uint8_t)((i / (1 + seed % 300)) % 7);
            break;
        case KIND_ZEROS:
            p[i] = 0;
            break;
        default:
            p[i] = (i % 16 < 8) ? (uint8_t)(rng(&s) % 4) : (uint8_t)((i / 16) * 16 + i % 16);
            break;
        }
    }
}

static uint8_t *load(const char *name, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    uint8_t *p = malloc((size_t)size + 1);
    cr_assert_eq(fread(p, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *n = (size_t)size;
    return p;
}

/* The compressed ELF entries of a fatbinary file: {payload, compressed size, uncompressed size, flags}.
   Entry header fields as docs/inputs.md lists them. */
struct entry {
    const uint8_t *payload;
    size_t payload_size, compressed, uncompressed;
    uint64_t flags;
};

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int fatbin_entries(const uint8_t *p, size_t n, struct entry *out, int cap)
{
    int count = 0;
    cr_assert_eq(le(p, 4), 0xBA55ED50u);
    size_t header = (size_t)le(p + 6, 2), size = (size_t)le(p + 8, 8);
    cr_assert_leq(header + size, n);
    for (size_t pos = header; pos < header + size && count < cap;) {
        const uint8_t *e = p + pos;
        size_t eh = (size_t)le(e + 4, 4), payload = (size_t)le(e + 8, 8);
        out[count++] = (struct entry){e + eh, payload, (size_t)le(e + 0x10, 4), (size_t)le(e + 0x38, 8),
                                      le(e + 0x28, 8)};
        pos += eh + payload;
    }
    return count;
}
#endif

/* ------------------------------------------------------------------------------------------------ */
/* XXH64                                                                                             */

Test(xxh64, empty_input_matches_the_specification)
{
    /* the xxHash specification's value for the empty input, seed 0 */
    cr_assert_eq(gpuocc_xxh64("", 0, 0), 0xEF46DB3751D8E999u);
}

#ifdef HAVE_LIBZSTD
/* libzstd writes the low 32 bits of XXH64 as each frame's checksum: every length from 0 to 300 covers the
   stripe loop and each tail path. */
Test(xxh64, low_bits_match_libzstd_frame_checksums)
{
    uint8_t data[300], frame[512];
    generate(data, sizeof data, KIND_RANDOM, 7);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    for (size_t n = 0; n <= sizeof data; n++) {
        size_t c = ZSTD_compress2(cctx, frame, sizeof frame, data, n);
        cr_assert(!ZSTD_isError(c));
        cr_assert_eq((uint32_t)gpuocc_xxh64(data, n, 0), (uint32_t)le(frame + c - 4, 4), "length %zu", n);
    }
    ZSTD_freeCCtx(cctx);
}
#endif

/* ------------------------------------------------------------------------------------------------ */
/* zstd                                                                                              */

static void *workspace(size_t *n)
{
    *n = gpuocc_zstd_workspace_bytes();
    /* misaligned on purpose: the decoder aligns inside what it is given */
    uint8_t *w = malloc(*n + 1);
    cr_assert(w);
    return w + 1;
}

Test(zstd, rejects_bad_arguments)
{
    size_t wn, dl = 7, used = 7;
    uint8_t *w = workspace(&wn), out[4];
    static const uint8_t empty_frame[] = {0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00};
    cr_assert_eq(gpuocc_zstd_decompress(NULL, 9, out, 4, w, wn, &dl, &used), GPUOCC_ERR_NULL);
    cr_assert_eq(gpuocc_zstd_decompress(empty_frame, 9, out, 4, NULL, wn, &dl, &used), GPUOCC_ERR_NULL);
    cr_assert_eq(gpuocc_zstd_decompress(empty_frame, 9, out, 4, w, wn - 1, &dl, &used), GPUOCC_ERR_ARGUMENT);
    cr_assert_eq(dl, 7);
    cr_assert_eq(used, 7);
    /* a single-segment frame of 0 bytes: one empty raw last block (RFC 8878 3.1.1.2) */
    cr_assert_eq(gpuocc_zstd_decompress(empty_frame, 9, NULL, 0, w, wn, &dl, &used), GPUOCC_OK);
    cr_assert_eq(dl, 0);
    cr_assert_eq(used, 9);
    static const uint8_t skippable[] = {0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0};
    cr_assert_eq(gpuocc_zstd_decompress(skippable, 8, out, 4, w, wn, &dl, &used), GPUOCC_ERR_FORMAT);
    static const uint8_t dictionary[] = {0x28, 0xb5, 0x2f, 0xfd, 0x21, 0x07, 0x00, 0x01, 0x00, 0x00};
    cr_assert_eq(gpuocc_zstd_decompress(dictionary, 10, out, 4, w, wn, &dl, &used), GPUOCC_ERR_UNSUPPORTED);
    free(w - 1);
}

#ifdef HAVE_LIBZSTD
struct zstd_case {
    uint8_t *frame;
    size_t frame_len;
};

static size_t compress_zstd(uint8_t *dst, size_t cap, const uint8_t *src, size_t n, int level, int checksum)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, checksum);
    size_t c = ZSTD_compress2(cctx, dst, cap, src, n);
    ZSTD_freeCCtx(cctx);
    cr_assert(!ZSTD_isError(c), "%s", ZSTD_getErrorName(c));
    return c;
}

/* Every level libzstd has (negative "fast" levels to the maximum), every data shape, sizes that give
   one block, several blocks and tiny literal sections. */
Test(zstd, matches_libzstd_at_every_level, .timeout = 600)
{
    static const size_t sizes[] = {1, 5, 100, 4000, 70000, 300000};
    size_t max = 300000, cap = ZSTD_compressBound(max), wn;
    uint8_t *src = malloc(max), *frame = malloc(cap), *out = malloc(max + 64), *w = workspace(&wn);
    int checked = 0;
    for (int level = -5; level <= ZSTD_maxCLevel(); level++) {
        for (int kind = 0; kind < KIND_COUNT; kind++) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                /* the slowest levels on the largest inputs add nothing but time */
                if (level > 15 && sizes[i] > 70000)
                    continue;
                size_t n = sizes[i];
                generate(src, n, kind, (uint32_t)(level * 31 + kind * 7 + (int)i));
                size_t c = compress_zstd(frame, cap, src, n, level, (level + kind) % 2);
                size_t dl = 0, used = 0;
                int32_t rc = gpuocc_zstd_decompress(frame, c, out, n, w, wn, &dl, &used);
                cr_assert_eq(rc, GPUOCC_OK, "level %d kind %d size %zu: %d", level, kind, n, rc);
                cr_assert_eq(dl, n);
                cr_assert_eq(used, c);
                cr_assert(memcmp(out, src, n) == 0, "level %d kind %d size %zu", level, kind, n);
                checked++;
            }
        }
    }
    cr_log_info("zstd: %d frames decoded like libzstd", checked);
    free(src);
    free(frame);
    free(out);
    free(w - 1);
}

/* Frames libzstd writes block by block without a content size, and frames with a 1-byte window. */
Test(zstd, matches_libzstd_on_streamed_frames)
{
    size_t n = 200000, cap = ZSTD_compressBound(n), wn;
    uint8_t *src = malloc(n), *frame = malloc(cap), *out = malloc(n), *w = workspace(&wn);
    generate(src, n, KIND_TEXT, 3);
    for (int level = 1; level <= 19; level += 6) {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, 12);
        ZSTD_outBuffer ob = {frame, cap, 0};
        for (size_t pos = 0; pos < n; pos += 9999) {
            ZSTD_inBuffer ib = {src + pos, pos + 9999 < n ? 9999 : n - pos, 0};
            while (ib.pos < ib.size)
                cr_assert(!ZSTD_isError(ZSTD_compressStream2(cctx, &ob, &ib, ZSTD_e_continue)));
        }
        ZSTD_inBuffer none = {NULL, 0, 0};
        while (ZSTD_compressStream2(cctx, &ob, &none, ZSTD_e_end) != 0)
            ;
        ZSTD_freeCCtx(cctx);
        uint64_t declared;
        cr_assert_eq(gpuocc_zstd_content_size(frame, ob.pos, &declared), GPUOCC_ERR_UNSUPPORTED);
        size_t dl, used;
        cr_assert_eq(gpuocc_zstd_decompress(frame, ob.pos, out, n, w, wn, &dl, &used), GPUOCC_OK, "level %d", level);
        cr_assert_eq(dl, n);
        cr_assert_eq(used, ob.pos);
        cr_assert(memcmp(out, src, n) == 0);
    }
    free(src);
    free(frame);
    free(out);
    free(w - 1);
}

/* Corruption: every prefix is refused; any single flipped bit either fails with a status or, where
   libzstd also accepts the frame, gives libzstd's bytes; a too small output fails with ERR_BUFFER. */
static void check_corruptions(const uint8_t *frame, size_t c, size_t n)
{
    size_t wn;
    uint8_t *w = workspace(&wn), *out = malloc(n + 1), *ref = malloc(n + 1), *copy = malloc(c);
    for (size_t cut = 0; cut < c; cut++) {
        memcpy(copy, frame, cut); /* a private copy of the prefix: ASan sees any read past it */
        size_t dl, used;
        int32_t rc = gpuocc_zstd_decompress(copy, cut, out, n, w, wn, &dl, &used);
        cr_assert(rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_FORMAT, "cut %zu: %d", cut, rc);
    }
    for (size_t bit = 0; bit < c * 8; bit++) {
        memcpy(copy, frame, c);
        copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        size_t dl, used;
        int32_t rc = gpuocc_zstd_decompress(copy, c, out, n, w, wn, &dl, &used);
        if (rc == GPUOCC_OK) {
            /* the decoder stops at the frame's end; libzstd wants exactly the frame */
            size_t r = ZSTD_decompress(ref, n + 1, copy, used);
            cr_assert(!ZSTD_isError(r), "bit %zu: accepted a frame libzstd refuses (%s)", bit, ZSTD_getErrorName(r));
            cr_assert_eq(dl, r);
            cr_assert(memcmp(out, ref, r) == 0, "bit %zu", bit);
        } else {
            cr_assert(rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_BUFFER ||
                          rc == GPUOCC_ERR_UNSUPPORTED,
                      "bit %zu: %d", bit, rc);
        }
    }
    if (n > 0) {
        size_t dl, used;
        cr_assert_eq(gpuocc_zstd_decompress(frame, c, out, n - 1, w, wn, &dl, &used), GPUOCC_ERR_BUFFER);
    }
    free(out);
    free(ref);
    free(copy);
    free(w - 1);
}

Test(zstd, corrupted_frames_fail_cleanly, .timeout = 600)
{
    size_t n = 3000, cap = ZSTD_compressBound(n);
    uint8_t *src = malloc(n), *frame = malloc(cap);
    for (int kind = 0; kind < KIND_COUNT; kind++) {
        generate(src, n, kind, 11);
        for (int level = 1; level <= 19; level += 9) {
            for (int checksum = 0; checksum <= 1; checksum++) {
                size_t c = compress_zstd(frame, cap, src, n, level, checksum);
                check_corruptions(frame, c, n);
            }
        }
    }
    free(src);
    free(frame);
}

/* The compressed entries of a real fatbinary: the frame stops where the entry's compressed size says,
   zero padding follows, and the bytes equal libzstd's. */
Test(zstd, decodes_real_fatbinary_entries_like_libzstd)
{
    size_t n, wn;
    uint8_t *file = load("units_zstd.fatbin", &n), *w = workspace(&wn);
    struct entry es[16];
    int count = fatbin_entries(file, n, es, 16), zstd = 0;
    for (int i = 0; i < count; i++) {
        if (!(es[i].flags & 0x8000))
            continue;
        uint8_t *out = malloc(es[i].uncompressed), *ref = malloc(es[i].uncompressed);
        size_t dl, used;
        cr_assert_eq(gpuocc_zstd_decompress(es[i].payload, es[i].payload_size, out, es[i].uncompressed, w, wn, &dl,
                                            &used),
                     GPUOCC_OK);
        cr_assert_eq(used, es[i].compressed);
        cr_assert_eq(dl, es[i].uncompressed);
        cr_assert_eq(ZSTD_decompress(ref, es[i].uncompressed, es[i].payload, es[i].compressed), es[i].uncompressed);
        cr_assert(memcmp(out, ref, dl) == 0);
        check_corruptions(es[i].payload, es[i].compressed, es[i].uncompressed);
        free(out);
        free(ref);
        zstd++;
    }
    cr_assert_geq(zstd, 1);
    free(file);
    free(w - 1);
}
#else
Test(zstd, differential_tests)
{
    cr_skip_test("libzstd-dev is not installed: the differential tests against libzstd are skipped");
}
#endif

/* ------------------------------------------------------------------------------------------------ */
/* LZ4                                                                                               */

Test(lz4, reads_hand_made_blocks)
{
    /* token 0x40: 4 literals "abcd", last sequence */
    static const uint8_t literals_only[] = {0x40, 'a', 'b', 'c', 'd'};
    uint8_t out[64];
    size_t dl = 99;
    cr_assert_eq(gpuocc_lz4_block_decompress(literals_only, 5, out, 64, &dl), GPUOCC_OK);
    cr_assert_eq(dl, 4);
    cr_assert(memcmp(out, "abcd", 4) == 0);
    /* "ab" then a match of 4 + 15 + 1 = 20 at offset 2 (overlapping), then 1 literal "z" */
    static const uint8_t overlap[] = {0x2f, 'a', 'b', 0x02, 0x00, 0x01, 0x10, 'z'};
    cr_assert_eq(gpuocc_lz4_block_decompress(overlap, sizeof overlap, out, 64, &dl), GPUOCC_OK);
    cr_assert_eq(dl, 23);
    cr_assert(memcmp(out, "ababababababababababab" "z", 23) == 0);
    /* offset 0, an offset past the start, a missing offset, too small an output */
    static const uint8_t zero_offset[] = {0x10, 'a', 0x00, 0x00, 0x00};
    static const uint8_t far_offset[] = {0x10, 'a', 0x02, 0x00, 0x00};
    dl = 99;
    cr_assert_eq(gpuocc_lz4_block_decompress(zero_offset, 5, out, 64, &dl), GPUOCC_ERR_FORMAT);
    cr_assert_eq(gpuocc_lz4_block_decompress(far_offset, 5, out, 64, &dl), GPUOCC_ERR_FORMAT);
    cr_assert_eq(gpuocc_lz4_block_decompress(overlap, 4, out, 64, &dl), GPUOCC_ERR_TRUNCATED);
    cr_assert_eq(gpuocc_lz4_block_decompress(overlap, sizeof overlap, out, 22, &dl), GPUOCC_ERR_BUFFER);
    cr_assert_eq(gpuocc_lz4_block_decompress(NULL, 1, out, 64, &dl), GPUOCC_ERR_NULL);
    cr_assert_eq(dl, 99);
}

#ifdef HAVE_LIBLZ4
/* LZ4_compress_fast at several accelerations and LZ4_compress_HC at every level. */
Test(lz4, matches_liblz4_at_every_level, .timeout = 300)
{
    static const size_t sizes[] = {1, 13, 100, 5000, 70000, 300000};
    size_t max = 300000, cap = (size_t)LZ4_compressBound((int)max);
    uint8_t *src = malloc(max), *block = malloc(cap), *out = malloc(max);
    int checked = 0;
    for (int level = -8; level <= LZ4HC_CLEVEL_MAX; level++) {
        for (int kind = 0; kind < KIND_COUNT; kind++) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                size_t n = sizes[i];
                generate(src, n, kind, (uint32_t)(level * 17 + kind + (int)i));
                int c = level <= 0 ? LZ4_compress_fast((const char *)src, (char *)block, (int)n, (int)cap, 1 - level)
                                   : LZ4_compress_HC((const char *)src, (char *)block, (int)n, (int)cap, level);
                cr_assert_gt(c, 0);
                size_t dl = 0;
                cr_assert_eq(gpuocc_lz4_block_decompress(block, (size_t)c, out, n, &dl), GPUOCC_OK,
                             "level %d kind %d size %zu", level, kind, n);
                cr_assert_eq(dl, n);
                cr_assert(memcmp(out, src, n) == 0);
                checked++;
            }
        }
    }
    cr_log_info("lz4: %d blocks decoded like liblz4", checked);
    free(src);
    free(block);
    free(out);
}

static void check_lz4_corruptions(const uint8_t *block, size_t c, size_t n)
{
    uint8_t *copy = malloc(c), *out = malloc(n), *ref = malloc(n);
    for (size_t cut = 0; cut < c; cut++) {
        memcpy(copy, block, cut);
        size_t dl;
        int32_t rc = gpuocc_lz4_block_decompress(copy, cut, out, n, &dl);
        /* a prefix can end on a sequence boundary and be a valid shorter block; then liblz4 agrees */
        if (rc == GPUOCC_OK) {
            int r = LZ4_decompress_safe((const char *)copy, (char *)ref, (int)cut, (int)n);
            if (r >= 0) {
                cr_assert_eq(dl, (size_t)r);
                cr_assert(memcmp(out, ref, dl) == 0);
            }
        }
    }
    for (size_t bit = 0; bit < c * 8; bit++) {
        memcpy(copy, block, c);
        copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        size_t dl;
        int32_t rc = gpuocc_lz4_block_decompress(copy, c, out, n, &dl);
        if (rc == GPUOCC_OK) {
            int r = LZ4_decompress_safe((const char *)copy, (char *)ref, (int)c, (int)n);
            if (r >= 0) {
                cr_assert_eq(dl, (size_t)r, "bit %zu", bit);
                cr_assert(memcmp(out, ref, dl) == 0, "bit %zu", bit);
            }
        } else {
            cr_assert(rc == GPUOCC_ERR_FORMAT || rc == GPUOCC_ERR_TRUNCATED || rc == GPUOCC_ERR_BUFFER, "%d", rc);
        }
    }
    free(copy);
    free(out);
    free(ref);
}

Test(lz4, corrupted_blocks_fail_cleanly)
{
    size_t n = 3000, cap = (size_t)LZ4_compressBound((int)n);
    uint8_t *src = malloc(n), *block = malloc(cap);
    for (int kind = 0; kind < KIND_COUNT; kind++) {
        generate(src, n, kind, 5);
        int c = LZ4_compress_HC((const char *)src, (char *)block, (int)n, (int)cap, 9);
        check_lz4_corruptions(block, (size_t)c, n);
    }
    free(src);
    free(block);
}

/* The LZ4 entries of a real fatbinary (-compress-mode=speed -Xfatbin=-compress-all): the block spans the
   entry's compressed size, zeros pad the rest of the payload. */
Test(lz4, decodes_real_fatbinary_entries_like_liblz4)
{
    size_t n;
    uint8_t *file = load("units_lz4.fatbin", &n);
    struct entry es[16];
    int count = fatbin_entries(file, n, es, 16), lz4 = 0;
    for (int i = 0; i < count; i++) {
        if (!(es[i].flags & 0x2000))
            continue;
        uint8_t *out = malloc(es[i].uncompressed), *ref = malloc(es[i].uncompressed);
        size_t dl;
        cr_assert_eq(gpuocc_lz4_block_decompress(es[i].payload, es[i].compressed, out, es[i].uncompressed, &dl),
                     GPUOCC_OK);
        cr_assert_eq(dl, es[i].uncompressed);
        for (size_t k = es[i].compressed; k < es[i].payload_size; k++)
            cr_assert_eq(es[i].payload[k], 0);
        cr_assert_eq(LZ4_decompress_safe((const char *)es[i].payload, (char *)ref, (int)es[i].compressed,
                                         (int)es[i].uncompressed),
                     (int)es[i].uncompressed);
        cr_assert(memcmp(out, ref, dl) == 0);
        check_lz4_corruptions(es[i].payload, es[i].compressed, es[i].uncompressed);
        free(out);
        free(ref);
        lz4++;
    }
    cr_assert_geq(lz4, 1);
    free(file);
}
#else
Test(lz4, differential_tests)
{
    cr_skip_test("liblz4-dev is not installed: the differential tests against liblz4 are skipped");
}
#endif
