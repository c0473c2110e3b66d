/* LLVM's kernel-resource-usage remarks: the reader on real clang-19 and llc-19 output captured under
   tests/data/remarks (capture.sh, from kernels.cl, agprs.cl, kernels.hip), the figures asserted being those
   LLVM printed; gpuocc's compiler model against LLVM's printed occupancy for every captured kernel; and the
   contract on hand-written inputs (errors, lines, strides, outputs untouched). */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DATA_DIR
#error DATA_DIR must name tests/data
#endif

#define MAX_KERNELS 64

struct remarks {
    char *text;
    size_t n;
    int32_t count;
    gpuocc_remarks_kernel k[MAX_KERNELS];
};

static void parse_fixture(const char *name, struct remarks *r)
{
    char path[512];
    snprintf(path, sizeof path, "%s/remarks/%s", DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "open %s", path);
    r->text = malloc(1 << 16);
    r->n = fread(r->text, 1, 1 << 16, f);
    fclose(f);
    cr_assert_lt(r->n, (size_t)1 << 16);
    gpuocc_remarks_kernel_init(&r->k[0]);
    int32_t line = -1;
    cr_assert_eq(gpuocc_remarks_parse(r->text, r->n, r->k, MAX_KERNELS, &r->count, &line), GPUOCC_OK, "%s", name);
    cr_assert_eq(line, 0);
}

static const gpuocc_remarks_kernel *find(const struct remarks *r, const char *name, int nth)
{
    for (int32_t i = 0; i < r->count; i++)
        if (r->k[i].name_length == strlen(name) && !memcmp(r->text + r->k[i].name_offset, name, strlen(name)) &&
            nth-- == 0)
            return &r->k[i];
    cr_assert_fail("no kernel %s", name);
    return NULL;
}

/* kernels.cl and agprs.cl: each kernel's amdgpu_flat_work_group_size maximum (OpenCL's default is 256). */
static const struct {
    const char *name;
    int32_t flat_max;
} flat_max[] = {{"lds_16k", 256},     {"vgpr_97", 128}, {"vgpr_200_wg1024", 1024}, {"sgpr_heavy", 64},
                {"plain", 256},       {"lds_48k_wave", 64}, {"with_call", 256},    {"agpr_mix", 256},
                {"agpr_only", 512}};

/* gpuocc's compiler model on the remark's resources must print LLVM's occupancy. */
static void model_agrees(const struct remarks *r, const char *arch)
{
    gpuocc_device d = test_device(arch);
    for (int32_t i = 0; i < r->count; i++) {
        const gpuocc_remarks_kernel *rk = &r->k[i];
        int32_t fm = 0;
        for (size_t j = 0; j < sizeof flat_max / sizeof flat_max[0]; j++)
            if (rk->name_length == strlen(flat_max[j].name) &&
                !memcmp(r->text + rk->name_offset, flat_max[j].name, rk->name_length))
                fm = flat_max[j].flat_max;
        cr_assert_gt(fm, 0);
        gpuocc_kernel k = test_kernel(fm, rk->vgprs, rk->lds_bytes, 0);
        k.agprs = rk->agprs < 0 ? 0 : rk->agprs;
        k.sgprs = rk->sgprs;
        k.max_threads_per_block = fm;
        k.model = GPUOCC_MODEL_LLVM19; /* the fixtures are LLVM 19's */
        gpuocc_result res = test_occupancy(&d, &k);
        cr_expect_eq(res.waves_per_simd, rk->occupancy, "%s %.*s: gpuocc %d, LLVM %d", arch, (int)rk->name_length,
                     r->text + rk->name_offset, res.waves_per_simd, rk->occupancy);
    }
}

