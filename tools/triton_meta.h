/* A Triton kernel's metadata: the <name>.json Triton writes beside the kernel's binary in its cache
   (tools/triton_meta.c), the launch gpuocc binary DIR takes from it (docs/inputs.md, "Triton caches"). */
#ifndef GPUOCC_TOOLS_TRITON_META_H
#define GPUOCC_TOOLS_TRITON_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most bytes of a json read (Triton 3.9 writes about 1.3 KB); a larger file is a problem of its own. */
#define TRITON_META_MAX_BYTES ((size_t)1 << 20)

struct triton_meta {
    char name[256];      /* "name": the kernel; "" when absent */
    char backend[16];    /* "target"."backend": "cuda", "hip", ...; "" when absent */
    int64_t num_warps;   /* required */
    int64_t warp_size;   /* "warp_size", else "target"."warp_size"; 0 when neither */
    int64_t num_ctas;    /* 1 when absent */
    int64_t maxnreg;     /* -1 when absent or null */
    int64_t shared;      /* the launch's dynamic shared memory, bytes; 0 when absent */
    int64_t tmem_size;   /* tensor-memory columns; 0 when absent or null */
    int64_t cluster[3];  /* "cluster_dims" (older Triton); 0 when absent or null */
};

/* Parse json text p[0, n): true and *m filled when it is an object with the fields above of the right types
   (num_warps 1..1024, the others in range); false with the reason in why[0, cap) otherwise. */
bool triton_meta_parse(const char *p, size_t n, struct triton_meta *m, char *why, size_t cap);

#endif
