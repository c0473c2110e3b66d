/*
 * Decompressors for the formats that fatbinaries use, written from their specifications (RFC 8878 for
 * Zstandard and XXH64, the LZ4 block format description).  Private to the library: no knowledge of GPUs,
 * libc only, no allocation, no global state.  Every function reads only [src, src + src_len) and writes
 * only [dst, dst + dst_cap) and the caller's workspace; on failure the contents of dst are unspecified and
 * the size outputs are untouched.
 */
#ifndef GPUOCC_DECODE_H
#define GPUOCC_DECODE_H

#ifndef GPUOCC_EXPERIMENTAL
#define GPUOCC_EXPERIMENTAL /* the library defines the experimental part too */
#endif
#include "gpuocc.h"

#include <stddef.h>
#include <stdint.h>

/* Bytes of workspace gpuocc_zstd_decompress needs (any alignment). */
size_t gpuocc_zstd_workspace_bytes(void);

/*
 * Decode the one Zstandard frame at the start of `src` into `dst`.  *dst_len is the decoded size and
 * *src_used the frame's size (what follows it is not looked at).  The content checksum, when the frame
 * has one, is verified, and so is the declared content size.
 * Errors: GPUOCC_ERR_NULL, GPUOCC_ERR_ARGUMENT (workspace too small), GPUOCC_ERR_FORMAT (not a frame,
 * corrupted data, checksum mismatch), GPUOCC_ERR_TRUNCATED (the frame runs past src_len),
 * GPUOCC_ERR_BUFFER (the content does not fit dst_cap), GPUOCC_ERR_UNSUPPORTED (a dictionary frame).
 */
int32_t gpuocc_zstd_decompress(const void *src, size_t src_len, void *dst, size_t dst_cap, void *workspace,
                               size_t workspace_len, size_t *dst_len, size_t *src_used);

/* The frame's declared content size; GPUOCC_ERR_UNSUPPORTED when the header does not give one. */
int32_t gpuocc_zstd_content_size(const void *src, size_t src_len, uint64_t *size);

/*
 * Decode one LZ4 block (the raw block format: sequences of token, literals, offset and match, the last
 * sequence literals only) that spans all of [src, src + src_len).  Errors: GPUOCC_ERR_NULL,
 * GPUOCC_ERR_FORMAT (a zero or too distant offset, a block that does not end on its last literals),
 * GPUOCC_ERR_TRUNCATED, GPUOCC_ERR_BUFFER (the output does not fit dst_cap).
 */
int32_t gpuocc_lz4_block_decompress(const void *src, size_t src_len, void *dst, size_t dst_cap, size_t *dst_len);

/* XXH64 of [data, data + length) with `seed` (the xxHash specification; Zstandard keeps its low 32 bits). */
uint64_t gpuocc_xxh64(const void *data, size_t length, uint64_t seed);

#endif