Test(remarks, clang19_gfx942)
{
    static struct remarks r;
    parse_fixture("gfx942.log", &r);
    cr_assert_eq(r.count, 9); /* kernels.cl's 7, then agprs.cl's 2 */
    const gpuocc_remarks_kernel *k = find(&r, "lds_16k", 0);
    cr_expect_eq(k->line, 1);
    cr_expect_eq(k->size, sizeof *k);
    cr_expect_eq(k->sgprs, 8);
    cr_expect_eq(k->vgprs, 3);
    cr_expect_eq(k->agprs, 0);
    cr_expect_eq(k->scratch_bytes, 0);
    cr_expect_eq(k->dynamic_stack, 0);
    cr_expect_eq(k->occupancy, 4);
    cr_expect_eq(k->sgpr_spills, 0);
    cr_expect_eq(k->vgpr_spills, 0);
    cr_expect_eq(k->lds_bytes, 16384);
    k = find(&r, "vgpr_97", 0);
    cr_expect_eq(k->line, 13);
    cr_expect_eq(k->sgprs, 67);
    cr_expect_eq(k->vgprs, 97);
    cr_expect_eq(k->occupancy, 4);
    k = find(&r, "plain", 0);
    cr_expect_eq(k->dynamic_stack, 1);
    cr_expect_eq(k->sgprs, 42);
    k = find(&r, "with_call", 0);
    cr_expect_eq(k->scratch_bytes, 68);
    k = find(&r, "agpr_mix", 0);
    cr_expect_eq(k->line, 85);
    cr_expect_eq(k->vgprs, 38);
    cr_expect_eq(k->agprs, 64);
    cr_expect_eq(k->occupancy, 4);
    k = find(&r, "agpr_only", 0);
    cr_expect_eq(k->vgprs, 2);
    cr_expect_eq(k->agprs, 128);
    cr_expect_eq(k->occupancy, 3);
    cr_expect_eq(k->name_offset, k->short_offset); /* not a C++ mangling: its own short name */
    model_agrees(&r, "gfx942");
    free(r.text);
}

Test(remarks, clang19_gfx1100_no_agprs)
{
    static struct remarks r;
    parse_fixture("gfx1100.log", &r);
    cr_assert_eq(r.count, 7);
    const gpuocc_remarks_kernel *k = find(&r, "vgpr_97", 0);
    cr_expect_eq(k->agprs, -1); /* no MFMA on gfx11: LLVM prints no AGPRs line */
    cr_expect_eq(k->sgprs, 61);
    cr_expect_eq(k->occupancy, 12);
    k = find(&r, "vgpr_200_wg1024", 0);
    cr_expect_eq(k->vgprs, 200);
    cr_expect_eq(k->occupancy, 7);
    model_agrees(&r, "gfx1100");
    free(r.text);
}

Test(remarks, llc19_gfx906)
{
    static struct remarks r;
    parse_fixture("gfx906_llc.log", &r); /* "remark: <unknown>:0:0:     SGPRs: 10" */
    cr_assert_eq(r.count, 7);
    const gpuocc_remarks_kernel *k = find(&r, "vgpr_97", 0);
    cr_expect_eq(k->line, 10);
    cr_expect_eq(k->sgprs, 65);
    cr_expect_eq(k->occupancy, 2);
    k = find(&r, "sgpr_heavy", 0);
    cr_expect_eq(k->sgprs, 105);
    cr_expect_eq(k->occupancy, 7); /* gfx9: more than 100 SGPRs leave 7 waves */
    k = find(&r, "with_call", 0);
    cr_expect_eq(k->occupancy, 10);
    model_agrees(&r, "gfx906");
    free(r.text);
}

Test(remarks, hip_two_targets_mangled)
{
    static struct remarks r;
    parse_fixture("hip_two_targets.log", &r);
    cr_assert_eq(r.count, 4); /* two kernels for gfx1100, then for gfx942 */
    const gpuocc_remarks_kernel *k = find(&r, "_Z5saxpyPfPKff", 0);
    cr_expect_eq(k->short_length, 5);
    cr_expect_eq(memcmp(r.text + k->short_offset, "saxpy", 5), 0);
    cr_expect_eq(k->occupancy, 16);
    cr_expect_eq(k->agprs, -1);
    k = find(&r, "_Z5saxpyPfPKff", 1);
    cr_expect_eq(k->occupancy, 8);
    cr_expect_eq(k->agprs, 0);
    k = find(&r, "_Z5tiledILi1024EEvPf", 1);
    cr_expect_eq(k->lds_bytes, 4096);
    cr_expect_eq(k->sgprs, 8);
    free(r.text);
}

/* ---- the contract, on hand-written remarks ---- */

static const char one_kernel[] = "k.cl:2:1: remark: Function Name: k [-Rpass-analysis=kernel-resource-usage]\r\n"
                                 "    2 | kernel void k(global int *o) { /* remark: Function Name: fake */ }\r\n"
                                 "      | ^\r\n"
                                 "k.cl:2:1: remark:     SGPRs: 57 [-Rpass-analysis=kernel-resource-usage]\r\n"
                                 "k.cl:2:1: remark:     VGPRs: 41 [-Rpass-analysis=kernel-resource-usage]\r\n"
                                 "k.cl:2:1: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]\r\n"
                                 "k.cl:2:1: remark:     LDS Size [bytes/block]: 256 [-Rpass-analysis=kernel-resource-usage]\r\n";

static int32_t parse_text(const char *text, gpuocc_remarks_kernel *k, int32_t capacity, int32_t *count, int32_t *line)
{
    return gpuocc_remarks_parse(text, strlen(text), k, capacity, count, line);
}

Test(remarks, crlf_and_quoted_source)
{
    gpuocc_remarks_kernel k[2];
    gpuocc_remarks_kernel_init(&k[0]);
    int32_t count = 0, line = -1;
    cr_assert_eq(parse_text(one_kernel, k, 2, &count, &line), GPUOCC_OK);
    cr_expect_eq(count, 1); /* the source line quoting "remark: Function Name" is not a remark */
    cr_expect_eq(k[0].name_length, 1);
    cr_expect_eq(one_kernel[k[0].name_offset], 'k');
    cr_expect_eq(k[0].sgprs, 57);
    cr_expect_eq(k[0].vgprs, 41);
    cr_expect_eq(k[0].occupancy, 8);
    cr_expect_eq(k[0].lds_bytes, 256);
    cr_expect_eq(k[0].agprs, -1); /* not printed */
    cr_expect_eq(k[0].scratch_bytes, -1);
    cr_expect_eq(k[0].dynamic_stack, -1);
}

Test(remarks, unresolved_expression_is_unknown)
{
    const char *t = "remark: a.ll:1:0: Function Name: f\n"
                    "remark: a.ll:1:0:     SGPRs: f.num_sgpr+(extrasgprs(f.uses_vcc, f.uses_flat_scratch, 1))\n"
                    "remark: a.ll:1:0:     VGPRs: f.num_vgpr\n"
                    "remark: a.ll:1:0:     Occupancy [waves/SIMD]: occupancy(10, 4, 256, 8, 10, 1, 1)\n";
    gpuocc_remarks_kernel k;
    gpuocc_remarks_kernel_init(&k);
    int32_t count = 0, line = -1;
    cr_assert_eq(parse_text(t, &k, 1, &count, &line), GPUOCC_OK);
    cr_expect_eq(k.sgprs, -1);
    cr_expect_eq(k.vgprs, -1);
    cr_expect_eq(k.occupancy, -1);
}

/* Each malformed input: its status, the line named, and outputs untouched. */
Test(remarks, errors_name_the_line_and_write_nothing)
{
    const struct {
        const char *text;
        int32_t status, line;
    } cases[] = {
        /* the kernel's remarks stop before its VGPRs */
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     SGPRs: 1\n", GPUOCC_ERR_TRUNCATED, 1},
        /* ... and another kernel begins */
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     SGPRs: 1\nremark: x:2:0: Function Name: b\n",
         GPUOCC_ERR_TRUNCATED, 1},
        /* two logs interleaved: a resource twice for one kernel */
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     SGPRs: 1\nremark: x:1:0:     SGPRs: 2\n",
         GPUOCC_ERR_PARSE, 3},
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     VGPRs: 4294967296\n", GPUOCC_ERR_PARSE, 2},
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     LDS Size [bytes/block]: 99999999999999999999\n",
         GPUOCC_ERR_PARSE, 2},
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     Dynamic Stack: Maybe\n", GPUOCC_ERR_PARSE, 2},
        {"\n\nremark: x:1:0: Function Name:\n", GPUOCC_ERR_PARSE, 3},
        {"remark: x:1:0: Function Name: a\nremark: x:1:0:     VGPRs:\n", GPUOCC_ERR_PARSE, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpuocc_remarks_kernel k[2];
        memset(k, 0xA5, sizeof k);
        k[0].size = sizeof k[0];
        gpuocc_remarks_kernel before[2];
        memcpy(before, k, sizeof k);
        int32_t count = -7, line = -7;
        cr_expect_eq(parse_text(cases[i].text, k, 2, &count, &line), cases[i].status, "case %zu", i);
        cr_expect_eq(line, cases[i].line, "case %zu: line %d", i, line);
        cr_expect_eq(count, -7);
        cr_expect_eq(memcmp(k, before, sizeof k), 0, "case %zu wrote its output", i);
    }
}

Test(remarks, buffer_stride_and_arguments)
{
    char two[2 * sizeof one_kernel];
    snprintf(two, sizeof two, "%s%s", one_kernel, one_kernel);
    int32_t count = 0, line = -1;
    /* size query, then too small */
    cr_expect_eq(parse_text(two, NULL, 0, &count, &line), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 2);
    gpuocc_remarks_kernel one;
    gpuocc_remarks_kernel_init(&one);
    count = 0;
    cr_expect_eq(parse_text(two, &one, 1, &count, &line), GPUOCC_ERR_BUFFER);
    cr_expect_eq(count, 2);
    cr_expect_eq(one.sgprs, 57); /* the first record is written */
    /* a caller's larger record (a later layout): the stride is its size, the bytes past ours zero */
    enum { BIG = sizeof(gpuocc_remarks_kernel) + 24 };
    _Alignas(8) unsigned char big[2 * BIG];
    memset(big, 0xA5, sizeof big);
    uint32_t size = BIG;
    memcpy(big, &size, sizeof size);
    cr_assert_eq(parse_text(two, (gpuocc_remarks_kernel *)(void *)big, 2, &count, &line), GPUOCC_OK);
    gpuocc_remarks_kernel second;
    memcpy(&second, big + BIG, sizeof second);
    cr_expect_eq(second.size, BIG);
    cr_expect_eq(second.vgprs, 41);
    cr_expect_eq(second.line, 8);
    for (size_t i = sizeof(gpuocc_remarks_kernel); i < BIG; i++)
        cr_expect_eq(big[BIG + i], 0);
    /* arguments */
    gpuocc_remarks_kernel k;
    gpuocc_remarks_kernel_init(&k);
    cr_expect_eq(gpuocc_remarks_parse(NULL, 1, &k, 1, &count, &line), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_remarks_parse(two, 1, NULL, 1, &count, &line), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_remarks_parse(two, 1, &k, 1, NULL, &line), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_remarks_parse(two, 1, &k, 1, &count, NULL), GPUOCC_ERR_NULL);
    cr_expect_eq(gpuocc_remarks_parse(two, 1, &k, -1, &count, &line), GPUOCC_ERR_ARGUMENT);
    k.size = sizeof k - 8;
    cr_expect_eq(parse_text(two, &k, 1, &count, &line), GPUOCC_ERR_STRUCT_SIZE);
    cr_expect_eq(gpuocc_remarks_kernel_init(NULL), GPUOCC_ERR_NULL);
    /* nothing to read is no kernel, not an error; a resource line without its kernel is not ours */
    cr_expect_eq(parse_text("", &k, 0, &count, &line), GPUOCC_OK);
    cr_expect_eq(count, 0);
    cr_expect_eq(parse_text("remark: x:1:0:     SGPRs: 5\nplain text\n", &k, 0, &count, &line), GPUOCC_OK);
    cr_expect_eq(count, 0);
    /* the last line needs no line break */
    char cut[sizeof one_kernel];
    memcpy(cut, one_kernel, sizeof one_kernel);
    cut[strlen(cut) - 2] = '\0';
    gpuocc_remarks_kernel_init(&k);
    cr_expect_eq(parse_text(cut, &k, 1, &count, &line), GPUOCC_OK);
    cr_expect_eq(k.lds_bytes, 256);
}
